import { ACTIVE_MEMBERS_FIELD, type StatsRow, type Summary } from "@vu/api-responses";
import type { Dimension } from "@vu/events";
import {
  type BlockSnapshot,
  mergeSketches,
  projectionFor,
  type ReadOptions,
  type RollupReader,
} from "@vu/store";
import {
  type CompareKind,
  InvalidParameterError,
  keptState,
  type PlanContext,
  pairBuckets,
  planQuery,
  planStatsRange,
  planTotalRange,
  previousRange,
  type RangeMeta,
  type RangeParams,
  type ResolvedRange,
  resolveRange,
  type StatsGranularity,
  type StatsPlan,
  type TotalPlan,
  type WeekStart,
} from "../planner";
import { type AnswerValidator, answerState, framesOf } from "./answerState";
import { type AnswerDeps, answerOf } from "./answers";
import { type BucketEnds, type Completeness, completenessAt } from "./bucketCompleteness";
import { shapeRows } from "./bucketShaping";
import { type ConsistentReadOptions, readConsistently } from "./consistentRead";
import { comboMatches, type DimensionFilter, parseFilters, type RawFilters } from "./filters";
import type { Admission } from "./largeReads";
import { MAX_PAGE_SIZE, type Pagination, pageRange, RENDERED_PAGES_PER_ANSWER } from "./pagination";
import { previousLookup } from "./previousRows";
import { aggregateRowsInTurns } from "./rowAggregation";
import { summaryChange, toStatsRow, toSummary } from "./rowMetrics";
import { checkSortKeys, type SortKey } from "./rowOrder";

export interface QueryDeps extends AnswerDeps {
  reader: RollupReader;
  /** The request's `now` and the retention in force. */
  planContext: () => PlanContext;
  /** Stored blocks one request may read (MAX_BLOCKS_PER_REQUEST). */
  maxBlocksPerRequest: number;
}

/**
 * With filters, the store may fetch only the combinations that pass them; a read larger than one
 * MULTI asks the computation's admission first (largeReads.ts).
 */
function readOptions(filters: readonly DimensionFilter[], admission: Admission): ReadOptions {
  const combos: ReadOptions =
    filters.length === 0 ? {} : { combosMatching: (values) => comboMatches(values, filters) };
  return { ...combos, ...admission };
}

/**
 * A plan and its blocks, read in one consistent state from the cheapest projection that can
 * answer `filters` grouped by `groupBy` (several dimensions together: the combinations). Counting
 * members (docs/contract.md §9) needs cells that name their member: as if grouped by member too.
 * Percentiles (§9) read the sketches beside whichever projection that is
 * (docs/decisions/0029-projection-sketches.md).
 */
function readPlanned<P>(
  org: string,
  question: {
    filters: readonly DimensionFilter[];
    groupBy: readonly Dimension[];
    activeMembers: boolean;
    percentiles: boolean;
  },
  context: PlanContext,
  deps: QueryDeps,
  admission: Admission,
  plan: ConsistentReadOptions<P>["plan"],
) {
  const { filters, groupBy, activeMembers, percentiles } = question;
  const members: Dimension[] = activeMembers ? ["member_email"] : [];
  const projection = projectionFor([...filters.map((f) => f.dimension), ...groupBy, ...members]);
  return readConsistently({
    reader: deps.reader,
    context: { ...context, maxBlocks: deps.maxBlocksPerRequest },
    org,
    projection,
    read: { ...readOptions(filters, admission), ...(percentiles && { sketches: true }) },
    plan,
  });
}

/** What every operation's request has: a range, filters, and whether the client refuses a kept answer. */
interface CommonRequest extends RangeParams {
  filters: RawFilters;
  /** docs/contract.md §7: `exclude[...]` lists (NOT IN), ANDed with the filters. */
  exclusions: RawFilters;
  /** `Cache-Control: no-cache`: compute the answer even if one is kept. */
  noCache?: boolean;
  /** docs/contract.md §7 `compare`: also answer for the previous range. */
  compare?: CompareKind | undefined;
  /** docs/contract.md §9 `include=active_members`: count each row's distinct members. */
  activeMembers?: boolean;
  /** docs/contract.md §9 `percentiles`: the percentiles asked (1-99, distinct, ascending); none: empty. */
  percentiles?: readonly number[] | undefined;
}

