import type { RedisClient } from "@vu/store";
import type { HeavyOrganizationLoad } from "./heavyOrganization";
import { type PagingResult, pageKeptAlive } from "./keptAlivePages";
import { type LatencySummary, summarize } from "./latencyStats";
import { fmt, log } from "./log";

/**
 * Issue #20's noisy neighbour: a small organization's plain question, asked by one client in a
 * closed loop, alone and then while a heavy organization (100,000 recordings, each its own member
 * and app: heavyOrganization.ts) asks its every-member-by-hour question over 30 days uncached at a
 * steady rate; meanwhile a PING every 10 ms on a connection of its own measures Redis' own latency
 * (what ingest and every other organization wait). Then the heavy answer is paged through.
 */
export interface NoisyNeighbourResult {
  smallOrganization: string;
  heavyOrganization: string;
  /** The heavy organization made for the section (absent in older results: the data set's largest). */
  heavyLoad?: HeavyOrganizationLoad;
  smallPath: string;
  heavyPath: string;
  /** Heavy questions started per second (open loop: they start whether or not the last ended). */
  heavyRate: number;
  alone: PhaseResult;
  /** Refused: 429/503 with Retry-After from the organization gate (ORG_QUERY_*), not errors. */
  withHeavy: PhaseResult & { heavy: LatencySummary; heavyRefused: number; heavyFailed: number };
  /** The heavy answer paged through afterwards: its first page computed, the next ones kept. */
  paging: PagingResult;
}

