import { type LatencySummary, summarize } from "./latencyStats";

/** What one phase of the noisy neighbour (noisyNeighbour.ts) measured, and how rounds are pooled. */
export interface PhaseResult {
  small: LatencySummary;
  smallFailed: number;
  /** PING round trips from the bench: Redis' latency as a client sees it (the bench's own load included). */
  redisPing: LatencySummary;
  /**
   * Redis' own: the longest a command (a script, a MULTI) ran in Redis during the phase, from its
   * latency monitor (`LATENCY LATEST`, threshold 1 ms; 0 when none took that long). Absent in older results.
   */
  redisLongestCommandMs?: number;
  /**
   * Each event of the latency monitor in the phase and its longest, in ms (`command`, `fast-command`,
   * `expire-cycle`, …): which kind the longest was. Absent in older results.
   */
  redisLatencyEvents?: Record<string, number>;
  /**
   * The commands Redis' slow log caught over the slow-log threshold (noisyNeighbour.ts) in the phase, longest first (a
   * `MULTI`'s commands each on their own): a long O(1) command is time Redis waited for a core, a
   * long `HGETALL` or `HSCAN` is a read too large. Absent in older results.
   */
  redisSlowCommands?: SlowCommand[];
}

export interface SlowCommand {
  ms: number;
  /** The command's name and its first argument (a key), cut short. */
  command: string;
  /** Its arguments, the name included. */
  args: number;
}

/** Refused: 429/503 with Retry-After from the organization gate (ORG_QUERY_*), not errors. */
export type WithHeavyResult = PhaseResult & {
  heavy: LatencySummary;
  heavyRefused: number;
  heavyFailed: number;
};

/** One phase's raw measurements, pooled over the rounds by `pooled`. */
export interface PhaseSamples {
  small: number[];
  smallFailed: number;
  pings: number[];
  heavy: number[];
  heavyRefused: number;
  heavyFailed: number;
  events: Record<string, number>;
  slowCommands: SlowCommand[];
}

/** The phases' samples together; Redis' events and slow commands by their longest over the phases. */
export function pooled(phases: readonly PhaseSamples[]): PhaseResult {
  const events: Record<string, number> = {};
  for (const p of phases)
    for (const [event, max] of Object.entries(p.events)) events[event] = Math.max(events[event] ?? 0, max);
  return {
    small: summarize(phases.flatMap((p) => p.small)),
    smallFailed: phases.reduce((n, p) => n + p.smallFailed, 0),
    redisPing: summarize(phases.flatMap((p) => p.pings)),
    redisLongestCommandMs: Math.max(0, ...Object.values(events)),
    redisLatencyEvents: events,
    redisSlowCommands: phases
      .flatMap((p) => p.slowCommands)
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10),
  };
}

export function withHeavyOf(phases: readonly PhaseSamples[]): WithHeavyResult {
  return {
    ...pooled(phases),
    heavy: summarize(phases.flatMap((p) => p.heavy)),
    heavyRefused: phases.reduce((n, p) => n + p.heavyRefused, 0),
    heavyFailed: phases.reduce((n, p) => n + p.heavyFailed, 0),
  };
}
