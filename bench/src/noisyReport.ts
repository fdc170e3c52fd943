import type { NoisyNeighbourResult } from "./noisyNeighbour";
import { f, runLabel, table } from "./reportFormat";
import { type BenchResults, runsOf, type SizeResult } from "./results";
import type { TargetCheck } from "./targetCheck";

/** Issue #20's bounds. */
const MAX_SMALL_P99_RATIO = 2;
const MAX_REDIS_COMMAND_MS = 10;
const MAX_LATER_PAGE_SHARE = 0.1;

const withNoise = (r: BenchResults) =>
  runsOf(r, "many").filter((s): s is SizeResult & { noisyNeighbour: NoisyNeighbourResult } =>
    Boolean(s.noisyNeighbour),
  );

const ms = (n: number) => `${f(n, n < 10 ? 2 : 1)} ms`;
const longest = (n: number | undefined) => (n === undefined ? "–" : n === 0 ? "< 1 ms" : `${f(n)} ms`);

/** The report's section: each multi-tenant run's small organization alone and beside the heavy one. */
export function noisySection(r: BenchResults): string {
  const runs = withNoise(r);
  if (runs.length === 0) return "Not measured: the multi-tenant data set was not run with queries.";
  const [first] = runs;
  return `The multi-tenant set's smallest organization asks \`${first?.noisyNeighbour.smallPath}\` (7 days by hour) in a
closed loop with \`Cache-Control: no-cache\` (every answer computed), first alone, then while its
largest organization asks \`${first?.noisyNeighbour.heavyPath}\` (every member by hour over 30 days, uncached) at
a steady rate, whether or not the previous one ended; a PING every 10 ms on a Redis connection of
its own measures the latency a client sees, and Redis' latency monitor (\`LATENCY LATEST\`,
threshold 1 ms) the longest any command ran in Redis (what ingest and every other organization
waited behind) meanwhile.

${table(
  [
    "Run",
    "Small p50 / p99 alone",
    "Small p50 / p99 beside",
    "p99 ratio",
    "Heavy: answered p50 / refused (429/503)",
    "Redis PING p99 / max alone",
    "Redis PING p99 / max beside",
    "Longest command in Redis alone / beside",
  ],
  runs.map((s) => {
    const n = s.noisyNeighbour;
    return [
      runLabel(s),
      `${ms(n.alone.small.p50)} / ${ms(n.alone.small.p99)}`,
      `${ms(n.withHeavy.small.p50)} / ${ms(n.withHeavy.small.p99)}`,
      `×${f(n.withHeavy.small.p99 / n.alone.small.p99, 2)}`,
      `${f(n.withHeavy.heavy.samples)} at ${ms(n.withHeavy.heavy.p50)} / ${f(n.withHeavy.heavyRefused)} (${n.heavyRate}/s asked)`,
      `${ms(n.alone.redisPing.p99)} / ${ms(n.alone.redisPing.max)}`,
      `${ms(n.withHeavy.redisPing.p99)} / ${ms(n.withHeavy.redisPing.max)}`,
      `${longest(n.alone.redisLongestCommandMs)} / ${longest(n.withHeavy.redisLongestCommandMs)}`,
    ];
  }),
)}

Then the heavy answer is paged through: page 1 asked uncached (computed, and kept: answers of any
size up to \`RESULT_CACHE_LARGE_ROWS\` are kept apart), then pages 2 to 11 as a client pages on.

${table(
  ["Run", "Rows in the answer", "Page 1", "Pages 2–11 p50 / max", "Later ÷ first"],
  runs
    .filter((s) => s.noisyNeighbour.paging !== undefined)
    .map((s) => {
      const p = s.noisyNeighbour.paging;
      return [
        runLabel(s),
        f(p.totalRows),
        ms(p.firstPageMs),
        `${ms(p.laterPages.p50)} / ${ms(p.laterPages.max)}`,
        `${f((100 * p.laterPages.p50) / p.firstPageMs, 1)} %`,
      ];
    }),
)}`;
}

/** Issue #20's targets on the largest multi-tenant run that measured them. */
export function noisyChecks(r: BenchResults): TargetCheck[] {
  const largest = withNoise(r).at(-1);
  const area = "Noisy neighbour";
  const small = `a small organization's p99 beside heavy uncached questions ≤ ${MAX_SMALL_P99_RATIO} × alone`;
  const redis = `Redis' own latency (its longest command, LATENCY LATEST) < ${MAX_REDIS_COMMAND_MS} ms while they run`;
  if (largest === undefined) {
    const measured = "not run (needs the multi-tenant set with queries)";
    return [
      { area, target: small, measured, met: null },
      { area, target: redis, measured, met: null },
      {
        area,
        target: "pages after the first of a large answer ≤ 10 % of the first page's latency",
        measured,
        met: null,
      },
    ];
  }
  const n = largest.noisyNeighbour;
  const ratio = n.withHeavy.small.p99 / n.alone.small.p99;
  const share = n.paging.laterPages.p50 / n.paging.firstPageMs;
  return [
    {
      area,
      target: `${small} (at ${runLabel(largest)})`,
      measured: `×${f(ratio, 2)} (${ms(n.withHeavy.small.p99)} vs ${ms(n.alone.small.p99)})`,
      met: ratio <= MAX_SMALL_P99_RATIO,
    },
    {
      area,
      target: `${redis} (at ${runLabel(largest)})`,
      measured:
        `${longest(n.withHeavy.redisLongestCommandMs)} (a client's PING p99 ${ms(n.withHeavy.redisPing.p99)}, ` +
        `max ${ms(n.withHeavy.redisPing.max)}, the bench's own load included)`,
      met:
        n.withHeavy.redisLongestCommandMs === undefined
          ? null
          : n.withHeavy.redisLongestCommandMs < MAX_REDIS_COMMAND_MS,
    },
    {
      area,
      target: `pages after the first of a large answer ≤ ${100 * MAX_LATER_PAGE_SHARE} % of the first page's latency (at ${runLabel(largest)})`,
      measured: `${f(100 * share, 1)} % (${ms(n.paging.laterPages.p50)} vs ${ms(n.paging.firstPageMs)}, ${f(n.paging.totalRows)} rows)`,
      met: share <= MAX_LATER_PAGE_SHARE,
    },
  ];
}
