import type { Tier } from "@vu/time-buckets";
import { LAYOUT_FIELDS, MAX_BLOCKS_PER_CONTAINER } from "../format/blockPlacement";
import {
  type OrganizationExtent,
  parseExtent,
  SKETCHED_FIELD,
  SKETCHED_MARK,
} from "../format/organizationExtent";
import { statusOf, type ViewStatus } from "../log/logRecord";
import { cellsByBlock, type StoredCells } from "./containerCells";
import type { OrganizationHints } from "./organizationHints";
import type { ReadContext } from "./readContext";
import { type BlockRef, NOT_READ, type ReadPlan } from "./readPlan";
import { execute } from "./redisReplies";
import { type KeyRead, type KeyReply, readConsistently } from "./slicedRead";

/** The extent hash's field the apply script sets with every batch that counts anything. */
export const WRITE_STAMP_FIELD = "stamp";
/** The extent's count of the organization's recordings (the apply script's `n`). */
export const RECORDINGS_FIELD = "n";

/**
 * Tiers whose blocks are fetched selectively. Minute and hour blocks mostly hold few cells, which
 * Redis keeps as a listpack: there HMGET scans the block once per requested field, so reading the
 * whole block is cheaper (docs/decisions/0005-selective-field-reads.md).
 */
const SELECTIVE_TIERS: ReadonlySet<Tier> = new Set<Tier>(["day", "week", "month"]);

/** The keys of one organization's read, in one generation. */
export interface ReadKeys {
  generation: number;
  org: string;
  projection(b: BlockRef): string;
  keyed(b: BlockRef): string;
  container(tier: Tier, startMs: number): string;
  combos: string;
  extent: string;
  /**
   * The log hash, when the view's status is read in the same MULTI as the blocks (a single Redis:
   * on a cluster it lives on another node).
   */
  log?: string | undefined;
  /**
   * The key of the percentile sketches beside a key of cells (any projection's, a container, a
   * keyed block), when the read fetches them too (docs/contract.md §9 `percentiles`).
   */
  sketches?: ((key: string) => string) | undefined;
}

/** One MULTI's result, per stored block (see ReadPlan). */
export interface AtomicRead {
  /** Cells from the projection's key of each block placed `projected` (EMPTY for the others). */
  projectionCells: StoredCells[];
  comboCells: StoredCells[];
  /**
   * With `ReadKeys.sketches`: the sketch cells beside `projectionCells` and `comboCells`, in the
   * same shape (a field's sketch cell has the field's name).
   */
  projectionSketches?: StoredCells[];
  comboSketches?: StoredCells[];
  comboCount: number;
  extent: OrganizationExtent;
  stamp: string | null;
  /** The extent's LAYOUT_FIELDS in the same state. */
  layout: Array<string | null>;
  /**
   * Whether the sketches hold every recording of the organization (it has none, or every one was
   * counted with them beside every key of cells: SKETCHED_FIELD is SKETCHED_MARK), in the same state.
   */
  sketched: boolean;
  /** With `ReadKeys.log`: the view's status in the same state. */
  status?: ViewStatus | undefined;
}

const EMPTY: StoredCells = [];

/**
 * Every block, in one MULTI or in slices that saw one write stamp (slicedRead.ts), so that all of
 * them and the combination table's size are one state of the store (docs/contract.md §2: a batch
 * is wholly in an answer or not at all, and a cover that subtracts blocks must not see half of
 * one): every place the plan says may hold a block's cells. With `fields`, coarse-tier block keys
 * return only those fields (see SELECTIVE_TIERS). The table's size comes last, so it counts every
 * combination any cell read can hold. The extent's layout comes back too: when it is not the one
 * the plan was made for, the caller reads again.
 */
