import {
  DAY_MS,
  floorUtc,
  HOUR_MS,
  MINUTE_MS,
  nextUtc,
  TIER_CODE,
  type Tier,
  WEEK_MS,
} from "@vu/time-buckets";

/**
 * Where a block's cells live. An organization's tier is **sparse** until its recordings are dense
 * enough in that tier (DENSITY below): then every block of the tier keeps only its combination
 * cells, and the blocks of one longer period share one **container** hash, each field led by the
 * block's index in the period (`<index>:<field>`). A sparse block thus costs its cells, not keys:
 * in a small organization a block holds one or two cells, which a key of its own (and five more
 * for the views) would cost many times over. Once **dense**, a tier's new cells go to one key per
 * block and view (the star-tree views), which answer the common queries without walking every
 * combination. A block may hold cells in both places (written before and after the switch): a
 * read sums them.
 */
export type StoredTier = Exclude<Tier, "quarter">;
export const STORED_TIERS: readonly StoredTier[] = ["minute", "hour", "day", "week", "month"];

/** The period one container of a sparse tier spans, and a block's index inside it. */
interface ContainerRule {
  /** The container's start for a block start (UTC). */
  start(blockStartMs: number): number;
  /** The next container's start. */
  end(containerStartMs: number): number;
  /** The block's index in its container: a short decimal in every field. */
  index(blockStartMs: number, containerStartMs: number): number;
}

const byLength = (blockMs: number) => (startMs: number, containerMs: number) =>
  Math.round((startMs - containerMs) / blockMs);

const utcYear = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear(), 0, 1);
const nextYear = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear() + 1, 0, 1);

/**
 * Periods sized so that a small organization's container collects many blocks (one key instead
 * of one per block) while a read of a short range still walks little besides what it asked for.
 */
const CONTAINERS: Readonly<Record<StoredTier, ContainerRule>> = {
  minute: { start: (ms) => floorUtc("hour", ms), end: (ms) => ms + HOUR_MS, index: byLength(MINUTE_MS) },
  hour: { start: (ms) => floorUtc("week", ms), end: (ms) => ms + WEEK_MS, index: byLength(HOUR_MS) },
  day: { start: (ms) => floorUtc("month", ms), end: (ms) => nextUtc("month", ms), index: byLength(DAY_MS) },
  week: { start: utcYear, end: nextYear, index: byLength(WEEK_MS) },
  month: { start: utcYear, end: nextYear, index: (ms) => new Date(ms).getUTCMonth() },
};

export interface ContainerPlace {
  /** The container's start (its key names it) and the next container's start. */
  startMs: number;
  endMs: number;
  /** The block's index in the container. */
  index: number;
  /** What leads each of the block's fields in the container: its index and FIELD_SEPARATOR. */
  prefix: string;
}

/** A sparse block's place in its container. */
export function containerOf(tier: StoredTier, blockStartMs: number): ContainerPlace {
  const rule = CONTAINERS[tier];
  const startMs = rule.start(blockStartMs);
  const index = rule.index(blockStartMs, startMs);
  return { startMs, endMs: rule.end(startMs), index, prefix: `${index}${FIELD_SEPARATOR}` };
}

/** Ends a block's index in a container field; combination fields are digits only. */
export const FIELD_SEPARATOR = ":";

/**
 * When a tier turns dense (checked by the apply script after each batch, with the arguments of
 * `densityArguments`): once the organization has counted at least `minRecordings` and its
 * recordings average at least `recordingsPerBlock` per block of the tier over the span of its data
 * (first to last `recorded_at`). Then the views pay for themselves: a query of such a block would
 * otherwise walk that many combination cells to find one total. The switch never goes back.
 */
export const DENSITY = { minRecordings: 2000, recordingsPerBlock: 256 } as const;

/** Nominal block lengths for the density rule (a month counts as 30 days). */
const BLOCK_MS: Readonly<Record<StoredTier, number>> = {
  minute: MINUTE_MS,
  hour: HOUR_MS,
  day: DAY_MS,
  week: WEEK_MS,
  month: 30 * DAY_MS,
};

/**
 * Whether a tier is dense by the rule, for an organization of `recordings` recordings whose data
 * spans `spanMs`; the apply script computes the same (lua/includes/settleDensity.lua).
 */
export function isDense(tier: StoredTier, recordings: number, spanMs: number): boolean {
  return (
    recordings >= DENSITY.minRecordings &&
    recordings * BLOCK_MS[tier] >= DENSITY.recordingsPerBlock * Math.max(spanMs, BLOCK_MS[tier])
  );
}

/** The rule as the apply script's argument: the minimum, the ratio, then tier code and block ms pairs. */
export function densityArguments(): string {
  return [
    DENSITY.minRecordings,
    DENSITY.recordingsPerBlock,
    ...STORED_TIERS.flatMap((t) => [TIER_CODE[t], BLOCK_MS[t]]),
  ].join(" ");
}

const STORED_TIER_BY_CODE = new Map(STORED_TIERS.map((t) => [TIER_CODE[t], t]));

/** The dense tiers named by the extent's `dense` field (their codes). */
export function denseTiers(codes: string | null | undefined): ReadonlySet<StoredTier> {
  const tiers = new Set<StoredTier>();
  for (const code of codes ?? "") {
    const tier = STORED_TIER_BY_CODE.get(code);
    if (tier !== undefined) tiers.add(tier);
  }
  return tiers;
}
