import type { RedisClient } from "@vu/store";

const TIER_NAMES: Record<string, string> = { m: "minute", h: "hour", d: "day", w: "week", M: "month" };
const SEEN_SAMPLE = 2000;

export interface KeyGroup {
  keys: number;
  /** Sum of `MEMORY USAGE` (exact for rollups, extrapolated from a sample for dedupe keys). */
  bytes: number;
}

export interface MemoryBreakdown {
  /** `used_memory` after the ingest minus before it (includes anything else written meanwhile). */
  usedMemoryDelta: number;
  /** Dedupe keys `…:seen:<id>`, one per recording, expiring after the dedupe window (7 days). */
  seen: KeyGroup;
  /** Rollup block hashes per tier, plus the combination table and dimension sets. */
  rollups: Record<string, KeyGroup>;
  rollupBytes: number;
  /** The part of the delta the dedupe keys account for when rollups are subtracted (includes the expiry table). */
  seenBytesByDifference: number;
}

async function memoryUsage(redis: RedisClient, keys: string[]): Promise<number> {
  let total = 0;
  for (let i = 0; i < keys.length; i += 1000) {
    const pipeline = redis.pipeline();
    // SAMPLES 0: measure every field of a hash, not an estimate from five.
    for (const key of keys.slice(i, i + 1000)) pipeline.call("MEMORY", "USAGE", key, "SAMPLES", "0");
    for (const [error, bytes] of (await pipeline.exec()) ?? []) {
      if (error === null) total += Number(bytes ?? 0);
    }
  }
  return total;
}

function classify(key: string): string {
  if (key.includes(":seen:")) return "seen";
  const block = /:b:([a-zA-Z]):/.exec(key);
  if (block?.[1]) return TIER_NAMES[block[1]] ?? "other";
  if (key.endsWith(":combos")) return "combos";
  if (key.includes(":dim:")) return "dimensions";
  return "other";
}

/**
 * Walks every key under the bench's prefix once. Rollup keys (tens of thousands) are measured
 * one by one; dedupe keys (one per recording, millions) are counted and a sample measured.
 */
export async function memoryBreakdown(
  redis: RedisClient,
  prefix: string,
  usedMemoryDelta: number,
): Promise<MemoryBreakdown> {
  const byGroup = new Map<string, string[]>();
  const seenSample: string[] = [];
  let seenCount = 0;
  let cursor = "0";
  do {
    const [next, keys] = (await redis.call("SCAN", cursor, "MATCH", `${prefix}:*`, "COUNT", "10000")) as [
      string,
      string[],
    ];
    cursor = next;
    for (const key of keys) {
      const group = classify(key);
      if (group === "seen") {
        seenCount++;
        if (seenSample.length < SEEN_SAMPLE) seenSample.push(key);
        continue;
      }
      const list = byGroup.get(group) ?? [];
      list.push(key);
      byGroup.set(group, list);
    }
  } while (cursor !== "0");

  const rollups: Record<string, KeyGroup> = {};
  let rollupBytes = 0;
  for (const [group, keys] of byGroup) {
    const bytes = await memoryUsage(redis, keys);
    rollups[group] = { keys: keys.length, bytes };
    rollupBytes += bytes;
  }
  const sampleBytes = await memoryUsage(redis, seenSample);
  const seenBytes = seenSample.length === 0 ? 0 : (sampleBytes / seenSample.length) * seenCount;
  return {
    usedMemoryDelta,
    seen: { keys: seenCount, bytes: seenBytes },
    rollups,
    rollupBytes,
    seenBytesByDifference: usedMemoryDelta - rollupBytes,
  };
}

/** Removes every key under the prefix (UNLINK: freed in the background, Redis stays responsive). */
export async function deletePrefix(redis: RedisClient, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor = "0";
  do {
    const [next, keys] = (await redis.call("SCAN", cursor, "MATCH", `${prefix}:*`, "COUNT", "10000")) as [
      string,
      string[],
    ];
    cursor = next;
    if (keys.length > 0) deleted += Number(await redis.call("UNLINK", ...keys));
  } while (cursor !== "0");
  return deleted;
}
