import type { Shape } from "./benchDataset";
import { f, runLabel, sizeLabel } from "./reportFormat";
import {
  type BenchResults,
  clickhouseBytesPerEvent,
  redisBytesPerEvent,
  runsOf,
  sizePairs,
  tenantIngestRatio,
} from "./results";
import {
  MAX_REDIS_OVER_CLICKHOUSE,
  MAX_TENANT_BYTES_PER_EVENT,
  MIN_TENANT_INGEST_RATIO,
} from "./targetBounds";
import type { TargetCheck } from "./targetCheck";

const SHAPE_NAMES: Record<Shape, string> = { single: "single-org", many: "multi-tenant" };

function memoryCheck(results: BenchResults): TargetCheck {
  const kind = "tenantMemory";
  const target = `Redis ≤ ${MAX_TENANT_BYTES_PER_EVENT} bytes per event (used_memory Δ ÷ events)`;
  const largest = runsOf(results, "many").at(-1);
  if (largest === undefined)
    return { kind, area: "Multi-tenant memory", target, measured: "not run (`--shapes`)", met: null };
  const perEvent = redisBytesPerEvent(largest);
  const split = largest.memory.perEvent;
  return {
    kind,
    area: "Multi-tenant memory",
    target: `${target} (at ${runLabel(largest)})`,
    measured:
      `${f(perEvent, 1)} B` +
      (split
        ? ` (cells ${f(split.cells, 1)} B${largest.memory.cellSample ? ", sampled" : ""}, key overhead ${f(split.keyOverhead, 1)} B)`
        : ""),
    met: perEvent <= MAX_TENANT_BYTES_PER_EVENT,
  };
}

function ingestCheck(results: BenchResults): TargetCheck {
  const target = `worker ≥ ${MIN_TENANT_INGEST_RATIO} × the single-org rate of the same run`;
  const pair = sizePairs(results)
    .filter((p) => p.single && p.many)
    .at(-1);
  if (pair?.single === undefined || pair.many === undefined)
    return {
      kind: "tenantIngest",
      area: "Multi-tenant ingest",
      target,
      measured: "not run: needs both shapes at one size",
      met: null,
    };
  const ratio = tenantIngestRatio(pair);
  return {
    kind: "tenantIngest",
    area: "Multi-tenant ingest",
    target: `${target} (at ${sizeLabel(pair.size)})`,
    measured: `×${f(ratio, 2)} (${f(pair.many.ingest.worker.rate.eventsPerSecond)} vs ${f(pair.single.ingest.worker.rate.eventsPerSecond)} events/s)`,
    met: ratio >= MIN_TENANT_INGEST_RATIO,
  };
}

function storageCheck(results: BenchResults, shape: Shape): TargetCheck {
  const area = `Storage (${SHAPE_NAMES[shape]})`;
  const target = `Redis bytes per event ≤ ${MAX_REDIS_OVER_CLICKHOUSE} × ClickHouse's bytes on disk per event`;
  const largest = runsOf(results, shape).at(-1);
  const clickhouse = largest ? clickhouseBytesPerEvent(largest) : Number.NaN;
  if (largest === undefined || !Number.isFinite(clickhouse))
    return {
      kind: "storage",
      area,
      target,
      measured: largest
        ? "not measured: no ClickHouse bytes on disk in the results (`--skip-engines`, or older results)"
        : "not run (`--shapes`)",
      met: null,
    };
  const redis = redisBytesPerEvent(largest);
  const ratio = redis / clickhouse;
  return {
    kind: "storage",
    area,
    target: `${target} (at ${runLabel(largest)})`,
    measured: `×${f(ratio, 1)} (${f(redis, 1)} B vs ${f(clickhouse, 1)} B)`,
    met: ratio <= MAX_REDIS_OVER_CLICKHOUSE,
  };
}

/** The multi-tenant targets: the multi-tenant set's memory and ingest, and both sets' storage against ClickHouse. */
export function tenantChecks(results: BenchResults): TargetCheck[] {
  return [
    memoryCheck(results),
    ingestCheck(results),
    storageCheck(results, "single"),
    storageCheck(results, "many"),
  ];
}
