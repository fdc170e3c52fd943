import { compareByteOrder, DIMENSIONS, type Dimension, type DimensionValues } from "@vu/events";
import type { Tier } from "@vu/time-buckets";
import { LAYOUT_FIELDS, parseLayout } from "../format/blockPlacement";
import type { Keyspace } from "../format/keyspace";
import { type OrganizationExtent, parseExtent } from "../format/organizationExtent";
import type { View } from "../format/views";
import { createGenerationSource } from "../log/generation";
import {
  createLogPosition,
  type LogRecord,
  standingOf,
  type ViewStanding,
  type ViewStatus,
} from "../log/logPosition";
import type { RedisClient } from "../redis/redisClient";
import { StoreError } from "../storeError";
import { cellsByBlock, type StoredCells } from "./containerCells";
import { cellsAsked, derivedRead } from "./derivedBlocks";
import { type BlockRef, NOT_READ, type ReadPlan, readPlan, storedBlocks } from "./readPlan";
import { type KeyRead, type KeyReply, readConsistently } from "./slicedRead";

export interface BlockSnapshot {
  view: View;
  /** Combination id → its values, for every id the cells can hold (combos view, or any `comboCells`). */
  combos: ReadonlyMap<string, DimensionValues>;
  /**
   * One entry per requested block, in order: its cells in `view`, from its key in that view (a
   * tier placed `views`; blockPlacement.ts). Blocks stored under the same key (the quarters of
   * one hour, or a block asked for twice) share one array, read once. A block of a derived tier
   * (derivedBlocks.ts) has the cells of its days, one list in which a field can repeat: summed.
   */
  cells: StoredCells[];
  /**
   * Per requested block, its cells kept without views (in its container or its combinations key,
   * by its tier's placement now or before it moved): combination cells, fields as in the combos
   * view, whatever `view` is. A block's answer is the sum of both lists.
   */
  comboCells: StoredCells[];
  /**
   * Per requested block, which part of its cells it is (quarterCells.ts): WHOLE_BLOCK (fields
   * as they are), ALL_QUARTERS (a split hour: every field starts with its quarter's digit), or a
   * quarter 0-3 (only the fields starting with that digit).
   */
  parts: Int8Array;
  /** The organization's extent in the same state as the cells (read in the same MULTI). */
  extent: OrganizationExtent;
  /**
   * The organization's write stamp in the same state (see `writeStamp`); null when nothing was
   * written since stamps exist.
   */
  stamp: string | null;
}

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

/** The state of the store a read belongs to: a generation, in one epoch of it that is live. */
export interface ReadView {
  generation: number;
  epoch: string;
  /**
   * Read with the epoch, before any read made in this view: the view then held every event
   * produced before this instant (ms since the Unix epoch; docs/contract.md §7 `X-Data-As-Of`).
   * Null or missing: not known.
   */
  asOfMs?: number | null;
}

/**
 * The view cannot answer: Redis lost its state (no epoch), or a replay of the topic is under way,
 * or the topic no longer holds events the view needs. Numbers read now would be knowingly wrong.
 */
export class ViewNotLiveError extends Error {
  constructor(readonly status: ViewStatus) {
    super(
      status.epoch === null
        ? "the store has no data epoch: Redis lost its state (or no worker has started yet); a worker replays the topic"
        : `the store is not live (${status.state ?? "unknown"}): ${status.reason ?? "replaying the topic"}`,
    );
    this.name = "ViewNotLiveError";
  }
}

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
   * One view of every requested block of one organization, read as one state of the store (one
   * MULTI, or slices that saw the same write stamp) together with the combination table's size;
   * plus a round trip when the table grew.
   */
  readBlocks(
    generation: number,
    org: string,
    blocks: readonly BlockRef[],
    view: View,
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
   */
  writeStamp(generation: number, org: string): Promise<string | null>;
}

export interface DimensionsAtStamp<D extends Dimension> {
  values: Record<D, string[]>;
  /** As `writeStamp`, in the state the values were read in. */
  stamp: string | null;
}

export interface ReadOptions {
  /**
   * Combinations view only: the combinations the query can use. When they are a small part of the
   * table, only their fields are fetched (HMGET) from day, week and month blocks instead of whole
   * blocks (HGETALL). A hint: other cells may still come back, so callers filter every cell.
   */
  combosMatching?: (values: DimensionValues) => boolean;
  /**
   * Called before a read of more fields than `largeReadFields`, with their number, from the keys'
   * sizes: the caller may queue a large read behind others, or refuse it by throwing (nothing has
   * been read then). Smaller reads never call it, whether or not they go in slices.
   */
  beforeLargeRead?: (fields: number) => Promise<void>;
}

