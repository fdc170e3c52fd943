import { compareByteOrder, DIMENSIONS, type Dimension } from "@vu/events";
import type { Tier } from "@vu/time-buckets";
import type { Keyspace } from "./keyspace";
import type { RedisClient } from "./redisClient";
import { StoreError } from "./storeError";
import type { View } from "./views";

/** The dimension values of one interned combination, in `DIMENSIONS` order. */
export type ComboValues = readonly [
  memberEmail: string,
  voiceModel: string,
  languageModel: string | null,
  appName: string,
];

export interface BlockRef {
  tier: Tier;
  startMs: number;
}

/** One block's cells as read: flat `[field, packed sums (see sums.ts), field, ...]`. */
export type StoredCells = Array<string | Buffer>;

export interface BlockSnapshot {
  view: View;
  /** For the combos view: combination id → its values, for every id the blocks can contain. */
  combos: ReadonlyMap<string, ComboValues>;
  /** One entry per requested block, in order. */
  cells: StoredCells[];
}

export interface RollupReaderOptions {
  redis: RedisClient;
  keyspace: Keyspace;
  /** How long the current generation is cached; a `rebuild` switch reaches readers within it. */
  generationCacheMs?: number;
}

export interface RollupReader {
  generation(): Promise<number>;
  /** One view of every requested block of one organization in one round trip (plus one when new combinations appeared). */
  readBlocks(
    generation: number,
    org: string,
    blocks: readonly BlockRef[],
    view: View,
    options?: ReadOptions,
  ): Promise<BlockSnapshot>;
  dimensions(generation: number, org: string): Promise<Record<Dimension, string[]>>;
}

export interface ReadOptions {
  /**
   * Combinations view only: the combinations the query can use. When they are a small part of the
   * table, only their fields are fetched (HMGET) from day, week and month blocks instead of whole
   * blocks (HGETALL). A hint: other cells may still come back, so callers filter every cell.
   */
  combosMatching?: (values: ComboValues) => boolean;
}

/** Fetch selected fields only while they are at most this share of all combinations. */
const SELECTIVE_SHARE = 0.25;
/**
 * Tiers whose blocks are fetched selectively. Minute and hour blocks mostly hold few cells, which
 * Redis keeps as a listpack: there HMGET scans the block once per requested field, so reading the
 * whole block is cheaper (measured: (d) of the bench spent 25 ms of Redis CPU per request on HMGET
 * of hour blocks).
 */
const SELECTIVE_TIERS: ReadonlySet<Tier> = new Set<Tier>(["day", "week", "month"]);

interface ComboCache {
  size: number;
  values: Map<string, ComboValues>;
}

const MAX_CACHED_ORGS = 10_000;

function unavailable(cause: unknown, org?: string): StoreError {
  return new StoreError("reading rollups from Redis failed", { retriable: true, cause, context: { org } });
}

function fieldsToStrings(flat: Buffer[]): StoredCells {
  const cells: StoredCells = flat;
  for (let i = 0; i < flat.length; i += 2) cells[i] = (flat[i] as Buffer).toString("utf8");
  return cells;
}

