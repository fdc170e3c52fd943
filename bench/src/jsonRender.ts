/**
 * One /stats page rendered two ways, in process: the route's (row objects from `toStatsRow`, then
 * `JSON.stringify`) and fast-json-stringify compiled from the published page schema (over the
 * same objects; its fields come in the schema's order, so only pages whose group order is the
 * schema's are the same bytes). Prints µs per page and whether the bytes are the route's; a
 * comparison for bench/ANALYSIS.md (fast-json-stringify is not a dependency: pass its path).
 *
 *   npx tsx bench/src/jsonRender.ts [--rows 168] [--fjs /path/to/node_modules/fast-json-stringify]
 */
import { createRequire } from "node:module";
import { parseArgs } from "node:util";
import { createOpenApiDocument, toStatsRow } from "@vu/query-api";

const { values } = parseArgs({
  options: { rows: { type: "string", default: "168" }, fjs: { type: "string" } },
});
const n = Number(values.rows);
const rows = Array.from({ length: n }, (_, i) => ({
  label: new Date(Date.UTC(2026, 10, 15) + i * 3_600_000).toISOString(),
  startMs: 0,
  sums: {
    count: 100 + i,
    words: 150_000 + 37 * i,
    durationMs: 3_600_000 + 1234 * i,
    voiceMsSum: 250_000 + i,
    voiceMsCount: 100 + i,
    llmMsSum: 900_000 + 7 * i,
    llmMsCount: 98 + i,
  },
}));
const pagination = { page: 1, page_size: 1000, total_rows: n, total_pages: 1, count: n };
const meta = {
  start_date: "2026-11-15T12:00:00.000+01:00",
  end_date: "2026-11-22T12:00:00.000+01:00",
  granularity: "hour",
  group_by: null,
  timezone: "Europe/Berlin",
};
const objects = () => rows.map((r) => toStatsRow(r.label, r.sums));
const ways: Record<string, () => string> = {
  "objects + JSON.stringify": () => JSON.stringify({ data: objects(), pagination, meta }),
};
/** The OpenAPI document's StatsPage with every `$ref` to its components put in place. */
function pageSchema(): object {
  const doc = createOpenApiDocument() as { components: { schemas: Record<string, unknown> } };
  const inline = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(inline);
    if (node === null || typeof node !== "object") return node;
    const ref = (node as { $ref?: string }).$ref;
    if (ref !== undefined) return inline(doc.components.schemas[ref.split("/").at(-1) ?? ""]);
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v)]));
  };
  return inline(doc.components.schemas.StatsPage) as object;
}

if (values.fjs) {
  const fastJson = createRequire(import.meta.url)(values.fjs) as (schema: object) => (v: unknown) => string;
  const stringify = fastJson(pageSchema());
  ways["objects + fast-json-stringify"] = () => stringify({ data: objects(), pagination, meta });
}
const reference = ways["objects + JSON.stringify"]?.() ?? "";
for (const [name, render] of Object.entries(ways)) {
  const same = render() === reference;
  for (let i = 0; i < 2000; i++) render();
  const t0 = performance.now();
  const times = 5000;
  for (let i = 0; i < times; i++) render();
  const us = ((performance.now() - t0) * 1000) / times;
  console.log(
    `${name.padEnd(32)} ${us.toFixed(1).padStart(7)} µs per page of ${n} rows  same bytes: ${same}`,
  );
}
