import type { CpuWindow } from "./processCpu";
import { runLabel } from "./reportFormat";
import { type BenchResults, shapeOf } from "./results";

/** The rate the sizing table is written for: cores each component needs per this many events/s. */
export const SIZING_RATE = 100_000;

/** One measured ingest window, as the sizing table shows it. */
export interface SizingRow {
  run: string;
  workers: number;
  eventsPerSecond: number;
  /** Cores per SIZING_RATE events/s: the worker processes together, Redis, the Kafka broker (NaN when not measured). */
  worker: number;
  redis: number;
  broker: number;
}

/** Cores a process used ÷ events/s: CPU seconds per event (the name `worker` adds up every `worker…` process). */
export function cpuSecondsPerEvent(cpu: CpuWindow, eventsPerSecond: number, name: string): number {
  const cores = Object.entries(cpu.cores)
    .filter(([process]) => (name === "worker" ? process.startsWith("worker") : process === name))
    .map(([, c]) => c);
  if (cores.length === 0 || !(eventsPerSecond > 0)) return Number.NaN;
  return cores.reduce((a, b) => a + b, 0) / eventsPerSecond;
}

function row(run: string, workers: number, cpu: CpuWindow, eventsPerSecond: number): SizingRow {
  const per = (name: string) => cpuSecondsPerEvent(cpu, eventsPerSecond, name) * SIZING_RATE;
  return { run, workers, eventsPerSecond, worker: per("worker"), redis: per("redis"), broker: per("broker") };
}

/**
 * Every ingest window of the run's largest size per shape as cores per SIZING_RATE events/s: one
 * worker on each data set's backlog, the steady pass, two workers on the multi-tenant topic.
 */
export function sizingRows(results: BenchResults): SizingRow[] {
  const largest = new Map(results.sizes.map((s) => [shapeOf(s), s]));
  return [...largest.values()].flatMap((s) => {
    const w = s.ingest.worker;
    const rows = [row(`${runLabel(s)}, backlog`, 1, w.cpu, w.rate.eventsPerSecond)];
    if (s.steady)
      rows.push(row(`${runLabel(s)}, steady pass`, 1, s.steady.cpu, s.steady.rate.eventsPerSecond));
    if (s.twoWorkers)
      rows.push(row(`${runLabel(s)}, backlog`, 2, s.twoWorkers.cpu, s.twoWorkers.rate.eventsPerSecond));
    return rows;
  });
}