interface PhaseResult {
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
   * The commands Redis' slow log caught over `SLOW_COMMAND_US` in the phase, longest first (a
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

/** The slow log's threshold in the phases, in µs: half the 10 ms target. */
const SLOW_COMMAND_US = 5_000;

export interface NoisyNeighbourOptions {
  baseUrl: string;
  redis: RedisClient;
  small: { org: string; token: string };
  heavy: { org: string; token: string };
  /** The heavy organization, when the section made one. */
  heavyLoad?: HeavyOrganizationLoad;
  /** The data set's last instant: both questions end there. */
  toMs: number;
  durationS: number;
  heavyRate?: number;
}

const isoZ = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
const DAY_MS = 86_400_000;
/** Asked again every time: no kept answer, the whole read and sum each time. */
const UNCACHED = { "cache-control": "no-cache" };

export async function benchNoisyNeighbour(options: NoisyNeighbourOptions): Promise<NoisyNeighbourResult> {
  const { toMs } = options;
  const range = (days: number) => `start_date=${isoZ(toMs - days * DAY_MS)}&end_date=${isoZ(toMs)}`;
  const smallPath = `/api/v1/stats?${range(7)}&granularity=hour`;
  const heavyDays = options.heavyLoad?.days ?? 30;
  const heavyPath = `/api/v1/stats?${range(heavyDays)}&granularity=hour&group_by=member_email&page_size=1000`;
  const heavyRate = options.heavyRate ?? 4;
  log(
    `  noisy neighbour: ${options.small.org} alone, then beside ${options.heavy.org}'s heavy questions ` +
      `(${heavyRate}/s), ${options.durationS} s each`,
  );
  const alone = await phase(options, smallPath, undefined);
  const withHeavy = await phase(options, smallPath, { path: heavyPath, rate: heavyRate });
  const paging = await pageKeptAlive({
    baseUrl: options.baseUrl,
    path: heavyPath,
    token: options.heavy.token,
    uncached: UNCACHED,
  });
  const result = {
    smallOrganization: options.small.org,
    heavyOrganization: options.heavy.org,
    ...(options.heavyLoad ? { heavyLoad: options.heavyLoad } : {}),
    smallPath,
    heavyPath,
    heavyRate,
    alone,
    withHeavy: withHeavy as NoisyNeighbourResult["withHeavy"],
    paging,
  };
  log(
    `  small p50/p99 alone ${fmt(alone.small.p50, 1)}/${fmt(alone.small.p99, 1)} ms, beside the heavy ` +
      `${fmt(withHeavy.small.p50, 1)}/${fmt(withHeavy.small.p99, 1)} ms; Redis PING p99 ` +
      `${fmt(alone.redisPing.p99, 2)} → ${fmt(withHeavy.redisPing.p99, 2)} ms (max ${fmt(withHeavy.redisPing.max, 1)}); ` +
      `longest command in Redis ${fmt(alone.redisLongestCommandMs ?? 0)} → ${fmt(withHeavy.redisLongestCommandMs ?? 0)} ms; ` +
      `heavy answered ${fmt(withHeavy.heavy?.samples ?? 0)}, refused ${fmt(withHeavy.heavyRefused ?? 0)}, ` +
      `failed ${fmt(withHeavy.heavyFailed ?? 0)}`,
  );
  return result;
}

/** Each event of Redis' latency monitor since its reset and its longest, in ms (none over the threshold: empty). */
async function latencyEvents(redis: RedisClient): Promise<Record<string, number>> {
  const events = (await redis.call("LATENCY", "LATEST")) as Array<[string, number, number, number]>;
  return Object.fromEntries(events.map(([event, , , max]) => [event, Number(max)]));
}

/** The slow log's entries, longest first (at most the 10 longest). */
async function slowLog(redis: RedisClient): Promise<SlowCommand[]> {
  const entries = (await redis.call("SLOWLOG", "GET", "128")) as Array<[number, number, number, unknown[]]>;
  return entries
    .map(([, , micros, args]) => ({
      ms: Number(micros) / 1000,
      command: args
        .slice(0, 2)
        .map((arg) => String(arg).slice(0, 80))
        .join(" "),
      args: args.length,
    }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 10);
}

async function phase(
  options: NoisyNeighbourOptions,
  smallPath: string,
  heavy: { path: string; rate: number } | undefined,
): Promise<PhaseResult & Partial<NoisyNeighbourResult["withHeavy"]>> {
  const endAt = performance.now() + options.durationS * 1000;
  const running = () => performance.now() < endAt;
  const small: number[] = [];
  const pings: number[] = [];
  const heavyTimes: number[] = [];
  let smallFailed = 0;
  let heavyRefused = 0;
  let heavyFailed = 0;
  const ask = async (path: string, token: string) => {
    const started = performance.now();
    const res = await fetch(`${options.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${token}`, ...UNCACHED },
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  };
  const smallLoop = async () => {
    while (running()) {
      const { status, ms } = await ask(smallPath, options.small.token);
      if (status === 200) small.push(ms);
      else smallFailed++;
    }
  };
  const pingLoop = async () => {
    while (running()) {
      const started = performance.now();
      await options.redis.ping();
      pings.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const heavyLoop = async () => {
    if (heavy === undefined) return;
    const inFlight: Array<Promise<void>> = [];
    while (running()) {
      inFlight.push(
        ask(heavy.path, options.heavy.token).then(({ status, ms }) => {
          if (status === 200) heavyTimes.push(ms);
          else if (status === 429 || status === 503) heavyRefused++;
          else heavyFailed++;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 1000 / heavy.rate));
    }
    await Promise.all(inFlight);
  };
  await options.redis.call("CONFIG", "SET", "latency-monitor-threshold", "1");
  await options.redis.call("LATENCY", "RESET");
  const [, slowlogWas] = (await options.redis.call("CONFIG", "GET", "slowlog-log-slower-than")) as string[];
  await options.redis.call("CONFIG", "SET", "slowlog-log-slower-than", String(SLOW_COMMAND_US));
  await options.redis.call("SLOWLOG", "RESET");
  await Promise.all([smallLoop(), pingLoop(), heavyLoop()]);
  const events = await latencyEvents(options.redis);
  const slowCommands = await slowLog(options.redis);
  await options.redis.call("CONFIG", "SET", "slowlog-log-slower-than", slowlogWas ?? "10000");
  const base = {
    small: summarize(small),
    smallFailed,
    redisPing: summarize(pings),
    redisLongestCommandMs: Math.max(0, ...Object.values(events)),
    redisLatencyEvents: events,
    redisSlowCommands: slowCommands,
  };
  return heavy === undefined ? base : { ...base, heavy: summarize(heavyTimes), heavyRefused, heavyFailed };
}
