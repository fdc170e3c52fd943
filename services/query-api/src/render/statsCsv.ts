import { PREVIOUS_METRIC_COLUMNS, STATS_METRIC_COLUMNS, type StatsRow } from "@vu/api-responses";
import type { Dimension } from "@vu/events";
import { stringify } from "csv-stringify/sync";

/**
 * time_bucket, the `group_by` dimensions in the order asked (none when not grouped), the metrics;
 * with docs/contract.md §7 `compare`, then the `previous_<metric>` columns in the metrics' order.
 */
export function csvColumns(groupBy: readonly Dimension[] = [], compared = false): string[] {
  return ["time_bucket", ...groupBy, ...STATS_METRIC_COLUMNS, ...(compared ? PREVIOUS_METRIC_COLUMNS : [])];
}

/**
 * RFC 4180 (CRLF, quotes doubled) with a header row, columns per docs/contract.md §5. A null group value
 * is an empty cell; text cells starting with = + - @ tab or CR get a leading `'` so spreadsheets
 * do not run them as formulas (csv-stringify's `escape_formulas`).
 */
export function renderStatsCsv(
  rows: readonly StatsRow[],
  groupBy: readonly Dimension[] = [],
  compared = false,
): string {
  return stringify(rows as StatsRow[], {
    header: true,
    columns: csvColumns(groupBy, compared),
    record_delimiter: "windows",
    escape_formulas: true,
    // A bare LF or CR is a line break to most readers, even with CRLF records: quote it too.
    quoted_match: /[\r\n]/,
  });
}
