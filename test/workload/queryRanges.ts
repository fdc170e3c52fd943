import { DateTime, FixedOffsetZone } from "luxon";
import type { Random } from "../support/random";
import { DAY_MS, HOUR_MS } from "./timeline";

/** Where a range lies relative to the store's retention, which decides the zones it may use. */
export type Region = "recent" | "middle" | "old";

export interface RangeContext {
  nowMs: number;
  /** Instants near DST changes and month starts, to centre some ranges on. */
  hot: readonly number[];
}

export interface GeneratedRange {
  pairs: Array<[string, string]>;
  /** Where the range starts, which decided the zones and grid it was drawn with. */
  region: Region;
}

/**
 * Zones by region (approach (a) of the brief): within the minute retention (35 days) any zone and
 * any minute; within the quarter-hour retention (400 days) zones whose offsets are whole quarter
 * hours, on quarter hours; beyond it only UTC, on whole days. A `null` zone means no `timezone`.
 */
const QUARTER_HOUR_ZONES = [
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Australia/Adelaide",
  "America/St_Johns",
  "+05:30",
  "-0330",
  "+0545",
] as const;
const ZONES: Readonly<Record<Region, ReadonlyArray<string | null>>> = {
  recent: [null, "UTC", "Europe/Berlin", "America/New_York", ...QUARTER_HOUR_ZONES, "Z"],
  middle: [null, "UTC", "Europe/Berlin", "America/New_York", "+02:00", "-0500", ...QUARTER_HOUR_ZONES, "Z"],
  old: [null, "UTC", "Z"],
};
/** Offsets written into `start_date` (which then also name the zone when `timezone` is absent). */
const WRITTEN_OFFSETS: Readonly<Record<Region, readonly string[]>> = {
  recent: ["Z", "+05:30", "+0530", "-04:00", "+01:00", "+00:00", "-0930"],
  middle: ["Z", "+01:00", "-0500", "+00:00", "+0200"],
  old: ["Z", "+00:00"],
};
const STEP: Readonly<Record<Region, number>> = { recent: 1, middle: HOUR_MS / 4, old: DAY_MS };

const zoneOf = (timezone: string | null, written: string | null): string => {
  const name = timezone ?? written ?? "UTC";
  if (name === "Z" || name === "UTC") return "UTC";
  if (/^[+-]\d{2}:?\d{2}$/.test(name)) return FixedOffsetZone.instance(offsetMinutes(name)).name;
  return name;
};

/** Minutes east of UTC of a written offset (`Z`, `+05:30`, `-0330`). */
function offsetMinutes(text: string): number {
  if (text === "Z") return 0;
  const minutes = Number(text.slice(1, 3)) * 60 + Number(text.slice(-2));
  return text.startsWith("-") ? -minutes : minutes;
}

