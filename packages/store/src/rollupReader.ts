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

export interface BlockSnapshot {
  view: View;
  /** For the combos view: combination id → its values, for every id the blocks can contain. */
  combos: ReadonlyMap<string, ComboValues>;
  /** One entry per requested block, in order: flat `[field, packedSums, field, ...]`. */
  cells: string[][];
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
  ): Promise<BlockSnapshot>;
  dimensions(generation: number, org: string): Promise<Record<Dimension, string[]>>;
}

interface ComboCache {
  size: number;
  values: Map<string, ComboValues>;
}

const MAX_CACHED_ORGS = 10_000;

function unavailable(cause: unknown, org?: string): StoreError {
  return new StoreError("reading rollups from Redis failed", { retriable: true, cause, context: { org } });
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

    async readBlocks(generation, org, blocks, view) {
      const combosKey = keyspace.combos(generation, org);
      const pipeline = redis.pipeline();
      pipeline.hlen(combosKey);
      for (const b of blocks)
        pipeline.call("HGETALL", keyspace.block(generation, org, b.tier, b.startMs, view));
      let replies: Array<[Error | null, unknown]> | null;
      try {
        replies = await pipeline.exec();
      } catch (cause) {
        throw unavailable(cause, org);
      }
      if (replies === null) throw unavailable(new Error("pipeline was not executed"), org);
      const failed = replies.find(([error]) => error !== null);
      if (failed) throw unavailable(failed[0], org);

      const cells = replies.slice(1).map(([, c]) => c as string[]);
      if (view !== "combos") return { view, combos: new Map(), cells };
      const comboCount = Number(replies[0]?.[1] ?? 0);
      let combos = comboCache.get(combosKey);
      // Ids are assigned 1..n and never reused, so an unchanged count means an unchanged table.
      if (combos === undefined || combos.size < comboCount) {
        try {
          combos = await loadCombos(combosKey);
        } catch (cause) {
          throw unavailable(cause, org);
        }
      }
      return { view, combos: combos.values, cells };
    },

    async dimensions(generation, org) {
      const pipeline = redis.pipeline();
      for (const d of DIMENSIONS) pipeline.smembers(keyspace.dimension(generation, org, d));
      let replies: Array<[Error | null, unknown]> | null;
      try {
        replies = await pipeline.exec();
      } catch (cause) {
        throw unavailable(cause, org);
      }
      const result = {} as Record<Dimension, string[]>;
      DIMENSIONS.forEach((d, i) => {
        const [error, members] = replies?.[i] ?? [new Error("no reply"), null];
        if (error) throw unavailable(error, org);
        result[d] = [...(members as string[])].sort(compareByteOrder);
      });
      return result;
    },
  };
}
