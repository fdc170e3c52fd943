import { bucketIndex, bucketStartOf, bucketStarts, type Calendar, firstAtOrAfter } from "./buckets";
import { compareCodePoints } from "./byteOrder";
import { type CompareKind, pairedIndex, previousOf, readCompare, shiftOf } from "./compare";
import { formatIn } from "./dates";
import { isOnKeptGrid } from "./keptGrid";
import {
  type Approximate,
  addRecording,
  percentileFields,
  type Rounded,
  type RowMetric,
  rowMetrics,
} from "./metrics";
import {
  type Dimension,
  GRANULARITIES,
  type Granularity,
  matchesAll,
  type QueryPairs,
  readEnum,
  readFilters,
  readInt,
  readPairs,
  readPercentiles,
  STATS_KEYS,
  WEEK_STARTS,
} from "./params";
import { ExpectedBadRequest, type OracleRange, resolveRange } from "./range";
import type { CountedRecording } from "./recordings";
import {
  ACTIVE_MEMBERS,
  checkShape,
  emptyTally,
  readShape,
  type ShapedRow,
  shapeBuckets,
  type Tally,
} from "./shaping";

/** docs/contract.md §7 `granularity=all`: one bucket, the whole range. */
const STATS_GRANULARITIES = [...GRANULARITIES, "all"] as const;
type StatsGranularity = (typeof STATS_GRANULARITIES)[number];

/**
 * A row's metrics in the order the row shows them: the seed's, then docs/contract.md §9's
 * percentiles (`p<q>_voice_processing_time`, `p<q>_llm_processing_time`, q ascending) and
 * `active_members` when asked.
 */
export type RowFields = Record<RowMetric, Rounded> & { [ACTIVE_MEMBERS]?: Rounded } & {
  [field: `p${number}_${string}`]: Approximate;
};

export interface ExpectedRow {
  time_bucket: string;
  /** The group's values when grouped, one per group_by dimension (null: no language model). */
  group?: Array<string | null>;
  metrics: RowFields;
  /** docs/contract.md §7 `compare`: the `previous_<metric>` values. */
  previous?: RowFields;
  /** Not shown: an (other) row's folded groups' member counts added up (what coverage looks for). */
  summedMembers?: number;
  /**
   * docs/contract.md §9, when rows carry `complete`: where the row's bucket ends within the range
   * (the next bucket's start, or the range's end). `complete` is whether that is at or before the
   * answer's `X-Data-As-Of` (false without one), which only the reply tells.
   */
  endMs?: number;
}

/**
 * A row's fields from its tally; the percentiles asked (docs/contract.md §9), then `active_members`
 * (the distinct members) only when counted.
 */
function rowFields(tally: Tally, activeMembers: boolean, percentiles: readonly number[] = []): RowFields {
  const fields: RowFields = { ...rowMetrics(tally.sums), ...percentileFields(tally, percentiles, "time") };
  if (activeMembers) fields[ACTIVE_MEMBERS] = { value: tally.members.size };
  return fields;
}

export interface ExpectedStats {
  status: 200;
  format: "json" | "csv";
  /** The group_by dimensions in the order asked; empty when not grouped. */
  groupBy: Dimension[];
  /** docs/contract.md §9 `include=active_members`: the rows (and the CSV header) have the field. */
  activeMembers: boolean;
  /** docs/contract.md §9 `percentiles`: those asked, ascending (two fields and columns each). */
  percentiles: number[];
  /** docs/contract.md §9: every row ends with `complete` (a §9 parameter was named). */
  complete: boolean;
  rows: ExpectedRow[];
  pagination: { page: number; page_size: number; total_rows: number; total_pages: number; count: number };
  meta: {
    start_date: string;
    end_date: string;
    granularity: StatsGranularity;
    group_by: string | null;
    timezone: string;
    compare?: CompareKind;
    previous_start_date?: string;
    previous_end_date?: string;
  };
}