/** The instant `t` written in one of the seed's forms: with `offset`, or zone-less in `zone`. */
function writeInstant(
  t: number,
  zone: string,
  region: Region,
  random: Random,
  offset: string | null,
): string {
  // Now and then a zone-less time is written with the offset the zone had two hours earlier: next
  // to a DST change that is a reading the clocks skip or show twice (docs/contract.md is silent; the
  // planner's documented rule: first occurrence, or moved forward by the gap).
  const stale = offset === null && random.chance(0.15);
  const at =
    offset !== null
      ? FixedOffsetZone.instance(offsetMinutes(offset))
      : stale
        ? FixedOffsetZone.instance(DateTime.fromMillis(t - 2 * HOUR_MS, { zone }).offset)
        : zone;
  const wall = DateTime.fromMillis(t, { zone: at }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
  const frac = region === "recent" || t % 1000 !== 0 ? fraction(t, random) : "";
  return `${wall}${frac}${offset ?? ""}`;
}

/** Fractional seconds in the forms the seed allows: none, `.5`, `.123`, `.123456` (truncated). */
function fraction(t: number, random: Random): string {
  const ms = t % 1000;
  const roll = random.float();
  if (ms === 0 && roll < 0.6) return "";
  if (roll < 0.8) return `.${String(ms).padStart(3, "0")}`;
  return `.${String(ms).padStart(3, "0")}${random.int(0, 999)}`;
}

function drawRegion(random: Random): Region {
  const roll = random.float();
  return roll < 0.6 ? "recent" : roll < 0.85 ? "middle" : "old";
}

/** A start instant in the region, on its grid; sometimes right at a DST change or month start. */
function drawStart(region: Region, ctx: RangeContext, random: Random): number {
  const { nowMs } = ctx;
  const bounds: Record<Region, [number, number]> = {
    recent: [nowMs - 34 * DAY_MS, nowMs + DAY_MS],
    middle: [nowMs - 399 * DAY_MS, nowMs - 36 * DAY_MS],
    old: [nowMs - 440 * DAY_MS, nowMs - 402 * DAY_MS],
  };
  const [from, to] = bounds[region];
  const hot = ctx.hot.filter((t) => t >= from && t < to);
  const base =
    hot.length > 0 && random.chance(0.35)
      ? random.pick(hot) - random.int(0, 2) * HOUR_MS
      : random.int(from, to);
  const step = STEP[region];
  return Math.floor(base / step) * step;
}

function drawLength(granularity: string | undefined, random: Random): number {
  const roll = random.float();
  if (granularity === "hour")
    return random.int(0, 20 * 24) * HOUR_MS + (roll < 0.5 ? random.int(0, HOUR_MS) : 0);
  if (roll < 0.3) return random.int(1, 72) * HOUR_MS + random.int(0, HOUR_MS);
  if (roll < 0.7) return random.int(1, 60) * DAY_MS + random.int(0, DAY_MS);
  return random.int(60, 500) * DAY_MS;
}

/**
 * `start_date`, `end_date` and `timezone` for one query, meant to be exact on the kept grid (the
 * oracle re-checks every edge and the caller draws again when one is off it).
 */
export function generateRange(
  granularity: string | undefined,
  ctx: RangeContext,
  random: Random,
): GeneratedRange {
  const region = granularity === "hour" ? (random.chance(0.7) ? "recent" : "middle") : drawRegion(random);
  const timezone = random.pick(ZONES[region]);
  const written = random.chance(0.35) ? random.pick(WRITTEN_OFFSETS[region]) : null;
  const zone = zoneOf(timezone, written);
  const start = drawStart(region, ctx, random);
  // The end lies in the same or a later region, on the grid of the region it falls in.
  let end = Math.min(start + drawLength(granularity, random), ctx.nowMs + 2 * DAY_MS);
  end = end < ctx.nowMs - 400 * DAY_MS ? Math.ceil(end / DAY_MS) * DAY_MS : end;
  end = end < ctx.nowMs - 35 * DAY_MS ? Math.ceil(end / HOUR_MS) * HOUR_MS : end;
  end = Math.max(start, end);

  const pairs: Array<[string, string]> = [];
  if (timezone !== null) pairs.push(["timezone", timezone]);
  const form = random.float();
  const local = (t: number) => DateTime.fromMillis(t, { zone });
  if (form < 0.3) {
    // Date-only: local midnights; the end date is included, so it names the day before `end`.
    const first = local(start).startOf("day");
    const last = local(Math.max(start, end - 1)).startOf("day");
    if (written === null) pairs.push(["start_date", first.toFormat("yyyy-MM-dd")]);
    else pairs.push(["start_date", `${first.toFormat("yyyy-MM-dd")}${written}`]);
    pairs.push(["end_date", last.toFormat("yyyy-MM-dd")]);
  } else if (form < 0.85) {
    pairs.push(["start_date", writeInstant(start, zone, region, random, written)]);
    const endOffset = random.chance(0.3) ? random.pick(WRITTEN_OFFSETS[region]) : null;
    pairs.push(["end_date", writeInstant(end, zone, region, random, endOffset)]);
  } else if (form < 0.9) {
    // Only end_date: the start is 7 × 24 hours before it.
    pairs.push(["end_date", writeInstant(end, zone, region, random, written)]);
  } else if (form < 0.95) {
    // Only start_date: the end is now.
    pairs.push(["start_date", writeInstant(start, zone, region, random, written)]);
  }
  // else: neither, the last 7 days.
  return { pairs: random.chance(0.5) ? pairs.reverse() : pairs, region };
}