/** The extent hash's field the apply script sets with every batch that counts anything. */
const WRITE_STAMP_FIELD = "stamp";
/** The extent's count of the organization's recordings (the apply script's `n`). */
const RECORDINGS_FIELD = "n";
/** How long a read view serves without asking Redis (each computed answer is confirmed anyway). */
export const VIEW_CACHE_MS = 500;

/** Fetch selected fields only while they are at most this share of all combinations. */
const SELECTIVE_SHARE = 0.25;
/**
 * Tiers whose blocks are fetched selectively. Minute and hour blocks mostly hold few cells, which
 * Redis keeps as a listpack: there HMGET scans the block once per requested field, so reading the
 * whole block is cheaper (docs/decisions/0005-selective-field-reads.md).
 */
const SELECTIVE_TIERS: ReadonlySet<Tier> = new Set<Tier>(["day", "week", "month"]);

interface ComboCache {
  size: number;
  values: Map<string, DimensionValues>;
}

const MAX_CACHED_ORGS = 10_000;

/** Surrogate code units: only strings holding one may sort differently by UTF-16 unit and by code point. */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * `values` in byte (code point) order. Without surrogate pairs, UTF-16 unit order is that order,
 * and Array#sort's own comparison (native, no callback) gives it; a member set can be large.
 */
function sortByteOrder(values: string[]): string[] {
  return values.some((v) => SURROGATE.test(v)) ? values.sort(compareByteOrder) : values.sort();
}
/** How long a read extent serves as a planning hint (see `recentExtent`). */
export const EXTENT_HINT_MS = 5_000;

/** Sets a per-organization entry; full, forgets the one set longest ago, not every organization at once. */
function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  cache.delete(key);
  cache.set(key, value);
  for (const oldest of cache.keys()) {
    if (cache.size <= MAX_CACHED_ORGS) break;
    cache.delete(oldest);
  }
}

function unavailable(cause: unknown, org?: string): StoreError {
  return new StoreError("reading rollups from Redis failed", { retriable: true, cause, context: { org } });
}

/** The keys one read uses. */
interface Keys {
  view(b: BlockRef): string;
  keyed(b: BlockRef): string;
  container(tier: Tier, startMs: number): string;
  combos: string;
  extent: string;
}

/** One MULTI's result, per stored block (see ReadPlan). */
interface AtomicRead {
  /** Cells from the view's key of each block placed `views` (EMPTY for the others). */
  viewCells: StoredCells[];
  comboCells: StoredCells[];
  comboCount: number;
  extent: OrganizationExtent;
  stamp: string | null;
  /** The extent's LAYOUT_FIELDS in the same state. */
  layout: Array<string | null>;
}

const EMPTY: StoredCells = [];
/** An organization's layout fields before anything moved (blockPlacement.ts): containers only. */
const NO_LAYOUT: ReadonlyArray<string | null> = LAYOUT_FIELDS.map(() => null);
const NO_COMBOS: ReadonlyMap<string, DimensionValues> = new Map();

