import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { acceptedWithoutZod } from "./fastValidation";
import { recordingCompletedSchema } from "./recordingCompleted";

const valid = {
  schema_version: 1,
  recording_id: "rec-1",
  organization_id: "org.a:b_c-1",
  member_email: "Anna.Smith+x@Example.COM",
  voice_model: "whisper-large-v3",
  language_model: "gpt-4o-mini",
  app_name: "Notes",
  recorded_at: "2026-03-04T05:06:07.123+05:30",
  duration_ms: 123_456,
  word_count: 0,
  voice_processing_ms: 1_234,
  llm_processing_ms: null,
};
type Field = keyof typeof valid;
const FIELDS = Object.keys(valid) as Field[];

/** Values near every check's edges, and of every JSON type. */
const EDGES: unknown[] = [
  null,
  undefined,
  0,
  -0,
  1,
  -1,
  1.5,
  2 ** 53 - 1,
  2 ** 53,
  "",
  "x",
  "x".repeat(128),
  "x".repeat(129),
  "x".repeat(200),
  "x".repeat(201),
  "a@b.co",
  "A@B.CO",
  "a@b",
  "a..b@c.de",
  ".a@b.de",
  `${"a".repeat(243)}@example.com`,
  `${"a".repeat(244)}@example.com`,
  "2026-02-29T00:00:00Z",
  "2028-02-29T00:00:00Z",
  "2026-03-04T05:06:07Z",
  "2026-03-04T05:06:07",
  "2026-03-04T24:00:00Z",
  "2026-03-04T05:06:07.1234567-11:59",
  "2026-03-04 05:06:07Z",
  "org with space",
  "org/slash",
  "😀",
  [],
  {},
  true,
  "1",
];
const edgeValue = fc.oneof(
  fc.constantFrom(...EDGES),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.double(),
);

/** A valid event with some fields replaced, removed or added. */
const mutatedEvent = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...FIELDS), edgeValue, { maxKeys: 3 }),
    fc.subarray(FIELDS, { maxLength: 1 }),
    fc.boolean(),
  )
  .map(([replaced, removed, extra]) => {
    const event: Record<string, unknown> = { ...valid, ...replaced };
    for (const field of removed) delete event[field];
    if (extra) event.future_field = "ignored";
    return event;
  });

function expectSameAsSchema(json: unknown): boolean {
  const fast = acceptedWithoutZod(json);
  const parsed = recordingCompletedSchema.safeParse(json);
  expect(fast !== undefined, JSON.stringify(json)).toBe(parsed.success);
  if (parsed.success) expect(fast).toStrictEqual(parsed.data);
  return parsed.success;
}

describe("acceptedWithoutZod", () => {
  it("agrees with the schema on every field set to every edge value", () => {
    let accepted = 0;
    for (const field of FIELDS)
      for (const value of EDGES) if (expectSameAsSchema({ ...valid, [field]: value })) accepted++;
    expect(accepted).toBeGreaterThan(50);
  });

  it("agrees with the schema on valid events with fields replaced, removed or added", () => {
    const seen = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(mutatedEvent, (json) => {
        seen[expectSameAsSchema(json) ? "accepted" : "refused"]++;
      }),
      { numRuns: 5_000 },
    );
    // Both sides of every check were tried, not only refusals.
    expect(seen.accepted).toBeGreaterThan(500);
    expect(seen.refused).toBeGreaterThan(500);
  });

  it("takes the common event without the schema, lower-casing the email and dropping unknown fields", () => {
    expect(acceptedWithoutZod({ ...valid, extra: 1 })).toStrictEqual({
      ...valid,
      member_email: "anna.smith+x@example.com",
    });
  });

  it("refuses what is not an object", () => {
    for (const json of [null, 1, "event", [valid]]) expect(acceptedWithoutZod(json)).toBeUndefined();
  });
});
