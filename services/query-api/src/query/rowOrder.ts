import { ACTIVE_MEMBERS_FIELD, STATS_METRIC_COLUMNS, type StatsMetricColumn } from "@vu/api-responses";
import type { Dimension } from "@vu/events";
import { type PercentileSketch, sumsFromSlots } from "@vu/store";
import { InvalidParameterError } from "../planner";
import { compareGroups, type GroupValues } from "./groupTable";
import { rowMetricValues } from "./rowMetrics";
import type { RowTable } from "./rowTable";

/**
 * One key of `sort` (docs/contract.md §7, JSON:API style): a metric or a group field, `-` for
 * descending; or docs/contract.md §9's `active_members`.
 */
export interface SortKey {
  field: StatsMetricColumn | Dimension | typeof ACTIVE_MEMBERS_FIELD;
  descending: boolean;
}

const isMetric = (field: string): field is StatsMetricColumn =>
  (STATS_METRIC_COLUMNS as readonly string[]).includes(field);

/** The fields a row has beside its metrics, which a key may only name when the row has them. */
export interface RowFields {
  groupBy: readonly Dimension[];
  /** docs/contract.md §9 `include=active_members`. */
  activeMembers: boolean;
}

/**
 * A field can only order rows that have it: `sort=app_name` needs `group_by` to name app_name,
 * `sort=active_members` needs `include=active_members`.
 */
export function checkSortKeys(sort: readonly SortKey[], { groupBy, activeMembers }: RowFields): void {
  if (!activeMembers && sort.some((key) => key.field === ACTIVE_MEMBERS_FIELD)) {
    throw new InvalidParameterError(
      "sort",
      `${ACTIVE_MEMBERS_FIELD} is not a field of these rows: include=${ACTIVE_MEMBERS_FIELD} first`,
    );
  }
  const foreign = sort.find(
    (key) =>
      !isMetric(key.field) && key.field !== ACTIVE_MEMBERS_FIELD && !groupBy.includes(key.field as Dimension),
  );
  if (foreign) {
    throw new InvalidParameterError(
      "sort",
      `${foreign.field} is not a field of these rows: group_by=${foreign.field} first, or sort by a metric`,
    );
  }
}

/** A row of a bucket being shaped: its group, and its sums at `at` in `sums`. */
export interface Candidate {
  group: number;
  sums: Float64Array;
  at: number;
  /** docs/contract.md §9 `include=active_members`: the row's members, when counted. */
  members?: ArrayLike<number> | undefined;
  /** docs/contract.md §9 `percentiles`: the row's percentile sketch, when asked. */
  sketch?: PercentileSketch | undefined;
}

/** A row's published metrics, computed once per row and only when a metric orders it. */
const metricsOf = (candidate: Candidate) => rowMetricValues(sumsFromSlots(candidate.sums, candidate.at));

/**
 * The rows of one bucket in `sort`'s order: each key in turn, a metric by the value the row shows
 * (rounded as published, so equal-looking rows tie), a group field in the default byte order with
 * null last; rows equal on every key keep the default order (docs/contract.md §2 "Rows").
 */
export function sortCandidates(
  candidates: Candidate[],
  table: RowTable,
  sort: readonly SortKey[],
): Candidate[] {
  const metrics = sort.some((key) => isMetric(key.field)) ? candidates.map(metricsOf) : [];
  const position = new Map(candidates.map((c, i) => [c, i]));
  const valueIndex = (field: string) => table.dimensions.indexOf(field as Dimension);
  const keys = sort.map((key) => ({ ...key, metric: isMetric(key.field), index: valueIndex(key.field) }));
  const groupValue = (c: Candidate, index: number) => (table.groupValues[c.group] as GroupValues)[index];
  const membersOf = (c: Candidate) => c.members?.length ?? 0;
  return [...candidates].sort((a, b) => {
    for (const key of keys) {
      let order: number;
      if (key.field === ACTIVE_MEMBERS_FIELD) {
        order = membersOf(a) - membersOf(b);
      } else if (key.metric) {
        const field = key.field as StatsMetricColumn;
        const x = (metrics[position.get(a) as number] as Record<StatsMetricColumn, number>)[field];
        const y = (metrics[position.get(b) as number] as Record<StatsMetricColumn, number>)[field];
        order = x - y;
      } else {
        order = compareGroups(groupValue(a, key.index), groupValue(b, key.index));
      }
      if (order !== 0) return key.descending ? -order : order;
    }
    return (table.ranks[a.group] as number) - (table.ranks[b.group] as number);
  });
}
