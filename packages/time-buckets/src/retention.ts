import { DAY_MS, type Tier } from "./tiers";

/**
 * How long each tier is kept, in ms after the block starts; `null` keeps it forever. Quarter
 * hours are stored inside the hour blocks, so `quarter` is always `hour`'s (see `withQuarters`).
 */
export type Retention = Readonly<Record<Tier, number | null>>;

/** A retention from the stored tiers' own: quarter hours are kept exactly as long as the hours they are split from. */
export function withQuarters(stored: Readonly<Record<Exclude<Tier, "quarter">, number | null>>): Retention {
  return { ...stored, quarter: stored.hour };
}

export const DEFAULT_RETENTION: Retention = withQuarters({
  minute: 35 * DAY_MS,
  hour: 400 * DAY_MS,
  day: null,
  week: null,
  month: null,
});

/**
 * Extra life given to every expiring key beyond its retention. The writer only writes blocks that
 * `isBlockKept` at ingest time and the reader only reads blocks that are kept at query time; the
 * grace guarantees that a block the reader still counts as kept has not expired under it.
 */
export const EXPIRY_GRACE_MS = DAY_MS;

/**
 * The one rule both sides follow: a block of `tier` starting at `startMs` exists at time `nowMs`
 * when its tier is kept forever or it started within the retention window.
 */
export function isBlockKept(retention: Retention, tier: Tier, startMs: number, nowMs: number): boolean {
  const keep = retention[tier];
  return keep === null || startMs >= nowMs - keep;
}

/** When the writer should let a block's key expire (Unix time, ms), or null to keep it. */
export function blockExpiresAt(retention: Retention, tier: Tier, startMs: number): number | null {
  const keep = retention[tier];
  return keep === null ? null : startMs + keep + EXPIRY_GRACE_MS;
}

/**
 * Coarser tiers must be kept at least as long as finer ones (the planner falls back from a tier to
 * the next coarser one), and months at least as long as weeks. Returns the violations, if any.
 */
export function retentionProblems(retention: Retention): string[] {
  const longest = (v: number | null) => (v === null ? Number.POSITIVE_INFINITY : v);
  const ladder: Array<[Tier, Tier]> = [
    ["minute", "hour"],
    ["hour", "day"],
    ["day", "month"],
    ["day", "week"],
  ];
  const problems = ladder
    .filter(([finer, coarser]) => longest(retention[finer]) > longest(retention[coarser]))
    .map(([finer, coarser]) => `${coarser} data must be kept at least as long as ${finer} data`);
  if (retention.quarter !== retention.hour) problems.push("quarter hours are kept exactly as long as hours");
  return problems;
}
