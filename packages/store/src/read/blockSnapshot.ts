import type { DimensionValues } from "@vu/events";
import { HOUR_MS } from "@vu/time-buckets";
import { containerOf, LAYOUT_FIELDS, parseLayout, type StoredTier } from "../format/blockPlacement";
import type { OrganizationExtent } from "../format/organizationExtent";
import type { Projection } from "../format/projections";
import type { ViewStatus } from "../log/logRecord";
import { type AtomicRead, type ReadKeys, readAtomically } from "./atomicRead";
import { type SnapshotCells, sumBuckets } from "./bucketSums";
import type { StoredCells } from "./containerCells";
import { chainReads, daysAsHours, type IsKept } from "./dayHours";
import { cellsAsked, derivedRead } from "./derivedBlocks";
import type { ReadView } from "./liveViews";
import type { ReadContext } from "./readContext";
import { type BlockRef, type ReadPlan, readPlan, storedBlocks } from "./readPlan";
import type { BucketSumsSink, SumsQuestion } from "./sumsQuestion";

/**
 * One consistent read of an organization's blocks (one projection of them): the extent and write
 * stamp in the same state, and the sums its cells give a question. What the cells hold and how
 * they are laid out stays in the store (`@vu/store/cell-format` lends them to tests and tools).
 */
export interface BlockSnapshot {
  /** The organization's extent in the same state as the cells (read in the same MULTI). */
  readonly extent: OrganizationExtent;
  /**
   * The organization's write stamp in the same state (see `writeStamp`); null when nothing was
   * written since stamps exist.
   */
  readonly stamp: string | null;
  /**
   * With `ReadOptions.confirming` on a single Redis: the view's status read in the same MULTI as
   * the cells, when nothing was read after it (else undefined, and the view is confirmed apart).
   */
  readonly viewStatus?: ViewStatus | undefined;
  /**
   * Whether every recording of the organization was counted with its percentile sketches beside
   * every key of cells (the writer keeps them: `RollupWriterOptions.sketches`), in the same state:
   * only then can a question ask for percentiles (`SumsQuestion.percentiles`).
   */
  readonly sketched: boolean;
  /**
   * The question's sums per (bucket, group), handed to `into` bucket by bucket (bucketSums.ts), in
   * steps: each `next()` sums a bounded number of cells, so a caller may pause between steps.
   * Drive it to its end; a cell the question cannot read (an unknown combination, a field
   * without its quarter digit, a projection that cannot answer) throws.
   */
  sumBuckets(question: SumsQuestion, into: BucketSumsSink): Generator<void, void, void>;
}

/** The snapshot the reader returns, its cells kept for sumBuckets. */
export class StoredSnapshot implements BlockSnapshot {
  constructor(
    readonly cells: SnapshotCells,
    readonly extent: OrganizationExtent,
    readonly stamp: string | null,
    readonly sketched: boolean,
    readonly viewStatus?: ViewStatus | undefined,
  ) {}

  sumBuckets(question: SumsQuestion, into: BucketSumsSink): Generator<void, void, void> {
    if (question.percentiles && !this.sketched)
      throw new Error("percentiles asked of an organization counted without its sketches");
    return sumBuckets(this.cells, question, into);
  }
}

/** The cells of a snapshot the reader returned: for tests and tools that check what is stored. */
export function snapshotCellsOf(snapshot: BlockSnapshot): SnapshotCells {
  if (!(snapshot instanceof StoredSnapshot)) throw new Error("not a snapshot the store's reader returned");
  return snapshot.cells;
}

export interface ReadOptions {
  /**
   * Combinations projection only: the combinations the query can use. When they are a small part of the
   * table, only their fields are fetched (HMGET) from day, week and month blocks instead of whole
   * blocks (HGETALL). A hint: other cells may still come back, so callers filter every cell.
   */
  combosMatching?: (values: DimensionValues) => boolean;
  /**
   * Which blocks are still stored at the query's time (the retention rule its cover was made
   * with). Given, the read may fetch a block as finer ones that are kept and hold the same cells,
   * where that costs less to fetch and walk (dayHours.ts); without it, every block is read as asked.
   */
  kept?: IsKept | undefined;
  /**
   * Called before a read of more fields than `largeReadFields`, with their number, from the keys'
   * sizes: the caller may queue a large read behind others, or refuse it by throwing (nothing has
   * been read then). Smaller reads never call it, whether or not they go in slices.
   */
  beforeLargeRead?: (fields: number) => Promise<void>;
  /**
   * The view the read must belong to (`RollupReader.readBlocks` confirms it): on a single Redis its
   * status is read in the blocks' own MULTI, costing no round trip of its own.
   */
  confirming?: ReadView | undefined;
  /**
   * Also read the percentile sketches beside the cells read, whatever the projection
   * (docs/contract.md §9 `percentiles`; docs/decisions/0029-projection-sketches.md), for a question
   * with `percentiles`.
   */
  sketches?: boolean;
}

/** Fetch selected fields only while they are at most this share of all combinations. */
const SELECTIVE_SHARE = 0.25;
/** An organization's layout fields before anything moved (blockPlacement.ts): containers only. */
const NO_LAYOUT: ReadonlyArray<string | null> = LAYOUT_FIELDS.map(() => null);
const NO_COMBOS: ReadonlyMap<string, DimensionValues> = new Map();

/**
 * One projection of every requested block of one organization, read as one state of the store, with the
 * combination table its cells need. Planned for the layout the last read found; a read that finds
 * another is made again (a layout only moves on: blockPlacement.ts).
 */
