import { DAY_MS, HOUR_MS, type Tier } from "@vu/time-buckets";
import { containerOf, type OrgLayout, type StoredTier } from "../format/blockPlacement";
import type { DerivedRead } from "./derivedBlocks";
import type { BlockRef } from "./readPlan";

/**
 * Whether the block of `tier` starting at `startMs` is still stored at the query's time (the
 * retention rule the planner covers with): a read replaces a block by finer ones only where these
 * are kept.
 */
export type IsKept = (tier: Tier, startMs: number) => boolean;

/** The fields of the container of `tier` starting at `containerStartMs`, known or estimated. */
export type ContainerFields = (tier: StoredTier, containerStartMs: number) => number;

/**
 * Day blocks read as their 24 hours, when that costs less to fetch and walk. A read of a container
 * fetches and splits all of its fields (an HGETALL), so while days and hours are both in containers
 * (blockPlacement.ts) the planner's coarsest cover is not the cheapest to read: a few weeks of day
 * blocks read their year's container, a year of cells, where the hours of those weeks are in one or
 * two month containers holding about as many cells as the weeks have recordings. Both reads are
 * exact (a day's cells are the sum of its hours' cells, every recording being counted in both
 * tiers in one batch), so the read takes the one that costs less: its containers' fields
 * (`fieldsOf` knows them from earlier reads or estimates them) and the blocks it walks, a day being
 * 24 hours to walk.
 *
 * All days or none: a block asked for may be several days (a derived week or month), whose cells
 * must all be read the same way. Only when every hour of every day is kept; never for a tier in
 * keys of its own (`keyed`, `projected`), where a day is one key and its cells are the day's alone.
 * The result maps `blocks` (`from[i]` .. `from[i + 1]`) onto what is fetched, as derivedRead does;
 * undefined: read the blocks as they are.
 */
export function daysAsHours(
  blocks: readonly BlockRef[],
  layout: OrgLayout,
  kept: IsKept | undefined,
  fieldsOf: ContainerFields,
): DerivedRead | undefined {
  if (kept === undefined || layout.placement.day !== "container" || layout.placement.hour !== "container") {
    return undefined;
  }
  const days = blocks.filter((b) => b.tier === "day");
  if (days.length === 0 || !days.every((day) => hoursKept(day.startMs, kept))) return undefined;
  const asDays = containersOf(blocks, () => false);
  const asHours = containersOf(blocks, (b) => b.tier === "day");
  const hoursWalked = blocks.length + (HOURS_PER_DAY - 1) * days.length;
  if (readCost(asHours, hoursWalked, fieldsOf) >= readCost(asDays, blocks.length, fieldsOf)) return undefined;
  const fetched: BlockRef[] = [];
  const from = new Int32Array(blocks.length + 1);
  blocks.forEach((block, i) => {
    from[i] = fetched.length;
    if (block.tier === "day") fetched.push(...hoursOf(block.startMs));
    else fetched.push(block);
  });
  from[blocks.length] = fetched.length;
  return { fetched, from };
}

/** The hours of the UTC day starting at `dayMs` (UTC days are 24 hours). */
function hoursOf(dayMs: number): BlockRef[] {
  const hours: BlockRef[] = [];
  for (let t = dayMs; t < dayMs + DAY_MS; t += HOUR_MS) hours.push({ tier: "hour", startMs: t });
  return hours;
}

/**
 * Whether the day's hours are kept: its first one is, as retention keeps a block that started
 * within its tier's window (`isBlockKept`), and the later hours started later.
 */
function hoursKept(dayMs: number, kept: IsKept): boolean {
  return kept("hour", dayMs);
}

/** Tiers whose blocks are in an hour container: hours, their quarters, and days read as hours. */
const HOUR_CONTAINED: ReadonlySet<Tier> = new Set<Tier>(["hour", "quarter", "day"]);

/**
 * The day and hour containers a read of `blocks` fetches, the days `asHours` says read from their
 * hours' month container. Other tiers' containers are read either way.
 */
function containersOf(
  blocks: readonly BlockRef[],
  asHours: (b: BlockRef) => boolean,
): Map<string, [StoredTier, number]> {
  const containers = new Map<string, [StoredTier, number]>();
  // Per tier, the container of the last block: consecutive blocks mostly share it.
  const last = new Map<StoredTier, { startMs: number; endMs: number }>();
  for (const block of blocks) {
    const tier =
      block.tier === "day" && !asHours(block) ? "day" : HOUR_CONTAINED.has(block.tier) ? "hour" : undefined;
    if (tier === undefined) continue;
    const seen = last.get(tier);
    if (seen !== undefined && block.startMs >= seen.startMs && block.startMs < seen.endMs) continue;
    const { startMs, endMs } = containerOf(tier, block.startMs);
    last.set(tier, { startMs, endMs });
    containers.set(`${tier}:${startMs}`, [tier, startMs]);
  }
  return containers;
}

const HOURS_PER_DAY = DAY_MS / HOUR_MS;

/**
 * What a block to walk costs the reader, in stored fields: every block fetched is planned, placed
 * in its container and walked for its cells, about what a field fetched, split and summed costs
 * (decision 0028's measurement and bench/ANALYSIS.md, session of 2026-12-03 (third)). Without it
 * a small organization's year of days was read as its hours for a few fewer fields: 24 times the
 * blocks to walk.
 */
const FIELDS_PER_BLOCK = 1;

/** A read's cost in stored fields: its containers' fields and the blocks it walks. */
function readCost(
  containers: Map<string, [StoredTier, number]>,
  blocksWalked: number,
  fieldsOf: ContainerFields,
): number {
  let fields = FIELDS_PER_BLOCK * blocksWalked;
  for (const [tier, start] of containers.values()) fields += fieldsOf(tier, start);
  return fields;
}

/** A read of a read: blocks asked → `first.fetched` → `second.fetched`. */
export function chainReads(first: DerivedRead, second: DerivedRead): DerivedRead {
  return { fetched: second.fetched, from: first.from.map((i) => second.from[i] as number) };
}
