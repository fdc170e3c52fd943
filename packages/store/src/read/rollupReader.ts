import type { Dimension } from "@vu/events";
import type { Keyspace } from "../format/keyspace";
import { type OrganizationExtent, parseExtent } from "../format/organizationExtent";
import type { Projection } from "../format/projections";
import { createGenerationSource } from "../log/generation";
import { createLogPosition } from "../log/logPosition";
import type { RedisClient } from "../redis/redisClient";
import { RECORDINGS_FIELD, WRITE_STAMP_FIELD } from "./atomicRead";
import { type BlockSnapshot, type ReadOptions, readBlockSnapshot } from "./blockSnapshot";
import { CombinationTables } from "./combinationTables";
import { type DimensionsAtStamp, readDimensions, readDimensionsAtStamp } from "./dimensionSets";
import { LiveViews, type ReadView } from "./liveViews";
import { OrganizationHints } from "./organizationHints";
import type { ReadContext } from "./readContext";
import type { BlockRef } from "./readPlan";
import { execute, unavailable } from "./redisReplies";

export interface RollupReaderOptions {
  redis: RedisClient;
  keyspace: Keyspace;
  /** How long the current generation is cached; a `rebuild` switch reaches readers within it. */
  generationCacheMs?: number;
  /**
   * Fields one MULTI may read: a read of more goes in slices that check the write stamp
   * (slicedRead.ts), so that no request holds Redis for long. Default `DEFAULT_SLICE_FIELDS`.
   */
  sliceFields?: number;
  /**
   * Fields past which a read is large: `ReadOptions.beforeLargeRead` is called before it. Default
   * `DEFAULT_LARGE_READ_FIELDS`.
   */
  largeReadFields?: number;
  now?: () => number;
}

/** Small enough that one slice holds Redis well under its 10 ms budget (docs/decisions/0016-reads-in-slices.md). */
export const DEFAULT_SLICE_FIELDS = 5_000;
/** Apart from the slice size, so that smaller slices do not send more reads to the large-read lane. */
export const DEFAULT_LARGE_READ_FIELDS = 20_000;

export interface RollupReader {
  /**
   * The generation readers use and its live epoch (known for up to `VIEW_CACHE_MS`); throws
   * `ViewNotLiveError` when the store cannot answer. When the epoch changed, every cache of this
   * reader is dropped: it described another state.
   */
  view(): Promise<ReadView>;
  /**
   * After a read: whether the store is still in the view's epoch and live, asked of Redis now.
   * A read between the two checks saw that state (Redis runs one command at a time), so an
   * answer confirmed this way is never one of a store that lost its state meanwhile.
   */
  confirm(view: ReadView): Promise<void>;
  /**
   * One projection of every requested block of one organization, read as one state of the store (one
   * MULTI, or slices that saw the same write stamp) together with the combination table's size;
   * plus a round trip when the table grew. With `options.confirming`, the read is confirmed to
   * belong to that view, as `confirm` does after it (throws ViewNotLiveError): on a single Redis
   * by the view's status read in the same MULTI, on a cluster by `confirm` once the read is done.
   */
  readBlocks(
    generation: number,
    org: string,
    blocks: readonly BlockRef[],
    projection: Projection,
    options?: ReadOptions,
  ): Promise<BlockSnapshot>;
  /**
   * The distinct values of `which` dimensions (default all), each sorted in byte order. Only the
   * sets asked for are read: an organization's members can be many, and most callers do not need them.
   */
  dimensions<D extends Dimension = Dimension>(
    generation: number,
    org: string,
    which?: readonly D[],
  ): Promise<Record<D, string[]>>;
  /**
   * As `dimensions`, with the organization's write stamp read in the same state (one MULTI): the
   * apply script adds values and moves the stamp atomically, so lists kept with this stamp are
   * exact while the stamp is unchanged.
   */
  dimensionsAtStamp<D extends Dimension>(
    generation: number,
    org: string,
    which: readonly D[],
  ): Promise<DimensionsAtStamp<D>>;
  /** Where the organization has data (see OrganizationExtent): what a planner may skip. */
  extent(generation: number, org: string): Promise<OrganizationExtent>;
  /**
   * The extent this reader last read for the organization (with its blocks or alone), while it is
   * at most `EXTENT_HINT_MS` old; undefined otherwise. A hint to plan with and skip a round trip:
   * `readBlocks` returns the extent again in the blocks' own state, so a stale hint is caught.
   */
  recentExtent(generation: number, org: string): OrganizationExtent | undefined;
  /**
   * The organization's write stamp: it changes with every batch that counts anything, atomically
   * with the sums, so an answer computed at one stamp is still exact while the stamp is the same.
   * Null when the organization has no stamp (no data, or data written before stamps existed).
   * Its recordings are read with it and remembered: a read of blocks after it (the API reads the
   * stamp as a request starts) bounds its keys' sizes by what was counted then, not at the last read.
   */
  writeStamp(generation: number, org: string): Promise<string | null>;
}

