import { STATS_METRIC_COLUMNS } from "@vu/api-responses";
import { parse } from "csv-parse/sync";
import type {
  Approximate,
  ExpectedDimensions,
  ExpectedRow,
  ExpectedStats,
  ExpectedSummary,
  Rounded,
  RowFields,
} from "../oracle";
import type { HttpReply } from "./httpClient";

/**
 * Metrics compare exactly; at an exact half the message names the rounding direction expected.
 * A percentile (docs/contract.md §9) is within its bound of the exact value, or null as expected.
 */
function sameNumber(actual: unknown, expected: Rounded | Approximate): boolean {
  if (expected.value === null) return actual === null;
  if ("within" in expected && expected.within !== undefined)
    return (
      typeof actual === "number" && Math.abs(actual - expected.value) <= expected.within * expected.value
    );
  return actual === expected.value;
}

const expectation = (v: Rounded | Approximate) =>
  v.value === null
    ? "null"
    : "within" in v && v.within !== undefined
      ? `${v.value} within ${v.within * 100} %`
      : "tie" in v && v.tie !== undefined
        ? `${v.value} (an exact half, rounded up)`
        : `${v.value}`;

const show = (v: unknown) => JSON.stringify(v);
const keysOf = (v: unknown) => (typeof v === "object" && v !== null ? Object.keys(v).sort() : []);
const sameKeys = (v: unknown, keys: readonly string[]) => show(keysOf(v)) === show([...keys].sort());

/**
 * docs/contract.md §9 `complete`, as the reply's `X-Data-As-Of` makes it: true when the row's
 * bucket ends at or before that instant, false after it or when the reply has no such header.
 */
function completeOf(reply: HttpReply, row: ExpectedRow): boolean {
  const asOf = reply.headers.get("x-data-as-of");
  return asOf !== null && row.endMs !== undefined && row.endMs <= Date.parse(asOf);
}

/** The first difference between a JSON statistics page and the oracle's, or null. */
export function diffStatsJson(reply: HttpReply, expected: ExpectedStats): string | null {
  if (!reply.headers.get("content-type")?.startsWith("application/json")) return "content type is not JSON";
  const body = JSON.parse(reply.text) as Record<string, unknown>;
  if (!sameKeys(body, ["data", "pagination", "meta"])) return `top-level members ${show(keysOf(body))}`;
  if (show(body.pagination) !== show(expected.pagination)) {
    if (!sameKeys(body.pagination, Object.keys(expected.pagination)))
      return `pagination ${show(body.pagination)}`;
    for (const [k, v] of Object.entries(expected.pagination)) {
      if ((body.pagination as Record<string, unknown>)[k] !== v)
        return `pagination ${show(body.pagination)}, expected ${show(expected.pagination)}`;
    }
  }
  const meta = body.meta as Record<string, unknown>;
  if (!sameKeys(meta, Object.keys(expected.meta))) return `meta members ${show(keysOf(meta))}`;
  for (const [k, v] of Object.entries(expected.meta)) {
    if (meta[k] !== v) return `meta.${k} ${show(meta[k])}, expected ${show(v)}`;
  }
  const data = body.data as unknown[];
  if (!Array.isArray(data) || data.length !== expected.rows.length)
    return `${Array.isArray(data) ? data.length : "no"} rows, expected ${expected.rows.length}`;
  for (const [i, want] of expected.rows.entries()) {
    const row = data[i] as Record<string, unknown>;
    const previousKeys = want.previous ? Object.keys(want.previous).map((k) => `previous_${k}`) : [];
    const completeKey = expected.complete ? ["complete"] : [];
    const keys = [
      "time_bucket",
      ...expected.groupBy,
      ...Object.keys(want.metrics),
      ...previousKeys,
      ...completeKey,
    ];
    const where = `data[${i}] (${show(row)})`;
    // Members in order too: the group fields right after time_bucket, in the order asked.
    if (show(Object.keys(row ?? {})) !== show(keys))
      return `${where}: members ${show(Object.keys(row ?? {}))}`;
    if (row.time_bucket !== want.time_bucket) return `${where}: time_bucket, expected ${want.time_bucket}`;
    for (const [g, dimension] of expected.groupBy.entries()) {
      if (row[dimension] !== want.group?.[g])
        return `${where}: ${dimension}, expected ${show(want.group?.[g])}`;
    }
    for (const [k, v] of Object.entries(want.metrics)) {
      if (!sameNumber(row[k], v)) return `${where}: ${k}, expected ${expectation(v)}`;
    }
    for (const [k, v] of Object.entries(want.previous ?? {})) {
      if (!sameNumber(row[`previous_${k}`], v)) return `${where}: previous_${k}, expected ${expectation(v)}`;
    }
    if (expected.complete && row.complete !== completeOf(reply, want))
      return `${where}: complete, expected ${completeOf(reply, want)} (bucket ends ${new Date(want.endMs ?? 0).toISOString()}, X-Data-As-Of ${reply.headers.get("x-data-as-of")})`;
  }
  return null;
}