export async function readAtomically(
  context: ReadContext,
  plan: ReadPlan,
  keys: ReadKeys,
  beforeLargeRead: ((fields: number) => Promise<void>) | undefined,
  fields?: string[],
): Promise<AtomicRead> {
  const { redis, hints, sliceFields, largeReadFields } = context;
  const { generation, org } = keys;
  // No field can match: the blocks need not be read, only the table's size and the extent.
  const readBlocks = fields === undefined || fields.length > 0;
  // The tiers some key is read whole from: a recording adds a field to one key of each
  // (wholeFieldsAtMost).
  const wholeTiers = new Set<Tier>();
  const whole = (key: string, tier: Tier): KeyRead => {
    wholeTiers.add(tier);
    return { key };
  };
  const fetch = (key: string, tier: Tier): KeyRead =>
    fields && SELECTIVE_TIERS.has(tier) ? { key, fields } : whole(key, tier);
  const placeReads = (keyOf: (key: string) => string): KeyRead[] => [
    // A container holds many blocks' cells under fields of its own: always read whole.
    ...plan.containers.map((c) => whole(keyOf(keys.container(c.tier, c.startMs)), c.tier)),
    ...(readBlocks ? plan.keyed : []).map((b) => fetch(keyOf(keys.keyed(b)), b.tier)),
    ...(readBlocks ? plan.projected : []).map((b) => fetch(keyOf(keys.projection(b)), b.tier)),
  ];
  const sketches = keys.sketches;
  // The sketches' keys after the cells', in the same order and with the same fields.
  const reads: KeyRead[] = [...placeReads((key) => key), ...(sketches ? placeReads(sketches) : [])];
  const recordings = hints.recentRecordings(generation, org);
  const named = reads.reduce((n, r) => n + (r.fields?.length ?? 0), 0);
  const read = await readConsistently(redis, reads, {
    stamp: { key: keys.extent, field: WRITE_STAMP_FIELD },
    addTail: (multi) => {
      multi.hmget(
        keys.extent,
        "first",
        "last",
        WRITE_STAMP_FIELD,
        RECORDINGS_FIELD,
        SKETCHED_FIELD,
        ...LAYOUT_FIELDS,
      );
      multi.hlen(keys.combos);
      if (keys.log !== undefined) multi.hmget(keys.log, "epoch", "state", "reason");
    },
    exec: (multi) => execute(multi, org),
    budget: sliceFields,
    largeAt: largeReadFields,
    ...(beforeLargeRead && { beforeLargeRead }),
    atMost:
      recordings === undefined
        ? undefined
        : named + wholeFieldsAtMost(hints, reads, recordings, wholeTiers.size * (sketches ? 2 : 1)),
  });
  const replies: KeyReply[] = read.replies;
  const comboCount = Number(read.tail[1] ?? 0);
  const [first, last, stamp = null, recorded, sketchedField, ...layout] =
    (read.tail[0] as Array<string | null>) ?? [];
  // Another writer's mark (sketches beside the combination cells only) is no mark: SKETCHED_MARK.
  const sketched = Number(recorded ?? 0) === 0 || sketchedField === SKETCHED_MARK;
  const [epoch, state, reason] = (read.tail[2] as Array<string | null> | undefined) ?? [];
  const status = keys.log === undefined ? undefined : statusOf(epoch, state, reason);
  rememberKeyFields(hints, reads, replies, Number(recorded ?? 0));
  hints.rememberRecordings(generation, org, Number(recorded ?? 0));
  const extent = parseExtent(first, last, comboCount);
  const wanted = blocksWanted(plan);
  const cells = placesOf(replies, plan, wanted, fields, readBlocks);
  const sketchCells = sketches && placesOf(replies, plan, wanted, fields, readBlocks);
  return {
    ...cells,
    ...(sketchCells && {
      projectionSketches: sketchCells.projectionCells,
      comboSketches: sketchCells.comboCells,
    }),
    comboCount,
    extent,
    stamp,
    layout,
    sketched,
    status,
  };
}

/**
 * One set of places' replies (the cells', or their sketches'), taken from the front of `replies`
 * in the order `readAtomically` asked for them: per stored block, its cells in the projection's key
 * and its combination cells from its container (the blocks `wanted` of it) and combinations key.
 */
function placesOf(
  replies: KeyReply[],
  plan: ReadPlan,
  wanted: readonly Uint8Array[],
  fields: string[] | undefined,
  readBlocks: boolean,
): { projectionCells: StoredCells[]; comboCells: StoredCells[] } {
  const containers = (replies.splice(0, plan.containers.length) as Buffer[][]).map((reply, c) =>
    cellsByBlock(reply, wanted[c]),
  );
  const cellsOf = (blocks: BlockRef[]) =>
    (replies.splice(0, readBlocks ? blocks.length : 0) as Array<Array<Buffer | null>>).map(
      (values, i): StoredCells => {
        if (!fields || !SELECTIVE_TIERS.has((blocks[i] as BlockRef).tier)) return values as Buffer[];
        const selected: StoredCells = [];
        values.forEach((value, j) => {
          if (value !== null) selected.push(Buffer.from(fields[j] as string), value);
        });
        return selected;
      },
    );
  const keyed = cellsOf(plan.keyed);
  const projected = cellsOf(plan.projected);
  const projectionCells = Array.from(plan.projectedOf, (i) =>
    i === NOT_READ ? EMPTY : (projected[i] ?? EMPTY),
  );
  // Combination cells from a block's container and its combinations key, as one list.
  const comboCells = plan.slots.map((slot, k) => {
    const inContainer = slot === null ? EMPTY : (containers[slot.container]?.get(slot.index) ?? EMPTY);
    const i = plan.keyedOf[k] as number;
    const inKey = i === NOT_READ ? EMPTY : (keyed[i] ?? EMPTY);
    return inKey.length === 0 ? inContainer : inContainer.length === 0 ? inKey : [...inContainer, ...inKey];
  });
  return { projectionCells, comboCells };
}

/**
 * At most how many fields the whole-key reads fetch, for an organization of `n` recordings (the
 * count the write stamp's read at the request's start found, `RollupReader.writeStamp`): what each
 * key held when last read and a field per recording since in each place a recording is written
 * (OrganizationHints.fieldsAtMost). Remembered for every key, not only containers: a large
 * organization's hour keys hold a few fields each, and without their sizes a 7-day question would
 * ask 168 HLENs in a round trip of their own before reading them.
 */
function wholeFieldsAtMost(
  hints: OrganizationHints,
  reads: readonly KeyRead[],
  n: number,
  placesPerRecording: number,
): number {
  const whole = reads.filter((read) => read.fields === undefined).map((read) => read.key);
  return hints.fieldsAtMost(whole, n, placesPerRecording);
}

/** Each whole-key read's fields as this read found them. */
function rememberKeyFields(
  hints: OrganizationHints,
  reads: readonly KeyRead[],
  replies: readonly KeyReply[],
  n: number,
): void {
  reads.forEach((read, i) => {
    if (read.fields === undefined) hints.rememberFields(read.key, (replies[i]?.length ?? 0) >> 1, n);
  });
}

/** Per container read, which block indices the read asked for in it (1: asked). */
function blocksWanted(plan: ReadPlan): Uint8Array[] {
  const wanted = plan.containers.map(() => new Uint8Array(MAX_BLOCKS_PER_CONTAINER));
  for (const slot of plan.slots) if (slot !== null) (wanted[slot.container] as Uint8Array)[slot.index] = 1;
  return wanted;
}