export interface StatsRequest extends CommonRequest {
  granularity: StatsGranularity;
  /** docs/contract.md §9: the day weeks start on; Monday (ISO) when absent. */
  weekStart?: WeekStart | undefined;
  /** docs/contract.md §9: the rows will say whether they are complete (the answer keeps its buckets' ends). */
  complete?: boolean;
  /** The dimensions to group by, in the order asked; empty when not grouped. */
  groupBy: readonly Dimension[];
  /** docs/contract.md §7 `sort`, `limit`, `other=true`, `fill=zero`. */
  sort: readonly SortKey[];
  limit?: number | undefined;
  other: boolean;
  fill: boolean;
  page: number;
  pageSize: number;
}

export interface StatsMeta {
  start_date: string;
  end_date: string;
  granularity: StatsGranularity;
  /** The `group_by` dimensions as asked, comma-separated; null when not grouped. */
  group_by: string | null;
  timezone: string;
  /** docs/contract.md §7 `compare`, only when asked: what the rows are compared with. */
  compare?: CompareKind;
  previous_start_date?: string;
  previous_end_date?: string;
}

/**
 * One page of `/stats`: its pagination and meta, and its rows, turned into objects only when
 * asked for (a page already rendered from a kept answer never is).
 */
export interface StatsResult {
  pagination: Pagination;
  meta: StatsMeta;
  /** With `completeness` (docs/contract.md §9), each row ends with `complete`. */
  data(completeness?: Completeness): StatsRow[];
  /** The answer the page comes from: the same object while it is kept (a key for rendered pages). */
  source: object;
  /** The state the answer is exact for and what its range was cut into (its entity tag's). */
  validator: AnswerValidator;
  /** Which of its buckets can no longer grow at an `X-Data-As-Of` instant (docs/contract.md §9). */
  completenessAt(asOfMs: number | undefined): Completeness;
}

/** The ends of an answer whose rows do not say whether they are complete: none kept. */
const NO_ENDS: BucketEnds = { buckets: [] };