/** docs/contract.md §5: text cells starting with = + - @ tab or CR get a leading `'`. */
const guarded = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/** The first difference between a CSV page (body and paging headers) and the oracle's, or null. */
export function diffStatsCsv(reply: HttpReply, expected: ExpectedStats): string | null {
  const h = (name: string) => reply.headers.get(name);
  if (h("content-type") !== "text/csv; charset=utf-8") return `content type ${h("content-type")}`;
  if (!/^attachment; filename="usage-stats_[^"/]+_[^"/]+\.csv"$/.test(h("content-disposition") ?? ""))
    return `content disposition ${h("content-disposition")}`;
  const p = expected.pagination;
  const paging: Array<[string, number]> = [
    ["x-total-rows", p.total_rows],
    ["x-total-pages", p.total_pages],
    ["x-page", p.page],
    ["x-page-size", p.page_size],
  ];
  for (const [name, value] of paging)
    if (h(name) !== String(value)) return `${name} ${h(name)}, expected ${value}`;
  const link = h("link");
  const wantsNext = p.page < p.total_pages;
  if (wantsNext !== (link !== null)) return `Link ${show(link)} with page ${p.page} of ${p.total_pages}`;
  if (link !== null && !(link.includes(`page=${p.page + 1}&`) || link.includes(`page=${p.page + 1}>`)))
    return `Link ${link} does not name page ${p.page + 1}`;

  const records = parse(reply.text, { bom: false }) as string[][];
  const compared = expected.meta.compare !== undefined;
  // docs/contract.md §9: percentiles (never compared), then active_members after the metrics, and
  // after the previous ones; complete last.
  const percentileColumns = expected.percentiles.flatMap((q) => [
    `p${q}_voice_processing_time`,
    `p${q}_llm_processing_time`,
  ]);
  const counted = expected.activeMembers ? ["active_members"] : [];
  const metricColumns = [...STATS_METRIC_COLUMNS, ...percentileColumns, ...counted];
  const previousColumns = compared ? [...STATS_METRIC_COLUMNS, ...counted].map((c) => `previous_${c}`) : [];
  const completeColumn = expected.complete ? ["complete"] : [];
  const columns = [
    "time_bucket",
    ...expected.groupBy,
    ...metricColumns,
    ...previousColumns,
    ...completeColumn,
  ];
  if (show(records[0]) !== show(columns)) return `header ${show(records[0])}`;
  if (records.length - 1 !== expected.rows.length)
    return `${records.length - 1} rows, expected ${expected.rows.length}`;
  for (const [i, want] of expected.rows.entries()) {
    const cells = records[i + 1] ?? [];
    const where = `row ${i + 1} (${show(cells)})`;
    const text = [want.time_bucket, ...expected.groupBy.map((_, g) => want.group?.[g] ?? null)].map((v) =>
      v === null ? "" : guarded(v),
    );
    for (const [c, v] of text.entries())
      if (cells[c] !== v) return `${where}: cell ${c}, expected ${show(v)}`;
    if (cells.length !== columns.length) return `${where}: ${cells.length} cells`;
    for (const [c, column] of columns.entries()) {
      if (c < text.length) continue;
      if (column === "complete") {
        if (cells[c] !== String(completeOf(reply, want)))
          return `${where}: complete, expected ${completeOf(reply, want)}`;
        continue;
      }
      const metric = column.startsWith("previous_")
        ? want.previous?.[column.slice("previous_".length) as keyof RowFields]
        : want.metrics[column as keyof RowFields];
      if (metric === undefined) return `${where}: ${column} not expected`;
      const cell = cells[c] ?? "";
      // A null (a percentile of no time) is an empty cell.
      const value = cell === "" ? null : Number(cell);
      if ((cell === "" && metric.value !== null) || !sameNumber(value, metric))
        return `${where}: ${column}, expected ${expectation(metric)}`;
    }
  }
  return null;
}

export function diffSummary(reply: HttpReply, expected: ExpectedSummary): string | null {
  const body = JSON.parse(reply.text) as Record<string, unknown>;
  const compared = expected.previous ? ["previous", "change"] : [];
  // Members in order: the seed's fields, then previous and change.
  if (show(Object.keys(body)) !== show([...Object.keys(expected.metrics), ...compared]))
    return `members ${show(Object.keys(body))}`;
  for (const [k, v] of Object.entries(expected.metrics)) {
    if (!sameNumber(body[k], v)) return `${k} ${show(body[k])}, expected ${expectation(v)}`;
  }
  if (expected.previous) {
    const previous = body.previous as Record<string, unknown>;
    if (!sameKeys(previous, Object.keys(expected.previous)))
      return `previous members ${show(keysOf(previous))}`;
    for (const [k, v] of Object.entries(expected.previous)) {
      if (!sameNumber(previous[k], v))
        return `previous.${k} ${show(previous[k])}, expected ${expectation(v)}`;
    }
  }
  if (expected.change) {
    const change = body.change as Record<string, unknown>;
    if (!sameKeys(change, Object.keys(expected.change))) return `change members ${show(keysOf(change))}`;
    for (const [k, v] of Object.entries(expected.change)) {
      const same = v === null ? change[k] === null : sameNumber(change[k], v);
      if (!same) return `change.${k} ${show(change[k])}, expected ${v === null ? "null" : expectation(v)}`;
    }
  }
  return null;
}

export function diffDimensions(reply: HttpReply, expected: ExpectedDimensions): string | null {
  const body = JSON.parse(reply.text) as unknown;
  if (show(body) !== show(expected)) return `dimensions ${show(body)}, expected ${show(expected)}`;
  return null;
}

/** A 400 must be problem+json naming the parameter the oracle blames. */
export function diffBadRequest(reply: HttpReply, parameter: string): string | null {
  if (reply.status !== 400) return `status ${reply.status}, expected 400 for ${parameter}`;
  if (!reply.headers.get("content-type")?.startsWith("application/problem+json"))
    return "400 is not problem+json";
  const body = JSON.parse(reply.text) as { errors?: Array<{ parameter?: string }> };
  const named = (body.errors ?? []).map((e) => e.parameter);
  return named.includes(parameter) ? null : `400 names ${show(named)}, expected ${parameter}`;
}
