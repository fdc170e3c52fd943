import type { Tier } from "@vu/time-buckets";
import { containerOf, type StoredTier } from "./blockPlacement";
import { storedLocation } from "./quarterCells";

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
  const index = new Map<string, number>();
  const keyOf = new Int32Array(blocks.length);
  const parts = new Int8Array(blocks.length);
  blocks.forEach((block, i) => {
    const { tier, startMs, part } = storedLocation(block.tier, block.startMs);
    const id = `${tier}:${startMs}`;
    let k = index.get(id);
    if (k === undefined) {
      k = keys.length;
      keys.push({ tier, startMs });
      index.set(id, k);
    }
    keyOf[i] = k;
    parts[i] = part;
  });
  return { keys, keyOf, parts };
}

/** Where a stored block's sparse cells are: which container read, and the block's index there. */
export interface ContainerSlot {
  container: number;
  index: number;
}

/**
 * What one read fetches for a list of stored blocks: every container of their periods (a block's
 * cells may be there whether or not its tier is dense now: written before the switch), and the
 * key of every block of a tier assumed dense.
 */
export interface ReadPlan {
  containers: BlockRef[];
  /** Per stored block: its slot among the containers' blocks. */
  slots: ContainerSlot[];
  denseKeys: BlockRef[];
  /** Per stored block: its index in `denseKeys`, or -1 for a tier assumed sparse. */
  denseOf: Int32Array;
  /** The tiers of these blocks the plan reads no block keys of. */
  assumedSparse: ReadonlySet<Tier>;
}

export function readPlan(stored: StoredBlocks, dense: ReadonlySet<StoredTier>): ReadPlan {
  const containers: BlockRef[] = [];
  const containerIndex = new Map<string, number>();
  const denseKeys: BlockRef[] = [];
  const denseOf = new Int32Array(stored.keys.length).fill(-1);
  const assumedSparse = new Set<Tier>();
  const slots = stored.keys.map((block, k): ContainerSlot => {
    const tier = block.tier as StoredTier;
    if (dense.has(tier)) {
      denseOf[k] = denseKeys.length;
      denseKeys.push(block);
    } else {
      assumedSparse.add(tier);
    }
    const place = containerOf(tier, block.startMs);
    const id = `${tier}:${place.startMs}`;
    let container = containerIndex.get(id);
    if (container === undefined) {
      container = containers.length;
      containers.push({ tier, startMs: place.startMs });
      containerIndex.set(id, container);
    }
    return { container, index: place.index };
  });
  return { containers, slots, denseKeys, denseOf, assumedSparse };
}