export function createRollupReader(options: RollupReaderOptions): RollupReader {
  const { redis, keyspace } = options;
  const generationCacheMs = options.generationCacheMs ?? 1000;
  const comboCache = new Map<string, ComboCache>();
  const generationSource = createGenerationSource({ redis, keyspace, cacheMs: generationCacheMs });
  const now = options.now ?? Date.now;
  const extents = new Map<string, { extent: OrganizationExtent; at: number }>();
  // The layout each organization had at its last read (LAYOUT_FIELDS): what the next read assumes.
  const layoutHints = new Map<string, ReadonlyArray<string | null>>();
  const log = createLogPosition({ redis, keyspace });
  const sliceFields = options.sliceFields ?? DEFAULT_SLICE_FIELDS;
  const largeReadFields = options.largeReadFields ?? DEFAULT_LARGE_READ_FIELDS;
  // Recordings each organization had at its last read: no key holds more fields than that, so a
  // read of k keys of an organization of n recordings reads at most k × n (slicedRead.ts).
  const recordingHints = new Map<string, { n: number; at: number }>();
  let knownView: { view: ReadView; at: number } | undefined;

  /** The view of `status`, or why there is none; a new epoch drops every cache. */
  function viewOf(generation: number, status: ViewStanding): ReadView {
    if (status.epoch === null || status.state !== "live") throw new ViewNotLiveError(status);
    if (knownView !== undefined && knownView.view.epoch !== status.epoch) {
      comboCache.clear();
      extents.clear();
      layoutHints.clear();
      recordingHints.clear();
    }
    const view = { generation, epoch: status.epoch, asOfMs: status.asOfMs };
    knownView = { view, at: now() };
    return view;
  }

  /** When the shards' write counts were last found whole (confirm refreshes the view, not this). */
  let shardsCheckedAt = Number.NEGATIVE_INFINITY;

  async function viewFromRedis(generation: number, checkShards = false): Promise<ReadView> {
    // The whole log hash (a few fields per partition): the status and the "as of" in one read.
    const record = await log.read(generation);
    const standing = standingOf(record);
    if (checkShards && standing.state === "live") {
      await refuseShardsBehind(generation, record);
      shardsCheckedAt = now();
    }
    return viewOf(generation, standing);
  }

  /**
   * On a cluster, a node that lost writes (restarted empty, a failover to a replica that lagged)
   * holds fewer of them than the log hash, on another node, recorded with the checkpoints. The
   * worker replays the topic when it meets this, but only after Kafka answers; readers check it
   * themselves with each refresh of the view, so no short answer is served meanwhile.
   */
  async function refuseShardsBehind(generation: number, record: LogRecord): Promise<void> {
    const behind = await log.shardsBehind(generation, record);
    if (behind.length === 0) return;
    throw new ViewNotLiveError({
      epoch: record.epoch,
      state: "replaying",
      reason: `a Redis Cluster node lost writes (shards ${behind.join(", ")}); the topic is replayed`,
    });
  }

  function rememberExtent(generation: number, org: string, extent: OrganizationExtent): OrganizationExtent {
    remember(extents, `${generation}:${org}`, { extent, at: now() });
    return extent;
  }

  /**
   * The whole table: one HGETALL while it is at most `sliceFields` long, else HSCAN pages of about
   * that many, so one organization with a huge table never holds Redis for the others. Entries
   * that exist when the load starts are all returned (HSCAN's guarantee), and ids only ever grow,
   * so a table that grew during the pages is at least as large as the count the caller read.
   */
  async function loadCombos(key: string, count: number): Promise<ComboCache> {
    const values = new Map<string, DimensionValues>();
    const take = (flat: string[]) => {
      for (let i = 0; i + 1 < flat.length; i += 2) {
        values.set(flat[i + 1] as string, JSON.parse(flat[i] as string) as DimensionValues);
      }
    };
    if (count <= sliceFields) take((await redis.call("HGETALL", key)) as string[]);
    else {
      let cursor = "0";
      do {
        const [next, flat] = await redis.hscan(key, cursor, "COUNT", sliceFields);
        take(flat);
        cursor = next;
      } while (cursor !== "0");
    }
    const entry = { size: values.size, values };
    remember(comboCache, key, entry);
    return entry;
  }

  /** Runs a pipeline or a MULTI; any failed command fails the read. */
  async function execute(batch: ReturnType<RedisClient["multi"]>, org: string): Promise<unknown[]> {
    let replies: Array<[Error | null, unknown]> | null;
    try {
      replies = await batch.exec();
    } catch (cause) {
      throw unavailable(cause, org);
    }
    if (replies === null) throw unavailable(new Error("pipeline was not executed"), org);
    const failed = replies.find(([error]) => error !== null);
    if (failed) throw unavailable(failed[0], org);
    return replies.map(([, reply]) => reply);
  }

  /**
   * The combination table, reloaded only when it has grown (ids are 1..n, never reused). A table
   * larger than `largeReadFields` is a large read: it passes the caller's lane first, as blocks do.
   */
  async function currentCombos(
    combosKey: string,
    org: string,
    options: ReadOptions,
    knownCount?: number,
  ): Promise<ComboCache> {
    let count: number;
    try {
      count = knownCount ?? (await redis.hlen(combosKey));
      const cached = comboCache.get(combosKey);
      if (cached !== undefined && cached.size >= count) return cached;
    } catch (cause) {
      throw unavailable(cause, org);
    }
    if (count > largeReadFields) await options.beforeLargeRead?.(count);
    try {
      return await loadCombos(combosKey, count);
    } catch (cause) {
      throw unavailable(cause, org);
    }
  }

  /**
   * Every block, in one MULTI or in slices that saw one write stamp (slicedRead.ts), so that all of
   * them and the combination table's size are one state of the store (docs/contract.md §2: a batch is wholly in an answer or not at all, and a cover that subtracts
   * blocks must not see half of one): every place the plan says may hold a block's cells. With
   * `fields`, coarse-tier block keys return only those fields (see SELECTIVE_TIERS). The table's
   * size comes last, so it counts every combination any cell read can hold. The extent's layout
   * comes back too: when it is not the one the plan was made for, the caller reads again.
   */
  async function readAtomically(
    plan: ReadPlan,
    keys: Keys,
    org: string,
    options: ReadOptions,
    fields?: string[],
  ): Promise<AtomicRead> {
    // No field can match: the blocks need not be read, only the table's size and the extent.
    const readBlocks = fields === undefined || fields.length > 0;
    const fetch = (key: string, tier: Tier): KeyRead =>
      fields && SELECTIVE_TIERS.has(tier) ? { key, fields } : { key };
    const reads: KeyRead[] = [
      ...plan.containers.map((c) => ({ key: keys.container(c.tier, c.startMs) })),
      ...(readBlocks ? plan.keyed : []).map((b) => fetch(keys.keyed(b), b.tier)),
      ...(readBlocks ? plan.views : []).map((b) => fetch(keys.view(b), b.tier)),
    ];
    const hint = recordingHints.get(keys.extent);
    const named = reads.reduce((n, r) => n + (r.fields?.length ?? 0), 0);
    const read = await readConsistently(redis, reads, {
      stamp: { key: keys.extent, field: WRITE_STAMP_FIELD },
      addTail: (multi) => {
        multi.hmget(keys.extent, "first", "last", WRITE_STAMP_FIELD, RECORDINGS_FIELD, ...LAYOUT_FIELDS);
        multi.hlen(keys.combos);
      },
      exec: (multi) => execute(multi, org),
      budget: sliceFields,
      largeAt: largeReadFields,
      ...(options.beforeLargeRead && { beforeLargeRead: options.beforeLargeRead }),
      atMost:
        hint !== undefined && now() - hint.at <= EXTENT_HINT_MS ? named + hint.n * reads.length : undefined,
    });
    const replies: KeyReply[] = read.replies;
    const comboCount = Number(read.tail[1] ?? 0);
    const [first, last, stamp = null, recordings, ...layout] = (read.tail[0] as Array<string | null>) ?? [];
    remember(recordingHints, keys.extent, { n: Number(recordings ?? 0), at: now() });
    const extent = parseExtent(first, last, comboCount);
    const containers = (replies.splice(0, plan.containers.length) as Buffer[][]).map(cellsByBlock);
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
    const views = cellsOf(plan.views);
    const viewCells = Array.from(plan.viewOf, (i) => (i === NOT_READ ? EMPTY : (views[i] ?? EMPTY)));
    // Combination cells from a block's container and its combinations key, as one list.
    const comboCells = plan.slots.map((slot, k) => {
      const inContainer = slot === null ? EMPTY : (containers[slot.container]?.get(slot.index) ?? EMPTY);
      const i = plan.keyedOf[k] as number;
      const inKey = i === NOT_READ ? EMPTY : (keyed[i] ?? EMPTY);
      return inKey.length === 0 ? inContainer : inContainer.length === 0 ? inKey : [...inContainer, ...inKey];
    });
    return { viewCells, comboCells, comboCount, extent, stamp, layout };
  }

  return {
    async view() {
      const generation = await generationSource.current();
      const known = knownView;
      const fresh = (at: number) => now() - at <= VIEW_CACHE_MS;
      if (
        known !== undefined &&
        known.view.generation === generation &&
        fresh(known.at) &&
        fresh(shardsCheckedAt)
      ) {
        return known.view;
      }
      return viewFromRedis(generation, true);
    },

    async confirm(view) {
      const current = await viewFromRedis(view.generation);
      if (current.epoch !== view.epoch) {
        throw new ViewNotLiveError({
          epoch: current.epoch,
          state: "replaying",
          reason: "the store's epoch changed during the read",
        });
      }
    },

    async readBlocks(generation, org, blocks, view, options = {}) {
      const snapshot = await readSnapshot(generation, org, blocks, view, options);
      rememberExtent(generation, org, snapshot.extent);
      return snapshot;
    },

    recentExtent(generation, org) {
      const hint = extents.get(`${generation}:${org}`);
      return hint !== undefined && now() - hint.at <= EXTENT_HINT_MS ? hint.extent : undefined;
    },

    async writeStamp(generation, org) {
      try {
        return await redis.hget(keyspace.extent(generation, org), WRITE_STAMP_FIELD);
      } catch (cause) {
        throw unavailable(cause, org);
      }
    },

    async extent(generation, org) {
      const pipeline = redis.pipeline();
      pipeline.hmget(keyspace.extent(generation, org), "first", "last");
      pipeline.exists(keyspace.combos(generation, org));
      const [[first, last] = [], exists] = (await execute(pipeline, org)) as [Array<string | null>, number];
      return rememberExtent(generation, org, parseExtent(first, last, exists));
    },

    async dimensions<D extends Dimension>(generation: number, org: string, which?: readonly D[]) {
      const dimensions = which ?? (DIMENSIONS as readonly Dimension[] as readonly D[]);
      const pipeline = redis.pipeline();
      for (const d of dimensions) pipeline.smembers(keyspace.dimension(generation, org, d));
      const replies = (await execute(pipeline, org)) as string[][];
      const result = {} as Record<D, string[]>;
      dimensions.forEach((d, i) => {
        result[d] = [...(replies[i] ?? [])].sort(compareByteOrder);
      });
      return result;
    },

    async dimensionsAtStamp<D extends Dimension>(generation: number, org: string, which: readonly D[]) {
      const multi = redis.multi();
      for (const d of which) multi.smembers(keyspace.dimension(generation, org, d));
      multi.hget(keyspace.extent(generation, org), WRITE_STAMP_FIELD);
      const replies = await execute(multi, org);
      const stamp = (replies.pop() as string | null | undefined) ?? null;
      const values = {} as Record<D, string[]>;
      which.forEach((d, i) => {
        values[d] = sortByteOrder((replies[i] as string[] | undefined) ?? []);
      });
      return { values, stamp };
    },
  };

  async function readSnapshot(
    generation: number,
    org: string,
    blocks: readonly BlockRef[],
    view: View,
    options: ReadOptions,
  ): Promise<BlockSnapshot> {
    const combosKey = keyspace.combos(generation, org);
    const keys: Keys = {
      view: (b) => keyspace.block(generation, org, b.tier, b.startMs, view),
      keyed: (b) => keyspace.keyed(generation, org, b.tier, b.startMs),
      container: (tier, startMs) => keyspace.container(generation, org, tier, startMs),
      combos: combosKey,
      extent: keyspace.extent(generation, org),
    };
    const hintKey = `${generation}:${org}`;
    // A layout only moves on (blockPlacement.ts): a read planned for an older one is made again.
    for (;;) {
      const assumed = layoutHints.get(hintKey) ?? NO_LAYOUT;
      const layout = parseLayout(assumed);
      // Blocks of derived tiers are read as their days (derivedBlocks.ts).
      const derived = derivedRead(blocks, layout);
      const stored = storedBlocks(derived.fetched);
      const plan = readPlan(stored, layout);
      const read = await readWithCombos(plan, keys, view, org, options);
      remember(layoutHints, hintKey, read.layout);
      if (read.layout.some((value, i) => value !== assumed[i])) continue;
      const perFetched = (cells: StoredCells[]) => Array.from(stored.keyOf, (k) => cells[k] as StoredCells);
      return {
        view,
        combos: read.combos,
        cells: cellsAsked(derived, perFetched(read.viewCells)),
        comboCells: cellsAsked(derived, perFetched(read.comboCells)),
        // A derived block's days are whole blocks, as the block itself would be.
        parts: Int8Array.from(blocks, (_, i) => stored.parts[derived.from[i] as number] as number),
        extent: read.extent,
        stamp: read.stamp,
      };
    }
  }

  /** One atomic read, with the combination table it needs (see the selective read below). */
  async function readWithCombos(
    plan: ReadPlan,
    keys: Keys,
    view: View,
    org: string,
    options: ReadOptions,
  ): Promise<AtomicRead & { combos: ReadonlyMap<string, DimensionValues> }> {
    const matching = options.combosMatching;
    if (view === "combos" && matching && plan.views.length + plan.keyed.length > 0) {
      const known = await currentCombos(keys.combos, org, options);
      const ids = [...known.values].filter(([, values]) => matching(values)).map(([id]) => id);
      if (ids.length <= known.size * SELECTIVE_SHARE) {
        const read = await readAtomically(plan, keys, org, options, ids);
        // No combination arrived since the table was read: the fields asked for are all that match.
        if (read.comboCount <= known.size) return { ...read, combos: known.values };
        // One did: whole fine blocks may hold its cells while the coarse blocks were asked only for
        // the older ones, half a batch. Read everything again, with the table after the blocks.
      }
    }
    const read = await readAtomically(plan, keys, org, options);
    const needsCombos = view === "combos" || read.comboCells.some((cells) => cells.length > 0);
    // The table only grows (ids 1..n, never reused): loaded now, it names every id the cells hold.
    const combos = needsCombos
      ? (await currentCombos(keys.combos, org, options, read.comboCount)).values
      : NO_COMBOS;
    return { ...read, combos };
  }
}
