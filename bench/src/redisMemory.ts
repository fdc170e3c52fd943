import { type Keyspace, type RedisClient, scanKeys } from "@vu/store";

/**
 * Report names of the projections (the store's own names, but "combinations" reads better in a
 * table), and of the rollup keys that are no projection's key: a sparse tier's containers of blocks, a keyed
 * tier's combinations key per block (placements, blockPlacement.ts).
 */
const PROJECTION_NAMES: Record<string, string> = {
  combos: "combinations",
  container: "containers",
  keyed: "combinations (keyed)",
};
/**
 * Beyond this many dedupe keys they are sampled (every k-th in SCAN order), not measured one by
 * one. The store keeps a few per organization and window (a hash, or a set once large), so a
 * multi-tenant store has tens of thousands, of very different sizes: a sample of the first few
 * thousand found put run `be43098a`'s multi-tenant ids at 12.8M and `1b7970d9`'s at 5.3M for the
 * same data set, hence every key while there are at most this many.
 */
const SEEN_EXACT_LIMIT = 200_000;

export interface KeyGroup {
  keys: number;
  /** Hash fields / set members over all keys of the group (rollup cells, dedupe ids). */
  fields: number;
  /** Sum of `MEMORY USAGE … SAMPLES 0` (exact; extrapolated from a sample beyond 200,000 dedupe keys). */
  bytes: number;
  /**
   * The data alone, with `{ payload: true }`: field plus value bytes of a hash, member bytes of a
   * set, a string's length (other types count 0). Read in full, so exact, and slow on a big store.
   */
  payload?: number;
}

export interface MemoryBreakdownOptions {
  /** Also read every value (not the dedupe keys) to measure `payload` and `cellBytes`. */
  payload?: boolean;
  /**
   * With `payload`: when there are more rollup keys than this, read the payload of every k-th one
   * only (SCAN order, which follows hash slots, not organizations or time) and estimate each tier's
   * cells as its keys' `MEMORY USAGE` × the sample's payload ÷ `MEMORY USAGE` (`cellSample` says
   * so). Default: every key.
   */
  payloadKeys?: number;
}

export interface MemoryBreakdown {
  /** `used_memory` after the ingest minus before it (includes Redis' own bookkeeping, e.g. expiry tables). */
  usedMemoryDelta: number;
  /** Dedupe state (`…:seen:…`), expiring after the dedupe window. */
  seen: KeyGroup;
  /** Rollup keys (blocks, and a sparse tier's containers) per tier, all projections together. */
  tiers: Record<string, KeyGroup>;
  /**
   * Rollup keys per projection, all tiers together (containers and keyed combinations keys apart,
   * under their own names); `views` is the results file's name for it.
   */
  views: Record<string, KeyGroup>;
  /** Combination table, dimension sets, anything else under the prefix. */
  other: Record<string, KeyGroup>;
  rollupBytes: number;
  /** With `{ payload: true }`: the rollup keys' payload, i.e. the cells' field and value bytes. */
  cellBytes?: number;
  /** Present when `cellBytes` is estimated from a sample (`payloadKeys`): rollup keys read, of how many. */
  cellSample?: { keys: number; of: number };
}

/** Redis bytes per event: all of it (`used_memory` Δ), the cells, the rest, and of the rest the dedupe state. */
export interface BytesPerEvent {
  total: number;
  /** Field and value bytes of the rollup hashes (`cellBytes`; estimated when `cellSample` is set). */
  cells: number;
  /** `used_memory` Δ minus the cells: key names, Redis' per-key and per-field structures, combination tables, dedupe state. */
  keyOverhead: number;
  /** The dedupe state alone (part of the key overhead; it expires after the dedupe window). */
  dedupe: number;
}

/** A breakdown measured with `{ payload: true }`, per event. */
export function bytesPerEvent(breakdown: MemoryBreakdown, events: number): BytesPerEvent {
  const cells = breakdown.cellBytes ?? Number.NaN;
  const n = Math.max(1, events);
  return {
    total: breakdown.usedMemoryDelta / n,
    cells: cells / n,
    keyOverhead: (breakdown.usedMemoryDelta - cells) / n,
    dedupe: breakdown.seen.bytes / n,
  };
}

interface KeyInfo {
  key: string;
  fields: number;
  bytes: number;
  payload?: number;
}

/** What a HGETALL or SMEMBERS reply (Buffers, so binary fields count their bytes) holds. */
function replyBytes(reply: unknown): number {
  if (!Array.isArray(reply)) return 0;
  return reply.reduce((n: number, part: unknown) => n + (Buffer.isBuffer(part) ? part.length : 0), 0);
}

/** Payload of each key by its type, pipelined (see KeyGroup.payload). */
async function payloads(redis: RedisClient, keys: string[], types: string[]): Promise<number[]> {
  const pipeline = redis.pipeline();
  for (const [j, key] of keys.entries()) {
    if (types[j] === "hash") pipeline.callBuffer("HGETALL", key);
    else if (types[j] === "set") pipeline.callBuffer("SMEMBERS", key);
    else if (types[j] === "string") pipeline.strlen(key);
    else pipeline.exists(key);
  }
  const replies = (await pipeline.exec()) ?? [];
  return keys.map((_, j) => {
    const [error, reply] = replies[j] ?? [null, null];
    if (error) throw error;
    if (types[j] === "string") return Number(reply);
    return types[j] === "hash" || types[j] === "set" ? replyBytes(reply) : 0;
  });
}

