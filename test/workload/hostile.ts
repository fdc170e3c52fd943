import type { RecordingCompletedInput } from "@vu/events";
import type { Random } from "../support/random";

/**
 * A minute of one organization whose rollup block the test makes unwritable (a key of the wrong
 * type) before the worker starts: every event of that organization in that minute fails in the
 * apply script, as on a damaged store, and must be dead-lettered without costing its chunk.
 */
export interface PoisonedMinute {
  org: string;
  minuteMs: number;
}

/** The dead-letter reason kind each hostile message must get (null: it is valid and counts). */
export type HostileKind = "invalid_unicode" | "invalid_json" | "apply_failed" | null;

export interface HostileMessage {
  raw: string | Buffer;
  /** The event the message carries when the contract accepts it (NUL characters, a huge valid one). */
  event: RecordingCompletedInput | null;
  kind: HostileKind;
}

/** Kafka's default `max.message.bytes` is 1,048,588: these stay just below it with key and headers. */
const NEAR_LIMIT_BYTES = 1_000_000;

const withText = (event: RecordingCompletedInput, field: keyof RecordingCompletedInput, jsonText: string) =>
  JSON.stringify({ ...event, [field]: "\u0001PLACEHOLDER" }).replace('"\\u0001PLACEHOLDER"', jsonText);

/**
 * Messages a careless or broken producer sends, each built from a valid `template` of the same
 * organization so that it lands in the same partition and chunks as valid events.
 */
export function hostileMessages(template: RecordingCompletedInput, random: Random): HostileMessage[] {
  const id = template.recording_id;
  const padding = "p".repeat(NEAR_LIMIT_BYTES - JSON.stringify(template).length - 20);
  const withNul = { ...template, recording_id: `${id}-nul`, app_name: `Zoom\u0000${random.int(0, 9)}` };
  const huge = { ...template, recording_id: `${id}-huge` };
  return [
    // A string cut inside an emoji: a lone high surrogate, and a lone low one.
    { raw: withText(template, "app_name", '"Zoom \\ud83d"'), event: null, kind: "invalid_unicode" },
    {
      raw: withText(template, "member_email", '"\\udc00x@example.com"'),
      event: null,
      kind: "invalid_unicode",
    },
    // Latin-1 bytes where UTF-8 was promised.
    {
      raw: Buffer.from(withText(template, "app_name", '"B\u00fcro"'), "latin1"),
      event: null,
      kind: "invalid_unicode",
    },
    // NUL characters are well-formed Unicode: counted like any other text.
    { raw: JSON.stringify(withNul), event: withNul, kind: null },
    // Near the broker's limit: a valid event with a huge unknown field counts; broken JSON does not.
    { raw: JSON.stringify({ ...huge, padding }), event: huge, kind: null },
    { raw: `{"padding":"${padding}`, event: null, kind: "invalid_json" },
  ];
}