/** The lists given, by dimension name: the same lists make the same key, whatever their order. */
function listsGiven(lists: RawFilters) {
  return Object.entries(lists)
    .filter(([, list]) => list !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
}

/**
 * The key of an answer: the range it answers as resolved (whole minutes, on the grid retention
 * keeps), so a range that ends "now" is the same question until the minute turns, and a poller of
 * the default range gets kept answers too; the operation and its parameters as given; and which
 * blocks retention keeps (the plan falls back to coarser grids as blocks age out). Undefined when
 * the range is not valid: the computation then refuses the request in its usual order.
 */
function answerKey(operation: string, request: CommonRequest, parameters: unknown[], context: PlanContext) {
  let resolved: ResolvedRange;
  try {
    resolved = resolveRange(request, context);
  } catch {
    return undefined;
  }
  const filters = listsGiven(request.filters);
  const range = [resolved.startMs, resolved.endMs, resolved.zoneName];
  // Exclusions join the key only when given: any shape that tells questions apart will do, since
  // kept answers live in this process only.
  const exclusions = listsGiven(request.exclusions);
  const rest = exclusions.length > 0 ? [...parameters, exclusions] : parameters;
  return JSON.stringify([operation, range, filters, rest, keptState(context)]);
}

/**
 * Plans the buckets where the organization has data, reads every block atomically, then filters,
 * groups and sorts: every row of the query, before paging (so every page is one kept answer).
 */
async function statsRows(
  org: string,
  request: StatsRequest,
  context: PlanContext,
  deps: QueryDeps,
  admission: Admission,
) {
  const filters = parseFilters(request.filters, request.exclusions);
  const activeMembers = request.activeMembers ?? false;
  const percentiles = asksPercentiles(request);
  const { plan, snapshot, view } = await readPlanned(
    org,
    { filters, groupBy: request.groupBy, activeMembers, percentiles },
    context,
    deps,
    admission,
    (c) => {
      const current = planQuery(request, c);
      const blocks = current.buckets.flatMap((b) => b.blocks);
      const previous = request.compare && planPrevious(request, request.compare, c, current, blocks.length);
      const previousBlocks = previous ? previous.plan.buckets.flatMap((b) => b.blocks) : [];
      return {
        plan: { current, previous, firstPrevious: blocks.length },
        blocks: [...blocks, ...previousBlocks],
      };
    },
  );
  const { current, previous } = plan;
  if (percentiles) checkSketched(snapshot);
  // In turns: a large answer's summing must not hold every other request of this process.
  const aggregated = await aggregateRowsInTurns(current.buckets, snapshot, {
    filters,
    groupBy: request.groupBy,
    activeMembers,
    percentiles,
  });
  const before =
    previous &&
    (await aggregateRowsInTurns(previous.plan.buckets, snapshot, {
      filters,
      groupBy: request.groupBy,
      firstBlock: plan.firstPrevious,
      activeMembers,
    }));
  const shaped = shapeRows(aggregated, {
    sort: request.sort,
    limit: request.limit,
    other: request.other,
    fill: request.fill ? current.rangeBuckets : undefined,
    previous: previous && before && previousLookup(aggregated, before, previous.pairedLabel),
  });
  // Shaped, the rows need their members' count and the percentiles asked only (what a kept answer
  // holds), not their members and sketches.
  const rows = shaped.withMembersCompacted().withPercentilesOf(percentiles ? request.percentiles : undefined);
  const value = {
    rows,
    validator: {
      state: answerState(view, snapshot.stamp),
      frame: framesOf(current.frame, previous?.plan.frame),
    },
    ends: (request.complete ? { buckets: current.rangeBuckets } : NO_ENDS) as BucketEnds,
    meta: {
      start_date: current.meta.start_date,
      end_date: current.meta.end_date,
      granularity: current.meta.granularity,
      group_by: request.groupBy.length > 0 ? request.groupBy.join(",") : null,
      timezone: current.meta.timezone,
      ...(previous && {
        compare: request.compare,
        previous_start_date: previous.plan.meta.start_date,
        previous_end_date: previous.plan.meta.end_date,
      }),
    },
  };
  // Weighed with the pages rendered from it (http/renderedPages.ts), at most a page size of rows
  // each, and the buckets' ends it keeps for complete, a row's worth each at most.
  const rendered = RENDERED_PAGES_PER_ANSWER * Math.min(rows.length, MAX_PAGE_SIZE);
  const ends = value.ends.buckets.length;
  return { value, view, stamp: snapshot.stamp, rows: rows.length + rendered + ends };
}

/**
 * docs/contract.md §7 `compare` on /stats: the previous range planned like the range, within what
 * is left of the request's block budget, and each bucket's label paired with its counterpart's.
 */
function planPrevious(
  request: StatsRequest,
  kind: CompareKind,
  context: PlanContext,
  current: StatsPlan,
  spent: number,
) {
  const previous = previousRange(kind, resolveRange(request, context), context);
  const budget = { ...context, maxBlocks: (context.maxBlocks ?? Number.POSITIVE_INFINITY) - spent };
  const bucketing = { granularity: request.granularity, weekStart: request.weekStart };
  const plan = planStatsRange(previous.range, bucketing, budget);
  const paired = pairBuckets(current.rangeBuckets, plan.rangeBuckets, previous.range, previous.shift);
  const pairedLabel = new Map<string, string>();
  current.rangeBuckets.forEach((bucket, i) => {
    const counterpart = plan.rangeBuckets[paired[i] as number];
    if (counterpart) pairedLabel.set(bucket.label, counterpart.label);
  });
  return { plan, pairedLabel };
}

/** What one parameter of docs/contract.md §7 needs of another: refused before anything is read. */
export function checkShapeParameters(request: StatsRequest): void {
  checkSortKeys(request.sort, { groupBy: request.groupBy, activeMembers: request.activeMembers ?? false });
  if (request.other && request.limit === undefined)
    throw new InvalidParameterError("other", "other=true needs limit: the rest is what the limit cuts");
  if (request.other && request.groupBy.length === 0)
    throw new InvalidParameterError("other", "other=true needs group_by: its row stands for the groups cut");
}

/** The parameters an answer depends on beside the range and filters, with defaults applied. */
function statsParameters(request: StatsRequest): unknown[] {
  const sort = request.sort.map((key) => (key.descending ? "-" : "") + key.field);
  const shape = [sort, request.limit ?? null, request.other, request.fill];
  // compare, include, Sunday weeks and complete (the answer keeps its buckets' ends) join the key
  // only when given, as exclusions do (answerKey).
  const sundays = request.weekStart === "sunday" ? ["sunday"] : [];
  const complete = request.complete ? ["complete"] : [];
  return [
    request.granularity,
    request.groupBy.join(",") || null,
    ...shape,
    ...givenParameters(request),
    ...sundays,
    ...complete,
  ];
}

/** The parameters of both operations that join an answer's key only when given. */
function givenParameters(request: CommonRequest): unknown[] {
  const compared = request.compare ? [request.compare] : [];
  const included = request.activeMembers ? [ACTIVE_MEMBERS_FIELD] : [];
  const percentiles = asksPercentiles(request) ? [{ percentiles: request.percentiles }] : [];
  return [...compared, ...included, ...percentiles];
}

/**
 * docs/contract.md §9: percentiles only for an organization whose every recording was counted with
 * its sketch (the worker's `PERCENTILE_SKETCHES`, from its first recording); else a 400 naming the
 * parameter, never percentiles of some of its recordings.
 */
function checkSketched(snapshot: BlockSnapshot): void {
  if (snapshot.sketched) return;
  throw new InvalidParameterError(
    "percentiles",
    "this organization's recordings were not all counted with percentile sketches (the worker's PERCENTILE_SKETCHES, from its first recording; a rebuild counts them again)",
  );
}

/** docs/contract.md §9: whether the request names percentiles. */
function asksPercentiles(request: CommonRequest): boolean {
  return (request.percentiles?.length ?? 0) > 0;
}

/** One page of `/stats` from the query's rows, kept or computed. */
export async function queryStats(org: string, request: StatsRequest, deps: QueryDeps): Promise<StatsResult> {
  checkShapeParameters(request);
  const context = deps.planContext();
  const key = answerKey("stats", request, statsParameters(request), context);
  const answer = await answerOf(deps, org, key, request.noCache ?? false, (admission) =>
    statsRows(org, request, context, deps, admission),
  );
  const { from, to, pagination } = pageRange(answer.rows.length, request.page, request.pageSize);
  const dimensions = request.groupBy;
  const data = (completeness?: Completeness) =>
    answer.rows.rows(from, to).map((row) => {
      const group = dimensions.length > 0 ? { dimensions, values: row.group ?? [] } : undefined;
      const out = toStatsRow(row.label, row.sums, group, row);
      // Last, after the metrics, active_members and their previous values.
      if (completeness) out.complete = completeness.isComplete(row.label);
      return out;
    });
  return {
    data,
    pagination,
    meta: answer.meta,
    source: answer,
    validator: answer.validator,
    completenessAt: (asOfMs) => completenessAt(answer.ends, asOfMs),
  };
}

export type SummaryRequest = CommonRequest;

/** The whole range as one interval, summed over every matching combination. */
async function summaryTotal(
  org: string,
  request: SummaryRequest,
  context: PlanContext,
  deps: QueryDeps,
  admission: Admission,
) {
  const filters = parseFilters(request.filters, request.exclusions);
  const activeMembers = request.activeMembers ?? false;
  const percentiles = asksPercentiles(request);
  const question = { filters, groupBy: [], activeMembers, percentiles };
  const { plan, snapshot, view } = await readPlanned(org, question, context, deps, admission, (c) => {
    const range = resolveRange(request, c);
    const current = planTotalRange(range, c);
    // docs/contract.md §7 `compare`: the previous range in the same read, within the block budget.
    const budget = { ...c, maxBlocks: (c.maxBlocks ?? Number.POSITIVE_INFINITY) - current.blocks.length };
    const previous =
      request.compare && planTotalRange(previousRange(request.compare, range, c).range, budget);
    return {
      plan: { current, previous },
      blocks: previous ? [...current.blocks, ...previous.blocks] : current.blocks,
    };
  });
  if (percentiles) checkSketched(snapshot);
  const totalOf = async (p: TotalPlan, firstBlock: number) => {
    const rows = await aggregateRowsInTurns(
      [{ label: "", startMs: p.range.startMs, blocks: p.blocks }],
      snapshot,
      { filters, firstBlock, activeMembers, percentiles },
    );
    return {
      sums: rows.total(),
      activeMembers: rows.members?.distinct(),
      sketch: rows.sketches && mergeSketches(rows.sketches),
    };
  };
  const total = await totalOf(plan.current, 0);
  // docs/contract.md §9: percentiles are the range's only (never in `previous` or `change`).
  const asked = request.percentiles;
  const summary: Summary = toSummary(
    total.sums,
    total.activeMembers,
    asked && total.sketch && { asked, sketch: total.sketch },
  );
  if (plan.previous) {
    const before = await totalOf(plan.previous, plan.current.blocks.length);
    summary.previous = toSummary(before.sums, before.activeMembers);
    const members = activeMembers
      ? { current: total.activeMembers ?? 0, previous: before.activeMembers ?? 0 }
      : undefined;
    summary.change = summaryChange(total.sums, before.sums, members);
  }
  const validator = {
    state: answerState(view, snapshot.stamp),
    frame: framesOf(plan.current.frame, plan.previous?.frame),
  };
  return { value: { summary, meta: plan.current.meta, validator }, view, stamp: snapshot.stamp, rows: 1 };
}

export async function querySummary(
  org: string,
  request: SummaryRequest,
  deps: QueryDeps,
): Promise<{ summary: Summary; meta: RangeMeta; validator: AnswerValidator }> {
  const context = deps.planContext();
  const key = answerKey("summary", request, givenParameters(request), context);
  return answerOf(deps, org, key, request.noCache ?? false, (admission) =>
    summaryTotal(org, request, context, deps, admission),
  );
}