/** Size and field count of each key, pipelined; SAMPLES 0 walks every field instead of estimating from five. */
async function measure(redis: RedisClient, keys: string[], withPayload = false): Promise<KeyInfo[]> {
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
    const payload = withPayload ? await payloads(redis, chunk, types) : undefined;
    chunk.forEach((key, j) => {
      out.push({
        key,
        bytes: Number(replies[2 * j]?.[1] ?? 0),
        fields: types[j] === "hash" || types[j] === "set" ? Number(countReplies[j]?.[1] ?? 0) : 1,
        ...(payload === undefined ? {} : { payload: payload[j] ?? 0 }),
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
  if (info.payload !== undefined) group.payload = (group.payload ?? 0) + info.payload;
  groups[name] = group;
}

/**
 * Walks every key under the bench's prefix once and measures it: rollup keys by tier and by projection,
 * the dedupe state, the rest, as the store classifies its keys (a key whose kind names a tier is a
 * rollup key, whatever the store's layout). Dedupe keys are measured exactly up to
 * SEEN_EXACT_LIMIT of them; beyond, an even sample is measured and multiplied.
 */
export async function memoryBreakdown(
  redis: RedisClient,
  keyspace: Keyspace,
  usedMemoryDelta: number,
  options: MemoryBreakdownOptions = {},
): Promise<MemoryBreakdown> {
  const rest: string[] = [];
  const seenKeys: string[] = [];
  let rollupCount = 0;
  await scanKeys(redis, keyspace.pattern(), (keys) => {
    for (const key of keys) {
      const kind = keyspace.classify(key);
      if (kind.kind !== "seen") rest.push(key);
      else seenKeys.push(key);
      if ("tier" in kind) rollupCount += 1;
    }
  });
  const seenStride = Math.ceil(seenKeys.length / SEEN_EXACT_LIMIT);
  const seenSample = seenKeys.filter((_, i) => i % seenStride === 0);
  const every =
    options.payload && options.payloadKeys !== undefined
      ? Math.max(1, Math.ceil(rollupCount / options.payloadKeys))
      : 1;

  const tiers: Record<string, KeyGroup> = {};
  const projections: Record<string, KeyGroup> = {};
  const other: Record<string, KeyGroup> = {};
  let rollupBytes = 0;
  let cellBytes = 0;
  const sampled: string[] = [];
  for (const info of await measure(redis, rest, options.payload && every === 1)) {
    const kind = keyspace.classify(info.key);
    if ("tier" in kind) {
      const projection = "projection" in kind ? kind.projection : kind.kind;
      add(tiers, kind.tier, info);
      add(projections, PROJECTION_NAMES[projection] ?? projection, info);
      rollupBytes += info.bytes;
      cellBytes += info.payload ?? 0;
      if (every > 1 && (tiers[kind.tier]?.keys ?? 0) % every === 1) sampled.push(info.key);
    } else add(other, kind.kind, info);
  }
  if (options.payload && every > 1) cellBytes = await sampledCells(redis, keyspace, sampled, tiers);

  const sample = await measure(redis, seenSample);
  const scale = sample.length === 0 ? 0 : seenKeys.length / sample.length;
  const seen = {
    keys: seenKeys.length,
    fields: sample.reduce((n, s) => n + s.fields, 0) * scale,
    bytes: sample.reduce((n, s) => n + s.bytes, 0) * scale,
  };
  return {
    usedMemoryDelta,
    seen,
    tiers,
    views: projections,
    other,
    rollupBytes,
    ...(options.payload ? { cellBytes } : {}),
    ...(options.payload && every > 1 ? { cellSample: { keys: sampled.length, of: rollupCount } } : {}),
  };
}

/** Each tier's cells estimated from its sampled keys: the tier's MEMORY USAGE × payload ÷ MEMORY USAGE of the sample. */
async function sampledCells(
  redis: RedisClient,
  keyspace: Keyspace,
  sample: string[],
  tiers: Record<string, KeyGroup>,
): Promise<number> {
  const byTier: Record<string, { bytes: number; payload: number }> = {};
  for (const info of await measure(redis, sample, true)) {
    const kind = keyspace.classify(info.key);
    if (!("tier" in kind)) continue;
    const t = byTier[kind.tier] ?? { bytes: 0, payload: 0 };
    t.bytes += info.bytes;
    t.payload += info.payload ?? 0;
    byTier[kind.tier] = t;
  }
  return Object.entries(tiers).reduce((sum, [tier, group]) => {
    const t = byTier[tier];
    return sum + (t && t.bytes > 0 ? (group.bytes * t.payload) / t.bytes : 0);
  }, 0);
}

/** Removes every key of the keyspace (UNLINK: freed in the background, Redis stays responsive). */
export async function deleteKeyspace(redis: RedisClient, keyspace: Keyspace): Promise<number> {
  let deleted = 0;
  await scanKeys(redis, keyspace.pattern(), async (keys) => {
    deleted += Number(await redis.call("UNLINK", ...keys));
  });
  return deleted;
}
