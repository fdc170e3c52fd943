import type { Dimension } from "@vu/events";
import { addSums, emptySums, type ReadOptions, type RollupReader, viewFor } from "@vu/store";
import {
  type Granularity,
  type PlanContext,
  planQuery,
  planTotal,
  type RangeMeta,
  type RangeParams,
} from "../planner";
import { readConsistently } from "./consistentRead";
import { comboMatches, type DimensionFilter, parseFilters, type RawFilters } from "./filters";
import { type Pagination, paginate } from "./pagination";
import { aggregateRows } from "./rowAggregation";
import { type StatsRow, type Summary, toStatsRow, toSummary } from "./rowMetrics";

export interface QueryDeps {
  reader: RollupReader;
  /** The request's `now` and the retention in force. */
  planContext: () => PlanContext;
  /** Stored blocks one request may read (MAX_BLOCKS_PER_REQUEST). */
  maxBlocksPerRequest: number;
}

/** With filters, the store may fetch only the combinations that pass them. */
function readOptions(filters: readonly DimensionFilter[]): ReadOptions {
  return filters.length === 0 ? {} : { combosMatching: (values) => comboMatches(values, filters) };
}

export interface StatsRequest extends RangeParams {
  granularity: Granularity;
  groupBy?: Dimension | undefined;
  filters: RawFilters;
  page: number;
  pageSize: number;
}

export interface StatsMeta {
  start_date: string;
  end_date: string;
  granularity: Granularity;
  group_by: Dimension | null;
  timezone: string;
}

export interface StatsResult {
  data: StatsRow[];
  pagination: Pagination;
  meta: StatsMeta;
}

/**
 * Plans the buckets where the organization has data, reads every block atomically, then filters,
 * groups, sorts and pages.
 */
export async function queryStats(org: string, request: StatsRequest, deps: QueryDeps): Promise<StatsResult> {
  const filters = parseFilters(request.filters);
  const { plan, snapshot } = await readConsistently({
    reader: deps.reader,
    context: { ...deps.planContext(), maxBlocks: deps.maxBlocksPerRequest },
    org,
    view: viewFor(
      filters.map((f) => f.dimension),
      request.groupBy,
    ),
    read: readOptions(filters),
    plan: (context) => {
      const plan = planQuery(request, context);
      return { plan, blocks: plan.buckets.flatMap((b) => b.blocks) };
    },
  });
  const rows = aggregateRows(plan.buckets, snapshot, { filters, groupBy: request.groupBy });
  const { items, pagination } = paginate(rows, request.page, request.pageSize);
  const groupBy = request.groupBy;
  return {
    data: items.map((row) =>
      toStatsRow(row.label, row.sums, groupBy ? { dimension: groupBy, value: row.group ?? null } : undefined),
    ),
    pagination,
    meta: {
      start_date: plan.meta.start_date,
      end_date: plan.meta.end_date,
      granularity: plan.meta.granularity,
      group_by: groupBy ?? null,
      timezone: plan.meta.timezone,
    },
  };
}

export interface SummaryRequest extends RangeParams {
  filters: RawFilters;
}

/** The whole range as one interval, summed over every matching combination. */
export async function querySummary(
  org: string,
  request: SummaryRequest,
  deps: QueryDeps,
): Promise<{ summary: Summary; meta: RangeMeta }> {
  const filters = parseFilters(request.filters);
  const { plan, snapshot } = await readConsistently({
    reader: deps.reader,
    context: { ...deps.planContext(), maxBlocks: deps.maxBlocksPerRequest },
    org,
    view: viewFor(filters.map((f) => f.dimension)),
    read: readOptions(filters),
    plan: (context) => {
      const plan = planTotal(request, context);
      return { plan, blocks: plan.blocks };
    },
  });
  const rows = aggregateRows([{ label: "", startMs: plan.range.startMs, blocks: plan.blocks }], snapshot, {
    filters,
  });
  const total = rows.reduce((acc, row) => addSums(acc, row.sums), emptySums());
  return { summary: toSummary(total), meta: plan.meta };
}
