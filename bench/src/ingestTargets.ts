import { cpuSecondsPerEvent, SIZING_RATE } from "./ingestSizing";
import { f, runLabel, sizeLabel } from "./reportFormat";
import { type BenchResults, runsOf, type SizeResult, sizePairs } from "./results";
import {
  FRESHNESS_LOAD_SHARE,
  FRESHNESS_SUSTAIN_S,
  MAX_FRESHNESS_P99_MS,
  MAX_NEW_ORG_BYTES,
  MAX_REDIS_US_PER_EVENT,
  MAX_STEADY_BYTES_PER_EVENT,
  MAX_WORKER_US_PER_EVENT,
  MIN_INGEST_RATE,
  MIN_INGEST_RATIO,
  MIN_STEADY_INGEST_RATIO,
} from "./targetBounds";
import type { TargetCheck, TargetKind } from "./targetCheck";

const notRun = (kind: TargetKind, area: string, target: string, why: string): TargetCheck => ({
  kind,
  area,
  target,
  measured: `not run: ${why}`,
  met: null,
});

const NO_SINGLE = "no single-org data set (`--shapes`)";
const NO_MANY = "no multi-tenant data set (`--shapes`), or results from before it was measured";

/** One worker on the dense single organization's backlog: its rate, its ratio to kafkajs alone, the CPU per event. */
function singleIngestChecks(largest: SizeResult | undefined): TargetCheck[] {
  const area = "Ingest (one worker, single-org)";
  const targets = {
    ingestRate: `≥ ${MIN_INGEST_RATE} events/s`,
    ingest: `≥ ${MIN_INGEST_RATIO} × bare kafkajs consumer`,
    ingestRedisCpu: `Redis CPU ≤ ${MAX_REDIS_US_PER_EVENT} µs per event`,
    ingestWorkerCpu: `worker CPU ≤ ${MAX_WORKER_US_PER_EVENT} µs per event`,
  } as const;
  if (largest === undefined)
    return Object.entries(targets).map(([kind, target]) =>
      notRun(kind as TargetKind, area, target, NO_SINGLE),
    );
  const at = ` (at ${runLabel(largest)})`;
  const { bare, worker, ratio } = largest.ingest;
  const rate = worker.rate.eventsPerSecond;
  const us = (name: string) => cpuSecondsPerEvent(worker.cpu, rate, name) * 1e6;
  const redisUs = us("redis");
  const workerUs = us("worker");
  return [
    {
      kind: "ingestRate",
      area,
      target: targets.ingestRate + at,
      measured: `${f(rate)} events/s`,
      met: rate >= MIN_INGEST_RATE,
    },
    // A bare consumer that took the whole topic in one batch has no window to time (a rate of 0,
    // a ratio results.json keeps as null): no verdict.
    bare.rate.eventsPerSecond > 0
      ? {
          kind: "ingest",
          area,
          target: targets.ingest + at,
          measured: `${f(ratio, 2)} (${f(rate)} vs ${f(bare.rate.eventsPerSecond)} events/s)`,
          met: ratio >= MIN_INGEST_RATIO,
        }
      : {
          kind: "ingest",
          area,
          target: targets.ingest + at,
          measured: "not measured: the bare consumer read the topic in one batch, which times nothing",
          met: null,
        },
    {
      kind: "ingestRedisCpu",
      area,
      target: targets.ingestRedisCpu + at,
      measured: `${f(redisUs, 2)} µs (${f(worker.cpu.cores.redis ?? Number.NaN, 2)} cores)`,
      met: Number.isFinite(redisUs) ? redisUs <= MAX_REDIS_US_PER_EVENT : null,
    },
    {
      kind: "ingestWorkerCpu",
      area,
      target: targets.ingestWorkerCpu + at,
      measured: `${f(workerUs, 2)} µs (${f(worker.cpu.cores.worker ?? Number.NaN, 2)} cores)`,
      met: Number.isFinite(workerUs) ? workerUs <= MAX_WORKER_US_PER_EVENT : null,
    },
  ];
}

/**
 * Produce-to-visible while recordings arrive at a share of the worker's measured rate, sustained:
 * a probe shorter than the target's duration is shown with no verdict, one whose producer fell
 * short of the load is missed.
 */
export function freshnessCheck(largest: SizeResult | undefined): TargetCheck {
  const area = "Freshness";
  const target = `produce-to-visible p99 < ${MAX_FRESHNESS_P99_MS / 1000} s at ${f(FRESHNESS_LOAD_SHARE * 100)} % of the worker's measured rate, sustained ${FRESHNESS_SUSTAIN_S} s`;
  if (largest === undefined) return notRun("freshness", area, target, NO_SINGLE);
  const fresh = largest.freshness;
  const workerRate = fresh.workerRate ?? largest.ingest.worker.rate.eventsPerSecond;
  const share = fresh.achievedRate / workerRate;
  const durationS = fresh.durationS ?? fresh.events / fresh.achievedRate;
  const p99 = fresh.latency.p99;
  const measured =
    `p99 ${f(p99)} ms (p50 ${f(fresh.latency.p50)} ms) at ${f(fresh.achievedRate)} events/s, ` +
    `${f(share * 100)} % of the worker's ${f(workerRate)}, for ${f(durationS)} s`;
  const sustained = durationS >= FRESHNESS_SUSTAIN_S;
  return {
    kind: "freshness",
    area,
    target: `${target} (at ${runLabel(largest)})`,
    measured: sustained
      ? measured
      : `${measured}: shorter than the target's duration (\`--fresh-duration\`), no verdict`,
    met: sustained ? p99 < MAX_FRESHNESS_P99_MS && share >= FRESHNESS_LOAD_SHARE : null,
  };
}