export type Answer<T> =
  | T
  | { status: 400; parameter: string }
  /** An edge off the store's kept grid: the service moves it, so the oracle does not compare. */
  | { status: "not-comparable"; edge: number };

export interface OracleOptions {
  nowMs: number;
  /** Also recompute every recording's bucket with luxon's startOf (slower; on in quick runs). */
  selfCheck?: boolean;
}

/** The edges a query's answer depends on, all of which must be on the kept grid. */
function offGridEdge(range: OracleRange, starts: readonly number[], nowMs: number): number | undefined {
  const edges = [range.startMs, range.endMs, ...starts.slice(1)];
  return edges.find((t) => !isOnKeptGrid(t, nowMs));
}

/**
 * docs/contract.md §9: rows carry `complete` when the query names a §9 parameter of /stats:
 * `week_start` (any value), a granularity §9 added, `include` or `percentiles`.
 */
function namesSection9(params: Map<string, string>, granularity: StatsGranularity): boolean {
  return (
    params.has("week_start") ||
    granularity === "quarter" ||
    granularity === "year" ||
    params.has("include") ||
    params.has("percentiles")
  );
}

/** `granularity=all`: the range's start alone (none for an empty range); undefined for calendar units. */
function wholeRange(granularity: StatsGranularity, range: OracleRange): number[] | undefined {
  if (granularity !== "all") return undefined;
  return range.endMs > range.startMs ? [range.startMs] : [];
}

/** `GET /api/v1/stats` answered by scanning the organization's counted recordings. */
export function answerStats(
  recordings: readonly CountedRecording[],
  pairs: QueryPairs,
  options: OracleOptions,
): Answer<ExpectedStats> {
  try {
    const params = readPairs(pairs, STATS_KEYS);
    const granularity = readEnum(params, "granularity", STATS_GRANULARITIES) ?? "day";
    const weekStart = readEnum(params, "week_start", WEEK_STARTS) ?? "monday";
    const complete = namesSection9(params, granularity);
    const shape = readShape(params);
    const groupBy = shape.groupBy;
    const page = readInt(params, "page", 1, Number.MAX_SAFE_INTEGER);
    const pageSize = readInt(params, "page_size", 200, 1000);
    const format = readEnum(params, "format", ["json", "csv"] as const) ?? "json";
    const filters = [...readFilters(params), ...readFilters(params, "exclude")];
    const compare = readCompare(params);
    const percentiles = readPercentiles(params);
    checkShape(shape);
    const range = resolveRange(Object.fromEntries(params), options.nowMs);
    const calendar = { granularity: granularity as Granularity, weekStart };
    const startsOf = (r: OracleRange) => wholeRange(granularity, r) ?? bucketStarts(r, calendar);
    const starts = startsOf(range);
    const edge = offGridEdge(range, starts, options.nowMs);
    if (edge !== undefined) return { status: "not-comparable", edge };
    const collect = (r: OracleRange, bucketStartsOf: readonly number[]) =>
      collectBuckets(recordings, r, bucketStartsOf, (rec) => matchesAll(rec, filters), groupBy, {
        calendar: granularity === "all" ? undefined : calendar,
        selfCheck: options.selfCheck ?? false,
      });
    const buckets = collect(range, starts);

    // docs/contract.md §7 `compare`: the previous range's buckets, and which one each bucket pairs with.
    let previous: ((bucket: number, group: Array<string | null>) => Tally) | undefined;
    let previousRange: OracleRange | undefined;
    if (compare !== undefined) {
      previousRange = previousOf(compare, range);
      const before = previousRange;
      const previousStarts = startsOf(before);
      const previousEdge = offGridEdge(before, previousStarts, options.nowMs);
      if (previousEdge !== undefined) return { status: "not-comparable", edge: previousEdge };
      const previousBuckets = collect(before, previousStarts);
      const shift = shiftOf(compare, range);
      const paired = starts.map((start) => pairedIndex(start, range, before, previousStarts, shift));
      previous = (bucket, group) => {
        const index = paired[bucket];
        const row = index === undefined ? undefined : previousBuckets[index]?.get(JSON.stringify(group));
        return row ?? emptyTally();
      };
    }

    // Each bucket's rows in the default order: by the first group_by dimension, then the next.
    const byGroup = (a: ShapedRow, b: ShapedRow) =>
      a.group.reduce((order, v, i) => order || compareCodePoints(v, b.group[i] ?? null), 0);
    const bucketRows = buckets.map((groups) => [...groups.values()].sort(byGroup));
    const shaped = shapeBuckets(bucketRows, shape, previous);
    const rows: ExpectedRow[] = [];
    shaped.forEach((groups, i) => {
      const label = formatIn(starts[i] ?? 0, range.zone);
      const endMs = Math.min(starts[i + 1] ?? range.endMs, range.endMs);
      for (const tally of groups) {
        const row: ExpectedRow = {
          time_bucket: label,
          metrics: rowFields(tally, shape.activeMembers, percentiles),
        };
        if (groupBy.length > 0) row.group = tally.group;
        if (tally.previous) row.previous = rowFields(tally.previous, shape.activeMembers);
        if (shape.activeMembers && tally.summedMembers !== undefined) row.summedMembers = tally.summedMembers;
        if (complete) row.endMs = endMs;
        rows.push(row);
      }
    });
    const pageRows = rows.slice((page - 1) * pageSize, page * pageSize);
    return {
      status: 200,
      format,
      groupBy,
      activeMembers: shape.activeMembers,
      percentiles,
      complete,
      rows: pageRows,
      pagination: {
        page,
        page_size: pageSize,
        total_rows: rows.length,
        total_pages: Math.ceil(rows.length / pageSize),
        count: pageRows.length,
      },
      meta: {
        start_date: formatIn(range.startMs, range.zone),
        end_date: formatIn(range.endMs, range.zone),
        granularity,
        group_by: groupBy.length > 0 ? groupBy.join(",") : null,
        timezone: range.zoneName,
        ...(compare !== undefined &&
          previousRange && {
            compare,
            previous_start_date: formatIn(previousRange.startMs, range.zone),
            previous_end_date: formatIn(previousRange.endMs, range.zone),
          }),
      },
    };
  } catch (error) {
    if (error instanceof ExpectedBadRequest) return { status: 400, parameter: error.parameter };
    throw error;
  }
}