/**
 * The reader wires its parts, each owning its state: the live view (LiveViews), the combination
 * tables it loaded (CombinationTables) and what it learnt of each organization
 * (OrganizationHints); a new epoch empties both caches.
 */
export function createRollupReader(options: RollupReaderOptions): RollupReader {
  const { redis, keyspace } = options;
  const now = options.now ?? Date.now;
  const sliceFields = options.sliceFields ?? DEFAULT_SLICE_FIELDS;
  const largeReadFields = options.largeReadFields ?? DEFAULT_LARGE_READ_FIELDS;
  const hints = new OrganizationHints(now);
  const combinations = new CombinationTables({ redis, pageFields: sliceFields, largeReadFields });
  const context: ReadContext = { redis, keyspace, hints, combinations, sliceFields, largeReadFields };
  const views = new LiveViews({
    log: createLogPosition({ redis, keyspace }),
    generations: createGenerationSource({ redis, keyspace, cacheMs: options.generationCacheMs ?? 1000 }),
    now,
    onNewEpoch: () => {
      combinations.clear();
      hints.clear();
    },
  });

  return {
    view: () => views.current(),
    confirm: (view) => views.confirm(view),

    async readBlocks(generation, org, blocks, projection, readOptions = {}) {
      const snapshot = await readBlockSnapshot(context, generation, org, blocks, projection, readOptions);
      const view = readOptions.confirming;
      if (view !== undefined && snapshot.viewStatus !== undefined)
        views.confirmStatus(view, snapshot.viewStatus);
      else if (view !== undefined) await views.confirm(view);
      hints.rememberExtent(generation, org, snapshot.extent);
      return snapshot;
    },

    recentExtent: (generation, org) => hints.recentExtent(generation, org),

    async writeStamp(generation, org) {
      try {
        const [stamp = null, recordings] = await redis.hmget(
          keyspace.extent(generation, org),
          WRITE_STAMP_FIELD,
          RECORDINGS_FIELD,
        );
        // The recordings as the request starts: what bounds its read's keys (atomicRead.ts).
        hints.rememberRecordings(generation, org, Number(recordings ?? 0));
        return stamp;
      } catch (cause) {
        throw unavailable(cause, org);
      }
    },

    async extent(generation, org) {
      const pipeline = redis.pipeline();
      pipeline.hmget(keyspace.extent(generation, org), "first", "last");
      pipeline.exists(keyspace.combos(generation, org));
      const [[first, last] = [], exists] = (await execute(pipeline, org)) as [Array<string | null>, number];
      return hints.rememberExtent(generation, org, parseExtent(first, last, exists));
    },

    dimensions: (generation, org, which) => readDimensions(context, generation, org, which),
    dimensionsAtStamp: (generation, org, which) => readDimensionsAtStamp(context, generation, org, which),
  };
}
