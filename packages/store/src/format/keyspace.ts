import type { Dimension } from "@vu/events";
import { TIER_CODE, TIERS, type Tier } from "@vu/time-buckets";
import { containerOf, type StoredTier } from "./blockPlacement";
import { PROJECTION_CODE, PROJECTIONS, type Projection } from "./projections";

/**
 * The only place that knows Redis key names (documented key by key in this package's README).
 * Every key of an organization carries the hash tag of its shard, `{s<n>}` (`shardOf`), so a
 * script touching one organization, or several of one shard, stays on one Redis Cluster slot.
 *
 * STORE_VERSION names the rollup keys. It changes with every change to what the apply script
 * writes that keys already written cannot follow as they are, so that two versions can share one
 * Redis: a new version is filled by replaying the topic beside the old one (the README's
 * "Upgrading the store"), never converted from the old keys, which lack what only counting decides
 * (the offsets kept with the sums, each tier's placement). docs/decisions/ records each version.
 */
export const STORE_VERSION = "v9";

/**
 * What follows a dedupe table's key in the key of its set of ids, once it holds too many for one
 * listpack (write/lua/includes/seenTables.lua): also the table's state then.
 */
export const SEEN_IDS_SUFFIX = "all";
/**
 * What follows a key of cells (a container, a block's combinations key, or its key in any
 * projection) in the key of their percentile sketches: the same fields, the same hash tag and
 * expiry, written by the same apply call (format/sketches.ts).
 */
export const SKETCH_SUFFIX = "q";
/**
 * How many shards organizations are spread over: enough that a cluster balances them and moves
 * them a slot at a time, few enough that a chunk of a shared topic holds several of each.
 */
export const SHARDS = 256;

/** The shard of an organization: FNV-1a of its UTF-16 code units, modulo `SHARDS`. */
export function shardOf(org: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < org.length; i++) {
    hash ^= org.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % SHARDS;
}
/**
 * Token and rate-limit keys carry a version of their own, apart from STORE_VERSION, so that tokens
 * stay where they are when the rollup store is upgraded.
 */
const TOKEN_KEYS_VERSION = "v3";

export interface KeyspaceOptions {
  /** Leading part of every key; tests use a unique prefix each. */
  prefix: string;
}

/** What a key under the prefix is (for tools that measure or clean up the store, like the bench). */
export type KeyKind =
  | { kind: "block"; tier: Tier; projection: Projection }
  | { kind: "container"; tier: Tier }
  | { kind: "keyed"; tier: Tier }
  | { kind: "sketch"; tier: Tier }
  | {
      kind:
        | "seen"
        | "combos"
        | "dimension"
        | "extent"
        | "token"
        | "ratelimit"
        | "generation"
        | "log"
        | "shardWrites"
        | "other";
    };

