import type { RedisClient } from "@vu/store";
import type { HeavyOrganizationLoad } from "./heavyOrganization";
import { type PagingResult, pageKeptAlive } from "./keptAlivePages";
import { summarize } from "./latencyStats";
import { fmt, log } from "./log";
import {
  type PhaseResult,
  type PhaseSamples,
  pooled,
  type SlowCommand,
  type WithHeavyResult,
  withHeavyOf,
} from "./noisyPhases";
import { withRedisAhead } from "./redisPriority";

/**
 * The noisy neighbour: a small organization's plain question, asked by one client in a
 * closed loop, alone and then while a heavy organization (100,000 recordings, each its own member
 * and app: heavyOrganization.ts) asks its every-member-by-hour question over 30 days uncached at a
 * steady rate; meanwhile a PING every 10 ms on a connection of its own measures Redis' own latency
 * (what ingest and every other organization wait). The two phases alternate for several rounds,
 * and each phase's samples are pooled over them: a p99 from a few thousand requests rather than
 * one phase's, and a drift of the machine falls on both. Redis runs ahead of the other processes
 * meanwhile (redisPriority.ts). Then the heavy answer is paged through.
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
  /** How many times the two phases alternated (absent in older results: once). */
  rounds?: number;
  /** Each round's small p99, alone and beside, in ms (absent in older results). */
  roundP99s?: Array<{ alone: number; beside: number }>;
  /** Redis' nice value during the phases (absent in older results: not changed). */
  redisNice?: number;
  alone: PhaseResult;
  withHeavy: WithHeavyResult;
  /** The heavy answer paged through afterwards: its first page computed, the next ones kept. */
  paging: PagingResult;
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
  /** Each phase's length in one round. */
  durationS: number;
  rounds?: number;
  heavyRate?: number;
}

/** Redis' nice value during the phases: ahead of the API and the bench, as on a core of its own. */
const REDIS_NICE = -5;

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
  const rounds = options.rounds ?? 3;
  log(
    `  noisy neighbour: ${options.small.org} alone, then beside ${options.heavy.org}'s heavy questions ` +
      `(${heavyRate}/s), ${options.durationS} s each, ${rounds} rounds`,
  );
  const heavy = { path: heavyPath, rate: heavyRate };
  const { result: measured, redisNice } = await withRedisAhead(options.redis, REDIS_NICE, async () => {
    const alones: PhaseSamples[] = [];
    const besides: PhaseSamples[] = [];
    for (let round = 0; round < rounds; round++) {
      alones.push(await phase(options, smallPath, undefined));
      besides.push(await phase(options, smallPath, heavy));
    }
    return { alones, besides };
  });
  const alone = pooled(measured.alones);
  const withHeavy = withHeavyOf(measured.besides);
  const roundP99s = measured.alones.map((a, i) => ({
    alone: summarize(a.small).p99,
    beside: summarize(measured.besides[i]?.small ?? []).p99,
  }));
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
    rounds,
    roundP99s,
    ...(redisNice === undefined ? {} : { redisNice }),
    alone,
    withHeavy,
    paging,
  };
  log(
    `  small p50/p99 alone ${fmt(alone.small.p50, 1)}/${fmt(alone.small.p99, 1)} ms, beside the heavy ` +
      `${fmt(withHeavy.small.p50, 1)}/${fmt(withHeavy.small.p99, 1)} ms over ${rounds} rounds; Redis PING p99 ` +
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
): Promise<PhaseSamples> {
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
  return { small, smallFailed, pings, heavy: heavyTimes, heavyRefused, heavyFailed, events, slowCommands };
}
