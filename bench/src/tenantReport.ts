import { f, recordings, runLabel, sizeLabel, table } from "./reportFormat";
import {
  type BenchResults,
  clickhouseBytesPerEvent,
  redisBytesPerEvent,
  runsOf,
  sizePairs,
  tenantIngestRatio,
} from "./results";

const rate = (eventsPerSecond: number | undefined) =>
  eventsPerSecond === undefined ? "–" : `${f(eventsPerSecond)} events/s`;
const bytes = (n: number) => (Number.isFinite(n) ? `${f(n, 1)} B` : "–");

/** The multi-tenant runs' organizations: how many, and the sizes of the ones the queries were asked for. */
function organizationsTable(r: BenchResults): string {
  const runs = runsOf(r, "many");
  if (runs.length === 0) return "";
  return table(
    ["Data set", "Organizations", "Largest", "Median", "Smallest"],
    runs.map((s) => {
      const of = (role: string) => {
        const o = s.queried?.find((q) => q.role === role);
        return o ? `\`${o.organizationId}\`, ${recordings(o.recordings)}` : "–";
      };
      return [runLabel(s), f(s.organizations ?? Number.NaN), of("largest"), of("median"), of("smallest")];
    }),
  );
}

/** Worker events/s of both shapes per size, and their ratio. */
function ingestTable(r: BenchResults): string {
  return table(
    [
      "Size",
      "Ingest worker, single-org",
      "Ingest worker, multi-tenant",
      "multi-tenant ÷ single-org",
      "Bare consumer, single-org / multi-tenant",
    ],
    sizePairs(r).map((pair) => [
      sizeLabel(pair.size),
      rate(pair.single?.ingest.worker.rate.eventsPerSecond),
      rate(pair.many?.ingest.worker.rate.eventsPerSecond),
      f(tenantIngestRatio(pair), 2),
      `${rate(pair.single?.ingest.bare.rate.eventsPerSecond)} / ${rate(pair.many?.ingest.bare.rate.eventsPerSecond)}`,
    ]),
  );
}

/** Redis bytes per event, split, beside ClickHouse's bytes on disk per event, per run. */
function bytesTable(r: BenchResults): string {
  return table(
    [
      "Data set",
      "Events",
      "Redis / event",
      "cells",
      "key overhead (of it dedupe)",
      "cells measured",
      "ClickHouse on disk / event",
      "Redis ÷ ClickHouse",
    ],
    r.sizes.map((s) => {
      const split = s.memory.perEvent;
      const sample = s.memory.cellSample;
      const redis = redisBytesPerEvent(s);
      const clickhouse = clickhouseBytesPerEvent(s);
      return [
        runLabel(s),
        f(s.totalEvents),
        bytes(redis),
        bytes(split?.cells ?? Number.NaN),
        split ? `${bytes(split.keyOverhead)} (${bytes(split.dedupe)})` : "–",
        split === undefined
          ? "–"
          : sample
            ? `**sampled**: ${f(sample.keys)} of ${f(sample.of)} rollup keys`
            : "exact: every rollup key",
        bytes(clickhouse),
        Number.isFinite(clickhouse) ? `×${f(redis / clickhouse, 1)}` : "–",
      ];
    }),
  );
}

/**
 * The report's multi-tenant section: the multi-tenant data set beside the single-org one of
 * the same sizes in the same run (ingest rate, storage per event against ClickHouse's).
 */
export function tenantSection(r: BenchResults): string {
  if (runsOf(r, "many").length === 0) return "No multi-tenant data set was run (`--shapes single`).";
  return `${organizationsTable(r)}

Ingest rate of the real worker (events applied to Redis per second, first batch to last, as above),
each shape from its own full topic:

${ingestTable(r)}

Storage per event. **Redis / event** is \`used_memory\` after the ingest minus before, ÷ events.
**cells** are the field and value bytes of every rollup hash (the sums themselves, as \`HGETALL\`
returns them); **key overhead** is the rest: key names, Redis' per-key and per-field structures,
the combination tables, dimension sets, extents, and the dedupe state (also shown alone: it expires
after the dedupe window). Where the cells are **sampled** (a store with more rollup keys than the
bench reads), every k-th key in SCAN order is read, and each tier's cells are its keys'
\`MEMORY USAGE\` × the sample's payload ÷ \`MEMORY USAGE\` (redisMemory.ts). **ClickHouse on disk / event** is the sum of
\`bytes_on_disk\` of the active parts of the raw events table in chDB (\`system.parts\`, after
\`OPTIMIZE … FINAL\`: one part, default LZ4 compression) ÷ its rows: the same raw events.

${bytesTable(r)}`;
}
