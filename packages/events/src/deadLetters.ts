/**
 * The dead-letter topic's contract (docs/contract.md §1): a message the worker refuses is copied
 * there, its value as it was (cut when too long for the topic) and its key as it was, with these
 * headers. Declared with the event, so the worker that writes them, the tests that read them and
 * the AsyncAPI document that describes them share one list.
 */
export const DLQ_HEADERS = {
  reason: "x-dlq-reason",
  sourceTopic: "x-dlq-source-topic",
  sourcePartition: "x-dlq-source-partition",
  sourceOffset: "x-dlq-source-offset",
  /** Present for an undecodable record batch: the first offset it held (`sourceOffset` is its last). */
  sourceFirstOffset: "x-dlq-source-first-offset",
  /** The original value's length in bytes, present when the value was cut to fit the topic. */
  truncated: "x-dlq-truncated",
} as const;

/** What each header holds, for the AsyncAPI document. */
export const DLQ_HEADER_MEANINGS: Readonly<Record<keyof typeof DLQ_HEADERS, string>> = {
  reason:
    "Why the message was refused: `not valid JSON…`, `invalid_unicode…`, `<field>: <problem>` (a rule of the event's schema, or `recorded_at: more than 24 hours in the future`), `apply_failed: …` (the store refused the recording on its own), `undecodable_batch: …` (a whole record batch that could not be decoded: its codec is unknown, it is corrupt, or it would decompress to more than 128 MiB; the value is then the record batch as the broker sent it), or another diagnosis; at most 1,000 characters.",
  sourceTopic: "The topic the message was read from.",
  sourcePartition: "Its partition there (decimal).",
  sourceOffset: "Its offset there (decimal); for an undecodable record batch, the batch's last offset.",
  sourceFirstOffset:
    "Present only for an undecodable record batch: the first offset it held (decimal). Every offset from this one to x-dlq-source-offset is lost to the statistics until the batch is sent again in a codec the worker reads.",
  truncated: "Present only when the value was cut to fit the topic: the original value's length in bytes.",
};
