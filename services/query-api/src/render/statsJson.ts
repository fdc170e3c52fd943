import {
  ACTIVE_MEMBERS_FIELD,
  PREVIOUS_ACTIVE_MEMBERS_FIELD,
  STATS_METRIC_COLUMNS,
  type StatsMetricColumn,
  type StatsPage,
  type StatsRow,
} from "@vu/api-responses";
import type { Dimension } from "@vu/events";
import type { Sums } from "@vu/store";
import { rowMetricValues } from "../query/rowMetrics";
import type { AggregatedRow } from "../query/rowTable";

/** What a JSON page of `/stats` is written from: its rows as aggregated, and its other members as sent. */
export interface StatsJsonPage {
  rows: readonly AggregatedRow[];
  /** The `group_by` dimensions in the order asked; none when not grouped. */
  groupBy: readonly Dimension[];
  /** docs/contract.md §9: each row ends with `complete` when given. */
  isComplete?: ((label: string) => boolean) | undefined;
  pagination: StatsPage["pagination"];
  meta: StatsPage["meta"];
}

/** A member name as JSON writes it, with the colon: `"name":`. */
const keyText = (name: string) => `${JSON.stringify(name)}:`;

/** A number as JSON.stringify writes it (a non-finite one is null). */
const numberText = (value: number) => (Number.isFinite(value) ? String(value) : "null");

type MetricKeys = Record<StatsMetricColumn, string>;

/** `,"<prefix><metric>":` for each metric. */
function metricKeys(prefix: string): MetricKeys {
  return Object.fromEntries(STATS_METRIC_COLUMNS.map((m) => [m, `,${keyText(prefix + m)}`])) as MetricKeys;
}

/** `,"<metric>":<value>` for each metric of `sums`, in the order `toStatsRow` adds them. */
function metricsText(sums: Sums, keys: MetricKeys): string {
  const values = rowMetricValues(sums);
  let text = "";
  for (const metric in values) {
    text += keys[metric as StatsMetricColumn] + numberText(values[metric as StatsMetricColumn]);
  }
  return text;
}

const TIME_BUCKET_KEY = `{${keyText("time_bucket")}`;
const ACTIVE_MEMBERS_KEY = `,${keyText(ACTIVE_MEMBERS_FIELD)}`;
const PREVIOUS_ACTIVE_MEMBERS_KEY = `,${keyText(PREVIOUS_ACTIVE_MEMBERS_FIELD)}`;
const COMPLETE_KEY = `,${keyText("complete" satisfies keyof StatsRow)}`;
const METRIC_KEYS = metricKeys("");
const PREVIOUS_METRIC_KEYS = metricKeys("previous_");

/**
 * One row as `JSON.stringify` writes the row `toStatsRow` makes (rowMetrics.ts): `time_bucket`,
 * the group's fields in the order asked, the metrics, `active_members`, the `previous_` metrics
 * and `previous_active_members`, `complete` last; without the object.
 */
function rowText(row: AggregatedRow, groupKeys: readonly string[], page: StatsJsonPage): string {
  let text = TIME_BUCKET_KEY + JSON.stringify(row.label);
  for (let i = 0; i < groupKeys.length; i++) {
    const value = row.group?.[i] ?? null;
    text += (groupKeys[i] as string) + (value === null ? "null" : JSON.stringify(value));
  }
  text += metricsText(row.sums, METRIC_KEYS);
  if (row.activeMembers !== undefined) text += ACTIVE_MEMBERS_KEY + numberText(row.activeMembers);
  if (row.previous) {
    text += metricsText(row.previous, PREVIOUS_METRIC_KEYS);
    if (row.previousActiveMembers !== undefined)
      text += PREVIOUS_ACTIVE_MEMBERS_KEY + numberText(row.previousActiveMembers);
  }
  if (page.isComplete) text += COMPLETE_KEY + String(page.isComplete(row.label));
  return `${text}}`;
}

/**
 * A JSON page of `/stats` (the published `StatsPage`), byte for byte what `JSON.stringify` writes
 * for `{ data, pagination, meta }` with `data` made by `toStatsRow`, written straight from the
 * aggregated rows: no row object is built for the text alone. The member names of a page's rows
 * are known before its first row (its `group_by`, the metrics), so only values are written per row.
 */
export function renderStatsJson(page: StatsJsonPage): string {
  const groupKeys = page.groupBy.map((dimension) => `,${keyText(dimension)}`);
  const rows = page.rows.map((row) => rowText(row, groupKeys, page));
  return `{"data":[${rows.join(",")}],"pagination":${JSON.stringify(page.pagination)},"meta":${JSON.stringify(page.meta)}}`;
}