/** The largest size that ran both shapes and the steady pass: the steady rate against the single-org rate. */
function steadyIngestCheck(results: BenchResults): TargetCheck {
  const area = "Multi-tenant steady state";
  const target = `worker ≥ ${MIN_STEADY_INGEST_RATIO} × the single-org rate of the same run, every organization existing and getting one more recording per pass`;
  const pair = sizePairs(results)
    .filter((p) => p.single && p.many?.steady)
    .at(-1);
  const steady = pair?.many?.steady;
  if (pair?.single === undefined || steady === undefined)
    return notRun("steadyIngest", area, target, `needs both shapes at one size; ${NO_MANY}`);
  const single = pair.single.ingest.worker.rate.eventsPerSecond;
  const ratio = steady.rate.eventsPerSecond / single;
  return {
    kind: "steadyIngest",
    area,
    target: `${target} (at ${sizeLabel(pair.size)})`,
    measured: `×${f(ratio, 2)} (${f(steady.rate.eventsPerSecond)} vs ${f(single)} events/s; ${f(steady.passes)} pass(es) over ${f(steady.organizations)} organizations, ${f(steady.events)} events)`,
    met: ratio >= MIN_STEADY_INGEST_RATIO,
  };
}

function steadyMemoryCheck(largest: SizeResult | undefined): TargetCheck {
  const area = "Multi-tenant steady state";
  const target = `Redis ≤ ${MAX_STEADY_BYTES_PER_EVENT} bytes per further event (used_memory Δ ÷ events)`;
  const steady = largest?.steady;
  if (largest === undefined || steady === undefined) return notRun("steadyMemory", area, target, NO_MANY);
  return {
    kind: "steadyMemory",
    area,
    target: `${target} (at ${runLabel(largest)})`,
    measured: `${f(steady.bytesPerEvent, 1)} B (+${f(steady.usedMemoryDelta / 2 ** 20, 1)} MiB for ${f(steady.events)} events)`,
    met: steady.bytesPerEvent <= MAX_STEADY_BYTES_PER_EVENT,
  };
}

function newOrgCheck(largest: SizeResult | undefined): TargetCheck {
  const area = "Multi-tenant new organization";
  const target = `a new organization's first recording: Redis ≤ ${MAX_NEW_ORG_BYTES} bytes (used_memory Δ ÷ organizations)`;
  const probe = largest?.newOrganizations;
  if (largest === undefined || probe === undefined) return notRun("newOrgMemory", area, target, NO_MANY);
  return {
    kind: "newOrgMemory",
    area,
    target: `${target} (at ${runLabel(largest)})`,
    measured: `${f(probe.bytesPerOrganization)} B (${f(probe.organizations)} new organizations, one recording each)`,
    met: probe.bytesPerOrganization <= MAX_NEW_ORG_BYTES,
  };
}

/**
 * Two workers on one topic: no bound, the target is the measurement and what it says an operator
 * needs; met when both processes took a share of the topic (one idle process measures nothing).
 */
function twoWorkersCheck(largest: SizeResult | undefined): TargetCheck {
  const area = "Two workers on one topic";
  const target = `two worker processes in one group, measured with each component's cores per ${f(SIZING_RATE)} events/s (Sizing section)`;
  const two = largest?.twoWorkers;
  if (largest === undefined || two === undefined) return notRun("twoWorkers", area, target, NO_MANY);
  const rate = two.rate.eventsPerSecond;
  const per = (name: string) => f(cpuSecondsPerEvent(two.cpu, rate, name) * SIZING_RATE, 2);
  const one = largest.ingest.worker.rate.eventsPerSecond;
  return {
    kind: "twoWorkers",
    area,
    target: `${target} (at ${runLabel(largest)})`,
    measured:
      `${f(rate)} events/s together (${two.perWorker.map((w) => `${w.name} ${f(w.eventsPerSecond)}`).join(", ")}; one worker ${f(one)}, ×${f(rate / one, 2)}); ` +
      `cores per ${f(SIZING_RATE)} events/s: workers ${per("worker")}, Redis ${per("redis")}, broker ${per("broker")}; machine ${f(two.cpu.machineCores, 2)} cores busy`,
    met: two.perWorker.every((w) => w.applied > 0),
  };
}

/**
 * The ingest targets: one worker on the largest single-org backlog (rate, ratio to the bare
 * consumer, CPU per event), freshness under load, the multi-tenant steady state and a new
 * organization's first recording, and two workers on the largest multi-tenant topic. (The
 * multi-tenant backlog's rate against the single-org one is tenantTargets.ts'.)
 */
export function ingestChecks(results: BenchResults): TargetCheck[] {
  const single = runsOf(results, "single").at(-1);
  const many = runsOf(results, "many").at(-1);
  return [
    ...singleIngestChecks(single),
    freshnessCheck(single),
    steadyIngestCheck(results),
    steadyMemoryCheck(many),
    newOrgCheck(many),
    twoWorkersCheck(many),
  ];
}
