import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { acceptedWithoutZod, DATETIME, EMAIL } from "./fastValidation";
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
  // Lengths count code points: a surrogate pair is one, a lone surrogate one.
  ...[64, 65, 100, 128, 129, 200, 201].map((n) => "😀".repeat(n)),
  `${"😀".repeat(127)}x`,
  "\ud83d".repeat(129),
];
const edgeValue = fc.oneof(
  fc.constantFrom(...EDGES),
  fc.string({ maxLength: 12, unit: "binary" }),
  fc.string({ minLength: 120, maxLength: 260, unit: "binary" }),
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

  it("checks the e-mail address and the time with the schema's own patterns", () => {
    // zod's internals, read here only: were a zod upgrade to change a pattern, this fails.
    type Def = { pattern?: RegExp; checks?: { _zod: { def: Def } }[]; in?: { _zod: { def: Def } } };
    const shape = recordingCompletedSchema.shape as unknown as Record<string, { _zod: { def: Def } }>;
    expect(String(shape.recorded_at?._zod.def.pattern)).toBe(String(DATETIME));
    const email = shape.member_email?._zod.def.in?._zod.def;
    expect(String(email?.pattern)).toBe(String(EMAIL));
  });

  it("refuses what is not an object", () => {
    for (const json of [null, 1, "event", [valid]]) expect(acceptedWithoutZod(json)).toBeUndefined();
  });
});