export function createRollupReader(options: RollupReaderOptions): RollupReader {
  const { redis, keyspace } = options;
  const generationCacheMs = options.generationCacheMs ?? 1000;
  const comboCache = new Map<string, ComboCache>();
  let cachedGeneration: { value: number; until: number } | undefined;

  async function loadCombos(key: string): Promise<ComboCache> {
    const flat = (await redis.call("HGETALL", key)) as string[];
    const values = new Map<string, ComboValues>();
    for (let i = 0; i + 1 < flat.length; i += 2) {
      values.set(flat[i + 1] as string, JSON.parse(flat[i] as string) as ComboValues);
    }
    if (comboCache.size >= MAX_CACHED_ORGS) comboCache.clear();
    const entry = { size: values.size, values };
    comboCache.set(key, entry);
    return entry;
  }

  async function execute(pipeline: ReturnType<RedisClient["pipeline"]>, org: string): Promise<unknown[]> {
    let replies: Array<[Error | null, unknown]> | null;
    try {
      replies = await pipeline.exec();
    } catch (cause) {
      throw unavailable(cause, org);
    }
    if (replies === null) throw unavailable(new Error("pipeline was not executed"), org);
    const failed = replies.find(([error]) => error !== null);
    if (failed) throw unavailable(failed[0], org);
    return replies.map(([, reply]) => reply);
  }

  /** The combination table, reloaded only when it has grown (ids are 1..n, never reused). */
  async function freshCombos(combosKey: string, org: string, knownCount?: number): Promise<ComboCache> {
    try {
      const count = knownCount ?? (await redis.hlen(combosKey));
      const cached = comboCache.get(combosKey);
      return cached !== undefined && cached.size >= count ? cached : await loadCombos(combosKey);
    } catch (cause) {
      throw unavailable(cause, org);
    }
  }

  /**
   * The given fields of every block of a coarse tier, without absent fields; whole blocks of fine
   * tiers (see SELECTIVE_TIERS). One round trip.
   */
  async function selectFields(
    blocks: readonly BlockRef[],
    blockKey: (b: BlockRef) => string,
    fields: string[],
    org: string,
  ): Promise<StoredCells[]> {
    const pipeline = redis.pipeline();
    for (const b of blocks) {
      if (SELECTIVE_TIERS.has(b.tier)) pipeline.callBuffer("HMGET", blockKey(b), ...fields);
      else pipeline.callBuffer("HGETALL", blockKey(b));
    }
    const replies = (await execute(pipeline, org)) as Array<Array<Buffer | null>>;
    return replies.map((values, i) => {
      if (!SELECTIVE_TIERS.has((blocks[i] as BlockRef).tier)) return fieldsToStrings(values as Buffer[]);
      const cells: StoredCells = [];
      values.forEach((value, j) => {
        if (value !== null) cells.push(fields[j] as string, value);
      });
      return cells;
    });
  }

  return {
    async generation() {
      const now = Date.now();
      if (cachedGeneration && cachedGeneration.until > now) return cachedGeneration.value;
      let raw: string | null;
      try {
        raw = await redis.get(keyspace.generation());
      } catch (cause) {
        throw unavailable(cause);
      }
      const value = raw === null ? 1 : Number(raw);
      cachedGeneration = { value, until: now + generationCacheMs };
      return value;
    },

    async readBlocks(generation, org, blocks, view, options = {}) {
      const combosKey = keyspace.combos(generation, org);
      const blockKey = (b: BlockRef) => keyspace.block(generation, org, b.tier, b.startMs, view);
      const matching = view === "combos" ? options.combosMatching : undefined;
      if (matching) {
        const combos = await freshCombos(combosKey, org);
        const ids = [...combos.values].filter(([, values]) => matching(values)).map(([id]) => id);
        if (ids.length <= combos.size * SELECTIVE_SHARE) {
          // Fine-tier blocks come whole: callers filter every cell anyway.
          const cells =
            ids.length === 0 ? blocks.map(() => []) : await selectFields(blocks, blockKey, ids, org);
          return { view, combos: combos.values, cells };
        }
      }
      // Only the combinations view needs the combination table's size (to refresh the cache).
      const withCombos = view === "combos";
      const pipeline = redis.pipeline();
      if (withCombos) pipeline.hlen(combosKey);
      // Values are binary, so replies come as Buffers; only the field names become strings.
      for (const b of blocks) pipeline.callBuffer("HGETALL", blockKey(b));
      const replies = await execute(pipeline, org);
      const cells = ((withCombos ? replies.slice(1) : replies) as Buffer[][]).map(fieldsToStrings);
      if (!withCombos) return { view, combos: new Map(), cells };
      const combos = await freshCombos(combosKey, org, Number(replies[0] ?? 0));
      return { view, combos: combos.values, cells };
    },

    async dimensions(generation, org) {
      const pipeline = redis.pipeline();
      for (const d of DIMENSIONS) pipeline.smembers(keyspace.dimension(generation, org, d));
      const replies = (await execute(pipeline, org)) as string[][];
      const result = {} as Record<Dimension, string[]>;
      DIMENSIONS.forEach((d, i) => {
        result[d] = [...(replies[i] ?? [])].sort(compareByteOrder);
      });
      return result;
    },
  };
}
