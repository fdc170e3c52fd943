import { type Keyspace, type RedisClient, scanKeys } from "@vu/store";

/** Report names of the views (the store's own names, but "combinations" reads better in a table). */
const VIEW_NAMES: Record<string, string> = { combos: "combinations" };
/** Beyond this many dedupe keys (one key per recording) they are sampled, not measured one by one. */
const SEEN_EXACT_LIMIT = 2000;

export interface KeyGroup {
  keys: number;
  /** Hash fields / set members over all keys of the group (rollup cells, dedupe ids). */
  fields: number;
  /** Sum of `MEMORY USAGE … SAMPLES 0` (exact; extrapolated from a sample for very many dedupe keys). */
  bytes: number;
}

export interface MemoryBreakdown {
  /** `used_memory` after the ingest minus before it (includes Redis' own bookkeeping, e.g. expiry tables). */
  usedMemoryDelta: number;
  /** Dedupe state (`…:seen:…`), expiring after the dedupe window. */
  seen: KeyGroup;
  /** Rollup blocks per tier, all views together. */
  tiers: Record<string, KeyGroup>;
  /** Rollup blocks per view, all tiers together. */
  views: Record<string, KeyGroup>;
  /** Combination table, dimension sets, anything else under the prefix. */
  other: Record<string, KeyGroup>;
  rollupBytes: number;
}

interface KeyInfo {
  key: string;
  fields: number;
  bytes: number;
}

/** Size and field count of each key, pipelined; SAMPLES 0 walks every field instead of estimating from five. */
async function measure(redis: RedisClient, keys: string[]): Promise<KeyInfo[]> {
  const out: KeyInfo[] = [];
  for (let i = 0; i < keys.length; i += 500) {
    const chunk = keys.slice(i, i + 500);
    const pipeline = redis.pipeline();
    for (const key of chunk) {
      pipeline.call("MEMORY", "USAGE", key, "SAMPLES", "0");
      pipeline.type(key);
    }
    const replies = (await pipeline.exec()) ?? [];
    const types = chunk.map((_, j) => String(replies[2 * j + 1]?.[1] ?? ""));
    const counts = redis.pipeline();
    for (const [j, key] of chunk.entries()) {
      if (types[j] === "hash") counts.hlen(key);
      else if (types[j] === "set") counts.scard(key);
      else counts.exists(key);
    }
    const countReplies = (await counts.exec()) ?? [];
    chunk.forEach((key, j) => {
      out.push({
        key,
        bytes: Number(replies[2 * j]?.[1] ?? 0),
        fields: types[j] === "hash" || types[j] === "set" ? Number(countReplies[j]?.[1] ?? 0) : 1,
      });
    });
  }
  return out;
}

function add(groups: Record<string, KeyGroup>, name: string, info: KeyInfo): void {
  const group = groups[name] ?? { keys: 0, fields: 0, bytes: 0 };
  group.keys += 1;
  group.fields += info.fields;
  group.bytes += info.bytes;
  groups[name] = group;
}

/**
 * Walks every key under the bench's prefix once and measures it: rollup blocks by tier and by view,
 * the dedupe state, the rest, as the store classifies its keys. Dedupe keys are measured exactly
 * while few (sets per window); with a key per recording (millions) a sample is measured and
 * multiplied.
 */
export async function memoryBreakdown(
  redis: RedisClient,
  keyspace: Keyspace,
  usedMemoryDelta: number,
): Promise<MemoryBreakdown> {
  const rest: string[] = [];
  const seenSample: string[] = [];
  let seenCount = 0;
  await scanKeys(redis, keyspace.pattern(), (keys) => {
    for (const key of keys) {
      if (keyspace.classify(key).kind !== "seen") rest.push(key);
      else if (seenCount++ < SEEN_EXACT_LIMIT) seenSample.push(key);
    }
  });

  const tiers: Record<string, KeyGroup> = {};
  const views: Record<string, KeyGroup> = {};
  const other: Record<string, KeyGroup> = {};
  let rollupBytes = 0;
  for (const info of await measure(redis, rest)) {
    const kind = keyspace.classify(info.key);
    if (kind.kind === "block") {
      add(tiers, kind.tier, info);
      add(views, VIEW_NAMES[kind.view] ?? kind.view, info);
      rollupBytes += info.bytes;
    } else add(other, kind.kind, info);
  }

  const sample = await measure(redis, seenSample);
  const scale = sample.length === 0 ? 0 : seenCount / sample.length;
  const seen = {
    keys: seenCount,
    fields: sample.reduce((n, s) => n + s.fields, 0) * scale,
    bytes: sample.reduce((n, s) => n + s.bytes, 0) * scale,
  };
  return { usedMemoryDelta, seen, tiers, views, other, rollupBytes };
}

/** Removes every key of the keyspace (UNLINK: freed in the background, Redis stays responsive). */
export async function deleteKeyspace(redis: RedisClient, keyspace: Keyspace): Promise<number> {
  let deleted = 0;
  await scanKeys(redis, keyspace.pattern(), async (keys) => {
    deleted += Number(await redis.call("UNLINK", ...keys));
  });
  return deleted;
}