export async function readBlockSnapshot(
  context: ReadContext,
  generation: number,
  org: string,
  blocks: readonly BlockRef[],
  projection: Projection,
  options: ReadOptions,
): Promise<BlockSnapshot> {
  const { keyspace, hints } = context;
  const keys: ReadKeys = {
    generation,
    org,
    projection: (b) => keyspace.block(generation, org, b.tier, b.startMs, projection),
    keyed: (b) => keyspace.keyed(generation, org, b.tier, b.startMs),
    container: (tier, startMs) => keyspace.container(generation, org, tier, startMs),
    combos: keyspace.combos(generation, org),
    extent: keyspace.extent(generation, org),
    // A MULTI keeps to one slot on a cluster, where the log hash has its own.
    log: options.confirming && !context.redis.isCluster ? keyspace.log(generation) : undefined,
    sketches: options.sketches ? keyspace.sketches : undefined,
  };
  for (;;) {
    const assumed = hints.layout(generation, org) ?? NO_LAYOUT;
    const layout = parseLayout(assumed);
    // Blocks of derived tiers are read as their days (derivedBlocks.ts), days perhaps as their hours.
    const days = derivedRead(blocks, layout);
    const hours = daysAsHours(days.fetched, layout, options.kept, (tier, startMs) =>
      containerFields(context, generation, org, keys.container(tier, startMs), tier, startMs),
    );
    const derived = hours === undefined ? days : chainReads(days, hours);
    const stored = storedBlocks(derived.fetched);
    const plan = readPlan(stored, layout);
    const read = await readWithCombos(context, plan, keys, projection, options);
    hints.rememberLayout(generation, org, read.layout);
    if (read.layout.some((value, i) => value !== assumed[i])) continue;
    const perFetched = (cells: StoredCells[]) => Array.from(stored.keyOf, (k) => cells[k] as StoredCells);
    const { projectionSketches, comboSketches } = read;
    const cells: SnapshotCells = {
      projection,
      combos: read.combos,
      cells: cellsAsked(derived, perFetched(read.projectionCells)),
      comboCells: cellsAsked(derived, perFetched(read.comboCells)),
      ...(projectionSketches &&
        comboSketches && {
          sketches: {
            cells: cellsAsked(derived, perFetched(projectionSketches)),
            comboCells: cellsAsked(derived, perFetched(comboSketches)),
          },
        }),
      // A derived block's days are whole blocks, as the block itself would be.
      parts: Int8Array.from(blocks, (_, i) => stored.parts[derived.from[i] as number] as number),
    };
    return new StoredSnapshot(cells, read.extent, read.stamp, read.sketched, read.status);
  }
}

/**
 * A container's fields as the last read of it found them, or else an estimate: the organization's
 * recordings spread evenly over its extent, those in the container's period (an upper bound
 * where recordings share cells). Nothing known of the organization: the period's length, which
 * weighs containers of one organization against each other as evenly spread data would.
 */
function containerFields(
  context: ReadContext,
  generation: number,
  org: string,
  key: string,
  tier: StoredTier,
  startMs: number,
): number {
  const { hints } = context;
  const known = hints.fields(key);
  if (known !== undefined) return known;
  const { endMs } = containerOf(tier, startMs);
  const extent = hints.lastExtent(generation, org);
  const recordings = hints.lastRecordings(generation, org);
  if (extent === null) return 0;
  if (extent === undefined || extent === "unknown" || recordings === undefined)
    return (endMs - startMs) / HOUR_MS;
  const spanMs = extent.lastMs + 1 - extent.firstMs;
  const overlapMs = Math.max(0, Math.min(endMs, extent.lastMs + 1) - Math.max(startMs, extent.firstMs));
  return (recordings * overlapMs) / spanMs;
}

/** One atomic read, with the combination table it needs (see the selective read below). */
async function readWithCombos(
  context: ReadContext,
  plan: ReadPlan,
  keys: ReadKeys,
  projection: Projection,
  options: ReadOptions,
): Promise<AtomicRead & { combos: ReadonlyMap<string, DimensionValues> }> {
  const { combinations } = context;
  const { combosMatching: matching, beforeLargeRead } = options;
  if (projection === "combos" && matching && plan.projected.length + plan.keyed.length > 0) {
    const known = await combinations.current(keys.combos, keys.org, beforeLargeRead);
    const ids = [...known.values].filter(([, values]) => matching(values)).map(([id]) => id);
    if (ids.length <= known.size * SELECTIVE_SHARE) {
      const read = await readAtomically(context, plan, keys, beforeLargeRead, ids);
      // No combination arrived since the table was read: the fields asked for are all that match.
      if (read.comboCount <= known.size) return { ...read, combos: known.values };
      // One did: whole fine blocks may hold its cells while the coarse blocks were asked only for
      // the older ones, half a batch. Read everything again, with the table after the blocks.
    }
  }
  const read = await readAtomically(context, plan, keys, beforeLargeRead);
  const needsCombos = projection === "combos" || read.comboCells.some((cells) => cells.length > 0);
  // A table loaded after the blocks is read after the status too: that confirms nothing of it.
  const loadsAfter = needsCombos && !combinations.holds(keys.combos, read.comboCount);
  // The table only grows (ids 1..n, never reused): loaded now, it names every id the cells hold.
  const combos = needsCombos
    ? (await combinations.current(keys.combos, keys.org, beforeLargeRead, read.comboCount)).values
    : NO_COMBOS;
  return { ...read, combos, ...(loadsAfter && { status: undefined }) };
}