export interface Keyspace {
  readonly prefix: string;
  /** Classifies a key of this keyspace by its name. */
  classify(key: string): KeyKind;
  /** A `SCAN … MATCH` pattern for every key under the prefix. */
  pattern(): string;
  /** Which keyspace generation readers use (switched by `rebuild`). Global key. */
  generation(): string;
  /** A generation's epoch, state and per-partition checkpoints (logPosition.ts). Global key. */
  log(generation: number): string;
  /**
   * Per partition, how many apply calls wrote a shard and the last one's call id (on a cluster):
   * the checkpoints record the counts as they move, so a node that lost writes shows a count below
   * theirs or a call id the worker's last call there did not leave (applyBatches.lua, logPosition.ts).
   */
  shardWrites(generation: number, shard: number): string;
  /** Every key of a generation, as a `SCAN … MATCH` pattern (deleting an old generation). */
  generationPattern(generation: number): string;
  /** Base of one organization's rollup keys in one generation; ends with `:`. */
  orgBase(generation: number, org: string): string;
  /** The hash tag of the organization's keys: organizations with the same one share a script call. */
  slotTag(org: string): string;
  combos(generation: number, org: string): string;
  dimension(generation: number, org: string, dimension: Dimension): string;
  /** The organization's first and last counted `recorded_at` (ms). */
  extent(generation: number, org: string): string;
  /**
   * The organization's dedupe table for a window (write/lua/includes/seenTables.lua builds the same
   * names from `orgBase`): a hash that holds its state, and a small table's ids.
   */
  seenTable(generation: number, org: string, window: number): string;
  /** The set of a large dedupe table's ids (see `seenTable`). */
  seenIds(generation: number, org: string, window: number): string;
  block(generation: number, org: string, tier: Tier, startMs: number, projection: Projection): string;
  /** The part of a block key after `orgBase` (what the ingest script receives). */
  blockSuffix(tier: Tier, startMs: number, projection: Projection): string;
  /**
   * Every key that may hold a block's cells, whatever its tier's placement (blockPlacement.ts):
   * its container, its combinations key and its key in every projection, and the sketches beside
   * each. For tools and tests that damage or inspect a block.
   */
  blockKeys(generation: number, org: string, tier: StoredTier, startMs: number): string[];
  /** The container of a tier's blocks in the period starting at `startMs` (blockPlacement.ts). */
  container(generation: number, org: string, tier: Tier, startMs: number): string;
  containerSuffix(tier: Tier, startMs: number): string;
  /** A block's combinations key, for a tier placed `keyed` (blockPlacement.ts). */
  keyed(generation: number, org: string, tier: Tier, startMs: number): string;
  keyedSuffix(tier: Tier, startMs: number): string;
  /**
   * The key of the percentile sketches of the cells in `key` (a container, a keyed block or a
   * block's key in any projection), or likewise of a suffix (what the ingest script receives).
   */
  sketches(key: string): string;
  token(sha256Hex: string): string;
  /**
   * A `SCAN … MATCH` pattern for every token's key (`token`), not the organizations' indexes nor
   * the rate-limit counters.
   */
  tokenPattern(): string;
  orgTokens(org: string): string;
  rateLimitPrefix(): string;
}

/** `YYYYMMDDHHmm` in UTC: readable in redis-cli and sortable. */
export function utcStamp(atMs: number): string {
  const iso = new Date(atMs).toISOString();
  return iso.slice(0, 4) + iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(11, 13) + iso.slice(14, 16);
}

const TIER_BY_CODE = new Map(TIERS.map((t) => [TIER_CODE[t], t]));
const PROJECTION_BY_CODE = new Map(PROJECTIONS.map((v) => [PROJECTION_CODE[v], v]));
const BLOCK_KEY = /:b:([a-zA-Z]):\d{12}:([a-z])$/;
const CONTAINER_KEY = /:s:([a-zA-Z]):\d{12}$/;
const KEYED_KEY = /:b:([a-zA-Z]):\d{12}:k$/;
const SKETCH_KEY = new RegExp(`:[bs]:([a-zA-Z]):\\d{12}(?::[a-z])?:${SKETCH_SUFFIX}$`);
/** The last letter of a keyed block's key: not a projection's code (projections.ts). */
const KEYED_CODE = "k";
const SHARD_WRITES_KEY = /:g\d+:\{s\d+\}:writes$/;
const ORG_KEY = new RegExp(`:\\{s\\d+\\}:.*:(combos|extent|dim:[a-z_]+|seen:\\d+(?::${SEEN_IDS_SUFFIX})?)$`);

