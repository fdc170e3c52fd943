import type { Tier } from "@vu/time-buckets";
import { containerIndex, containerOf, type OrgLayout, type StoredTier } from "../format/blockPlacement";
import { storedLocation } from "../format/quarterCells";

export interface BlockRef {
  tier: Tier;
  startMs: number;
}

/** The distinct keys a list of block references is stored under, and where each reference reads. */
export interface StoredBlocks {
  keys: BlockRef[];
  /** Per reference: the index of its key in `keys`. */
  keyOf: Int32Array;
  parts: Int8Array;
}

export function storedBlocks(blocks: readonly BlockRef[]): StoredBlocks {
  const keys: BlockRef[] = [];
  // By tier, then start: no string per block (a month of days read as hours is 720 of them).
  const index = new Map<Tier, Map<number, number>>();
  const keyOf = new Int32Array(blocks.length);
  const parts = new Int8Array(blocks.length);
  blocks.forEach((block, i) => {
    const { tier, startMs, part } = storedLocation(block.tier, block.startMs);
    let ofTier = index.get(tier);
    if (ofTier === undefined) {
      ofTier = new Map();
      index.set(tier, ofTier);
    }
    let k = ofTier.get(startMs);
    if (k === undefined) {
      k = keys.length;
      keys.push({ tier, startMs });
      ofTier.set(startMs, k);
    }
    keyOf[i] = k;
    parts[i] = part;
  });
  return { keys, keyOf, parts };
}

/** Where a stored block's container cells are: which container read, and the block's index there. */
export interface ContainerSlot {
  container: number;
  index: number;
}

/** No read of that kind for this block. */
export const NOT_READ = -1;

/**
 * What one read fetches for a list of stored blocks, by the organization's layout
 * (blockPlacement.ts): a block's cells are in its current place, and, if it starts no later than
 * its tier's mark, possibly in the places of earlier placements too: every one that may hold some
 * is read, and the reader sums them.
 */
export interface ReadPlan {
  containers: BlockRef[];
  /** Per stored block: its slot among the containers' blocks, or null. */
  slots: Array<ContainerSlot | null>;
  keyed: BlockRef[];
  /** Per stored block: its index in `keyed`, or NOT_READ. */
  keyedOf: Int32Array;
  projected: BlockRef[];
  /** Per stored block: its index in `projected`, or NOT_READ. */
  projectedOf: Int32Array;
}

export function readPlan(stored: StoredBlocks, layout: OrgLayout): ReadPlan {
  const containers: BlockRef[] = [];
  const containerNumbers = new Map<string, number>();
  // Per tier, the container the last block was in: consecutive blocks mostly share one.
  const lastPlace = new Map<StoredTier, { startMs: number; endMs: number; container: number }>();
  const keyed: BlockRef[] = [];
  const projected: BlockRef[] = [];
  const keyedOf = new Int32Array(stored.keys.length).fill(NOT_READ);
  const projectedOf = new Int32Array(stored.keys.length).fill(NOT_READ);
  const slots = stored.keys.map((block, k): ContainerSlot | null => {
    const tier = block.tier as StoredTier;
    const placement = layout.placement[tier];
    const mark = layout.marks[tier];
    // Written before the tier last moved: earlier places may hold some of its cells.
    const older = mark !== null && block.startMs <= mark;
    if (placement === "projected") {
      projectedOf[k] = projected.length;
      projected.push(block);
    }
    if (placement === "keyed" || (placement === "projected" && older)) {
      keyedOf[k] = keyed.length;
      keyed.push(block);
    }
    if (placement !== "container" && !older) return null;
    let place = lastPlace.get(tier);
    if (place === undefined || block.startMs < place.startMs || block.startMs >= place.endMs) {
      const { startMs, endMs } = containerOf(tier, block.startMs);
      const id = `${tier}:${startMs}`;
      let container = containerNumbers.get(id);
      if (container === undefined) {
        container = containers.length;
        containers.push({ tier, startMs });
        containerNumbers.set(id, container);
      }
      place = { startMs, endMs, container };
      lastPlace.set(tier, place);
    }
    return { container: place.container, index: containerIndex(tier, block.startMs, place.startMs) };
  });
  return { containers, slots, keyed, keyedOf, projected, projectedOf };
}
