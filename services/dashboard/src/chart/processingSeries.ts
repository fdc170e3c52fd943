import type { StatsRow } from "../api/types";
import { PERCENTILE_LABEL, PROCESSING_TIMES } from "../state/vocabulary";

/** A processing-time line: the row field it plots (milliseconds) and its values in seconds. */
export interface ProcessingLine {
  field: string;
  label: string;
  /** Which processing time (index into PROCESSING_TIMES): its average and percentile share a colour. */
  time: number;
  kind: "average" | "percentile";
  /** One per bucket of `x`; null where the bucket has no recording with that time. */
  values: (number | null)[];
}

export interface ProcessingData {
  /** Bucket starts, Unix time in seconds, ascending. */
  x: number[];
  lines: ProcessingLine[];
  stillCounting: boolean[];
}

/**
 * The processing-time lines from the view's ungrouped rows (one per bucket, `fill=zero`): each
 * time's average and, when `withPercentile`, its percentile beside it. An average of a bucket
 * without recordings (the API's zero row) or without a percentile (none had that time) is a gap,
 * not a zero.
 */
export function buildProcessingLines(rows: readonly StatsRow[], withPercentile: boolean): ProcessingData {
  const sorted = [...rows].sort((a, b) => Date.parse(a.time_bucket) - Date.parse(b.time_bucket));
  const x = sorted.map((row) => Date.parse(row.time_bucket) / 1000);
  const lines = PROCESSING_TIMES.flatMap((time, index): ProcessingLine[] => {
    const percentile = sorted.map((row) => row[time.percentile] ?? null);
    const average: ProcessingLine = {
      field: time.average,
      label: `Avg ${time.label}`,
      time: index,
      kind: "average",
      values: sorted.map((row, i) =>
        row.recording_count === 0 || (withPercentile && percentile[i] === null)
          ? null
          : row[time.average] / 1000,
      ),
    };
    if (!withPercentile) return [average];
    return [
      average,
      {
        field: time.percentile,
        label: `${PERCENTILE_LABEL} ${time.label}`,
        time: index,
        kind: "percentile",
        values: percentile.map((v) => (v === null ? null : v / 1000)),
      },
    ];
  });
  return { x, lines, stillCounting: sorted.map((row) => row.complete === false) };
}