function classifyKey(key: string): KeyKind {
  const block = BLOCK_KEY.exec(key);
  const tier = block ? TIER_BY_CODE.get(block[1] as string) : undefined;
  const projection = block ? PROJECTION_BY_CODE.get(block[2] as string) : undefined;
  if (tier !== undefined && projection !== undefined) return { kind: "block", tier, projection };
  const container = TIER_BY_CODE.get(CONTAINER_KEY.exec(key)?.[1] ?? "");
  if (container !== undefined) return { kind: "container", tier: container };
  const keyed = TIER_BY_CODE.get(KEYED_KEY.exec(key)?.[1] ?? "");
  if (keyed !== undefined) return { kind: "keyed", tier: keyed };
  const sketch = TIER_BY_CODE.get(SKETCH_KEY.exec(key)?.[1] ?? "");
  if (sketch !== undefined) return { kind: "sketch", tier: sketch };
  if (SHARD_WRITES_KEY.test(key)) return { kind: "shardWrites" };
  const org = ORG_KEY.exec(key)?.[1];
  if (org === "combos" || org === "extent") return { kind: org };
  if (org?.startsWith("dim:")) return { kind: "dimension" };
  if (org?.startsWith("seen:")) return { kind: "seen" };
  if (key.includes(":token:") || key.includes(":tokens:")) return { kind: "token" };
  if (key.includes(":ratelimit:")) return { kind: "ratelimit" };
  if (key.endsWith(":generation")) return { kind: "generation" };
  if (key.endsWith(":log")) return { kind: "log" };
  return { kind: "other" };
}

export function createKeyspace({ prefix }: KeyspaceOptions): Keyspace {
  const root = `${prefix}:${STORE_VERSION}`;
  const tokenRoot = `${prefix}:${TOKEN_KEYS_VERSION}`;
  const slotTag = (org: string) => `{s${shardOf(org)}}`;
  const orgBase = (generation: number, org: string) => `${root}:g${generation}:${slotTag(org)}:${org}:`;
  const blockSuffix = (tier: Tier, startMs: number, projection: Projection) =>
    `b:${TIER_CODE[tier]}:${utcStamp(startMs)}:${PROJECTION_CODE[projection]}`;
  const containerSuffix = (tier: Tier, startMs: number) => `s:${TIER_CODE[tier]}:${utcStamp(startMs)}`;
  const keyedSuffix = (tier: Tier, startMs: number) =>
    `b:${TIER_CODE[tier]}:${utcStamp(startMs)}:${KEYED_CODE}`;
  const sketches = (key: string) => `${key}:${SKETCH_SUFFIX}`;
  return {
    prefix,
    classify: classifyKey,
    pattern: () => `${prefix}:*`,
    generation: () => `${root}:generation`,
    log: (generation) => `${root}:g${generation}:log`,
    shardWrites: (generation, shard) => `${root}:g${generation}:{s${shard}}:writes`,
    generationPattern: (generation) => `${root}:g${generation}:*`,
    orgBase,
    slotTag,
    combos: (generation, org) => `${orgBase(generation, org)}combos`,
    dimension: (generation, org, dimension) => `${orgBase(generation, org)}dim:${dimension}`,
    extent: (generation, org) => `${orgBase(generation, org)}extent`,
    seenTable: (generation, org, window) => `${orgBase(generation, org)}seen:${window}`,
    seenIds: (generation, org, window) => `${orgBase(generation, org)}seen:${window}:${SEEN_IDS_SUFFIX}`,
    block: (generation, org, tier, startMs, projection) =>
      orgBase(generation, org) + blockSuffix(tier, startMs, projection),
    blockSuffix,
    container: (generation, org, tier, startMs) => orgBase(generation, org) + containerSuffix(tier, startMs),
    keyed: (generation, org, tier, startMs) => orgBase(generation, org) + keyedSuffix(tier, startMs),
    keyedSuffix,
    blockKeys: (generation, org, tier, startMs) => {
      const cells = [
        orgBase(generation, org) + containerSuffix(tier, containerOf(tier, startMs).startMs),
        orgBase(generation, org) + keyedSuffix(tier, startMs),
        ...PROJECTIONS.map((projection) => orgBase(generation, org) + blockSuffix(tier, startMs, projection)),
      ];
      return [...cells, ...cells.map(sketches)];
    },
    sketches,
    containerSuffix,
    token: (sha256Hex) => `${tokenRoot}:token:${sha256Hex}`,
    tokenPattern: () => `${tokenRoot}:token:*`,
    orgTokens: (org) => `${tokenRoot}:tokens:{${org}}`,
    rateLimitPrefix: () => `${tokenRoot}:ratelimit:`,
  };
}
