import { bucketIndex, bucketStartOf, bucketStarts, firstAtOrAfter } from "./buckets";
import { compareCodePoints } from "./byteOrder";
import { formatIn } from "./dates";
import { isOnKeptGrid } from "./keptGrid";
import { addRecording, emptySums, type Rounded, type RowMetric, rowMetrics, type Sums } from "./metrics";
import {
  DIMENSIONS,
  type Dimension,
  GRANULARITIES,
  type Granularity,
  matchesAll,
  type QueryPairs,
  readEnum,
  readFilters,
  readInt,
  readPairs,
  STATS_KEYS,
} from "./params";
import { ExpectedBadRequest, type OracleRange, resolveRange } from "./range";
import type { CountedRecording } from "./recordings";

export interface ExpectedRow {
  time_bucket: string;
  /** The group value when grouped (null: no language model). */
  group?: string | null;
  metrics: Record<RowMetric, Rounded>;
}

export interface ExpectedStats {
  status: 200;
  format: "json" | "csv";
  groupBy: Dimension | undefined;
  rows: ExpectedRow[];
  pagination: { page: number; page_size: number; total_rows: number; total_pages: number; count: number };
  meta: {
    start_date: string;
    end_date: string;
    granularity: Granularity;
    group_by: Dimension | null;
    timezone: string;
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

/** `GET /api/v1/stats` answered by scanning the organization's counted recordings. */
export function answerStats(
  recordings: readonly CountedRecording[],
  pairs: QueryPairs,
  options: OracleOptions,
): Answer<ExpectedStats> {
  try {
    const params = readPairs(pairs, STATS_KEYS);
    const granularity = readEnum(params, "granularity", GRANULARITIES) ?? "day";
    const groupBy = readEnum(params, "group_by", DIMENSIONS);
    const page = readInt(params, "page", 1, Number.MAX_SAFE_INTEGER);
    const pageSize = readInt(params, "page_size", 200, 1000);
    const format = readEnum(params, "format", ["json", "csv"] as const) ?? "json";
    const filters = readFilters(params);
    const range = resolveRange(Object.fromEntries(params), options.nowMs);
    const starts = bucketStarts(range, granularity);
    const edge = offGridEdge(range, starts, options.nowMs);
    if (edge !== undefined) return { status: "not-comparable", edge };

    const buckets = starts.map(() => new Map<string | null, Sums>());
    for (let i = firstAtOrAfter(recordings, range.startMs); i < recordings.length; i++) {
      const r = recordings[i] as CountedRecording;
      if (r.atMs >= range.endMs) break;
      if (!matchesAll(r, filters)) continue;
      const index = bucketIndex(starts, r.atMs);
      if (options.selfCheck && bucketStartOf(r.atMs, granularity, range.zone) !== starts[index]) {
        throw new Error(
          `oracle self-check: ${r.atMs} ${granularity} ${range.zoneName} bucket ${starts[index]}`,
        );
      }
      const key = groupBy === undefined ? "" : r[groupBy];
      const sums = buckets[index]?.get(key) ?? emptySums();
      buckets[index]?.set(key, sums);
      addRecording(sums, r);
    }

    const rows: ExpectedRow[] = [];
    buckets.forEach((groups, i) => {
      const label = formatIn(starts[i] ?? 0, range.zone);
      const values = [...groups.keys()].sort(compareCodePoints);
      for (const value of values) {
        const sums = groups.get(value) ?? emptySums();
        const row: ExpectedRow = { time_bucket: label, metrics: rowMetrics(sums) };
        if (groupBy !== undefined) row.group = value;
        rows.push(row);
      }
    });
    const pageRows = rows.slice((page - 1) * pageSize, page * pageSize);
    return {
      status: 200,
      format,
      groupBy,
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
        group_by: groupBy ?? null,
        timezone: range.zoneName,
      },
    };
  } catch (error) {
    if (error instanceof ExpectedBadRequest) return { status: 400, parameter: error.parameter };
    throw error;
  }
}
