/**
 * Caps on what one apply-script call holds, so that one script never holds Redis for long:
 * organizations (each costs a few commands of its own) and recordings (an organization's batch is
 * atomic and never split: alone in its call, it may go over).
 */
export const CALL_LIMITS = { organizations: 256, recordings: 5_000 };

/**
 * Splits batches of distinct organizations into the script calls that apply them: batches share a
 * call only with those of the same tag (a Redis Cluster hash tag; "" on a single Redis), in the
 * order given, up to the limits.
 */
export function callGroups<B>(
  batches: readonly B[],
  tagOf: (batch: B) => string,
  recordingsOf: (batch: B) => number,
  limits = CALL_LIMITS,
): B[][] {
  const byTag = new Map<string, B[]>();
  for (const batch of batches) {
    const tag = tagOf(batch);
    const group = byTag.get(tag);
    if (group === undefined) byTag.set(tag, [batch]);
    else group.push(batch);
  }
  const calls: B[][] = [];
  for (const group of byTag.values()) {
    let call: B[] = [];
    let recordings = 0;
    for (const batch of group) {
      const count = recordingsOf(batch);
      const full = call.length === limits.organizations || recordings + count > limits.recordings;
      if (full && call.length > 0) {
        calls.push(call);
        call = [];
        recordings = 0;
      }
      call.push(batch);
      recordings += count;
    }
    if (call.length > 0) calls.push(call);
  }
  return calls;
}
