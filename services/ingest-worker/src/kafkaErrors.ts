/**
 * Broker error types caused by the records themselves: sending the same records again fails the
 * same way, so the sender must change them (split the request, shorten a record) instead of
 * retrying. Every other failure (a lost connection, a leader election, an exhausted retry budget,
 * an authorization or configuration problem an operator can fix) is retried: giving up on it
 * would lose dead letters for a reason that is not theirs.
 */
const RECORD_CAUSED = new Set([
  "MESSAGE_TOO_LARGE",
  "RECORD_LIST_TOO_LARGE",
  "INVALID_RECORD",
  "CORRUPT_MESSAGE",
]);

/** Whether a produce error was caused by the records sent (KafkaJS wraps the broker's error in `cause`). */
export function isRecordCausedKafkaError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const type = (e as { type?: unknown }).type;
    if (typeof type === "string" && RECORD_CAUSED.has(type)) return true;
  }
  return false;
}
