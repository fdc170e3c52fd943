import { INITIAL_LAYOUT_CODE, layoutOf, type OrgLayout, parseLayout } from "../format/blockPlacement";
import type { CountableRecording } from "./batchAggregate";

function spanOf(recordings: readonly CountableRecording[]): number {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const { recordedAtMs } of recordings) {
    if (recordedAtMs < first) first = recordedAtMs;
    if (recordedAtMs > last) last = recordedAtMs;
  }
  return recordings.length === 0 ? 0 : last - first;
}

/** Organizations whose layout a writer remembers; past it, the longest unused is forgotten. */
const MAX_ORGS = 100_000;

/**
 * What a writer last heard of each organization's layout (every apply reply says), so a batch is
 * laid out right the first time. A wrong guess costs one refused call (`-4`), never a wrong count:
 * the apply script checks the layout before writing. Of an organization it has not heard of, the
 * writer judges by the batch alone (`layoutOf`): right for a new tenant, whose first large batch
 * then goes where its density says at once instead of into containers.
 * Marks do not matter to a writer: only where each tier's blocks go. `derives`: whether new
 * organizations start with derived tiers (blockPlacement.ts `derivesTiers`).
 */
export function createLayoutCache(derives: boolean) {
  const known = new Map<string, OrgLayout>();
  return {
    of(org: string, recordings: readonly CountableRecording[]): OrgLayout {
      return known.get(org) ?? layoutOf(recordings.length, spanOf(recordings), derives);
    },
    learn(org: string, code: string): void {
      const normalized = code === "" ? INITIAL_LAYOUT_CODE : code;
      if (known.get(org)?.code === normalized) return;
      known.delete(org);
      known.set(org, parseLayout([normalized]));
      if (known.size > MAX_ORGS) {
        const oldest = known.keys().next().value;
        if (oldest !== undefined) known.delete(oldest);
      }
    },
  };
}