/** Each bucket's rows by group (JSON of the group's values), from the recordings that pass. */
function collectBuckets(
  recordings: readonly CountedRecording[],
  range: OracleRange,
  starts: readonly number[],
  passes: (r: CountedRecording) => boolean,
  groupBy: readonly Dimension[],
  check: { calendar: Calendar | undefined; selfCheck: boolean },
): Array<Map<string, ShapedRow>> {
  const buckets = starts.map(() => new Map<string, ShapedRow>());
  for (let i = firstAtOrAfter(recordings, range.startMs); i < recordings.length; i++) {
    const r = recordings[i] as CountedRecording;
    if (r.atMs >= range.endMs) break;
    if (!passes(r)) continue;
    const index = bucketIndex(starts, r.atMs);
    if (
      check.selfCheck &&
      check.calendar !== undefined &&
      bucketStartOf(r.atMs, check.calendar, range.zone) !== starts[index]
    ) {
      throw new Error(
        `oracle self-check: ${r.atMs} ${JSON.stringify(check.calendar)} ${range.zoneName} bucket ${starts[index]}`,
      );
    }
    const group = groupBy.map((d) => r[d]);
    const key = JSON.stringify(group);
    const row = buckets[index]?.get(key) ?? { group, ...emptyTally() };
    buckets[index]?.set(key, row);
    addRecording(row.sums, r);
    row.members.add(r.member_email);
    if (r.voice_processing_ms !== null) row.voice.push(r.voice_processing_ms);
    if (r.llm_processing_ms !== null) row.llm.push(r.llm_processing_ms);
  }
  return buckets;
}
