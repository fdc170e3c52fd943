import {
  ACTIVE_MEMBERS_FIELD,
  PERCENTILE_TIMES,
  PREVIOUS_ACTIVE_MEMBERS_FIELD,
  PREVIOUS_METRIC_COLUMNS,
  percentileRowField,
  STATS_METRIC_COLUMNS,
  type StatsRow,
} from "@vu/api-responses";
import type { Dimension } from "@vu/events";
import { stringify } from "csv-stringify/sync";

/** Which columns beyond the seed's a file has, as the JSON rows have those fields. */
export interface CsvColumnsOptions {
  /** The `group_by` dimensions in the order asked; none when not grouped. */
  groupBy?: readonly Dimension[] | undefined;
  /** docs/contract.md §7 `compare`: the `previous_<metric>` columns. */
  compared?: boolean;
  /** docs/contract.md §9 `include=active_members`: the `active_members` column (and its previous). */
  activeMembers?: boolean;
  /** docs/contract.md §9 `percentiles`: the percentiles asked, ascending (two columns each). */
  percentiles?: readonly number[] | undefined;
  /** docs/contract.md §9: the `complete` column. */
  complete?: boolean;
}

/**
 * time_bucket, the `group_by` dimensions in the order asked (none when not grouped), the metrics,
 * then docs/contract.md §9's percentile columns (per percentile asked, voice then LLM), then
 * `active_members` when counted; with §7 `compare`, then the `previous_<metric>` columns in the
 * same order; with §9's `complete`, that column last. The order of a row's JSON fields.
 */
export function csvColumns({
  groupBy = [],
  compared = false,
  activeMembers = false,
  percentiles = [],
  complete = false,
}: CsvColumnsOptions = {}): string[] {
  const percentileColumns = percentiles.flatMap((q) =>
    PERCENTILE_TIMES.map((time) => percentileRowField(q, time)),
  );
  const metrics = [
    ...STATS_METRIC_COLUMNS,
    ...percentileColumns,
    ...(activeMembers ? [ACTIVE_MEMBERS_FIELD] : []),
  ];
  const previous = activeMembers
    ? [...PREVIOUS_METRIC_COLUMNS, PREVIOUS_ACTIVE_MEMBERS_FIELD]
    : PREVIOUS_METRIC_COLUMNS;
  return [
    "time_bucket",
    ...groupBy,
    ...metrics,
    ...(compared ? previous : []),
    ...(complete ? ["complete"] : []),
  ];
}

/**
 * RFC 4180 (CRLF, quotes doubled) with a header row, columns per docs/contract.md §5. A null group value
 * is an empty cell; text cells starting with = + - @ tab or CR get a leading `'` so spreadsheets
 * do not run them as formulas (csv-stringify's `escape_formulas`); `complete` reads `true` or
 * `false`, as in JSON.
 */
export function renderStatsCsv(rows: readonly StatsRow[], columns: CsvColumnsOptions = {}): string {
  return stringify(rows as StatsRow[], {
    header: true,
    columns: csvColumns(columns),
    record_delimiter: "windows",
    escape_formulas: true,
    // csv-stringify writes booleans as 1 and an empty cell.
    cast: { boolean: (value) => String(value) },
    // A bare LF or CR is a line break to most readers, even with CRLF records: quote it too.
    quoted_match: /[\r\n]/,
  });
}
