import { LARGE_READ_NICE } from "@vu/query-api";
import type { NoisyNeighbourResult } from "./noisyNeighbour";
import { f, runLabel, table } from "./reportFormat";
import { type BenchResults, runsOf, type SizeResult } from "./results";
import { MAX_LATER_PAGE_SHARE, MAX_REDIS_COMMAND_MS, MAX_SMALL_P99_RATIO } from "./targetBounds";
import type { TargetCheck } from "./targetCheck";

const AREA = "Noisy neighbour";

const withNoise = (r: BenchResults) =>
  runsOf(r, "many").filter((s): s is SizeResult & { noisyNeighbour: NoisyNeighbourResult } =>
    Boolean(s.noisyNeighbour),
  );

const ms = (n: number) => `${f(n, n < 10 ? 2 : 1)} ms`;
const longest = (n: number | undefined) => (n === undefined ? "–" : n === 0 ? "< 1 ms" : `${f(n)} ms`);
/** The latency monitor's events and their longest, longest first: ` (command 9 ms, fast-command 2 ms)`. */
const eventsOf = (events: Record<string, number> | undefined) => {
  const named = Object.entries(events ?? {}).sort(([, a], [, b]) => b - a);
  return named.length === 0 ? "" : ` (${named.map(([event, max]) => `${event} ${f(max)} ms`).join(", ")})`;
};

/** How the phases were repeated and what Redis' priority was, for runs that say. */
function roundsOf(n: NoisyNeighbourResult): string {
  if (n.rounds === undefined) return "The two phases ran once each.";
  const nice =
    n.redisNice === undefined || n.redisNice === 0
      ? "at its usual priority"
      : `at nice ${n.redisNice} (ahead of the API's processes and the bench, as a deployment gives Redis a core of its own; the large-read process runs at nice ${LARGE_READ_NICE})`;
  return `The two phases alternate ${n.rounds} times and each one's samples are pooled over the rounds (a p99 from
a few thousand requests, and a drift of the machine falls on both); Redis ran ${nice}.`;
}

/** Who asked the heavy questions: the organization made for the section, or (older results) the largest. */
function heavyWho(n: NoisyNeighbourResult): string {
  const load = n.heavyLoad;
  if (load === undefined) return `its largest organization (\`${n.heavyOrganization}\`)`;
  return `a heavy organization made for the section (\`${load.org}\`: ${f(load.recordings)} recordings over
the ${load.days} days before the data set's end, each with a member and an app of its own, produced
into the run's topic and applied by the worker before the phases in ${f(load.applySeconds, 1)} s;
its answer has ${f(n.paging.totalRows)} rows)`;
}

const heavyAnswered = (n: NoisyNeighbourResult) => {
  const { heavy, heavyRefused, heavyFailed } = n.withHeavy;
  const failed = heavyFailed > 0 ? `, ${f(heavyFailed)} failed` : "";
  return `${f(heavy.samples)} at ${ms(heavy.p50)} / ${f(heavyRefused)}${failed} (${n.heavyRate}/s asked)`;
};

/** The report's section: each multi-tenant run's small organization alone and beside the heavy one. */
export function noisySection(r: BenchResults): string {
  const runs = withNoise(r);
  const first = runs[0]?.noisyNeighbour;
  if (first === undefined) return "Not measured: the multi-tenant data set was not run with queries.";
  return `The multi-tenant set's smallest organization asks \`${first.smallPath}\` (7 days by hour) in a
closed loop with \`Cache-Control: no-cache\` (every answer computed), first alone, then while
${heavyWho(first)} asks \`${first.heavyPath}\` (every member by hour over 30 days, uncached) at
a steady rate, whether or not the previous one ended; a PING every 10 ms on a Redis connection of
its own measures the latency a client sees, and Redis' latency monitor (\`LATENCY LATEST\`,
threshold 1 ms) the longest any command ran in Redis (what ingest and every other organization
waited behind) meanwhile; the events it saw beside the heavy questions are named with their
longest (\`command\`: a command or a \`MULTI\`'s \`EXEC\`, \`fast-command\`: an O(1) one,
\`expire-cycle\`: Redis deleting expired keys). Each is wall-clock time in Redis' thread, so time
it waited for a core on this 2-core machine counts too. ${roundsOf(first)} Heavy questions refused are the API's organization gate at work
(\`ORG_QUERY_CONCURRENCY\`, \`ORG_QUERY_QUEUE\`, \`ORG_QUERY_WAIT_MS\`: 429, or 503, with
\`Retry-After\`), counted apart from failures.

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
    "Small p99 per round, alone → beside",
  ],
  runs.map((s) => {
    const n = s.noisyNeighbour;
    return [
      runLabel(s),
      `${ms(n.alone.small.p50)} / ${ms(n.alone.small.p99)}`,
      `${ms(n.withHeavy.small.p50)} / ${ms(n.withHeavy.small.p99)}`,
      `×${f(n.withHeavy.small.p99 / n.alone.small.p99, 2)}`,
      heavyAnswered(n),
      `${ms(n.alone.redisPing.p99)} / ${ms(n.alone.redisPing.max)}`,
      `${ms(n.withHeavy.redisPing.p99)} / ${ms(n.withHeavy.redisPing.max)}`,
      `${longest(n.alone.redisLongestCommandMs)} / ${longest(n.withHeavy.redisLongestCommandMs)}${eventsOf(n.withHeavy.redisLatencyEvents)}`,
      (n.roundP99s ?? []).map((r) => `${f(r.alone, 1)} → ${f(r.beside, 1)}`).join("; ") || "–",
    ];
  }),
)}${slowCommandsOf(runs)}

${pagingSection(runs)}`;
}

/** What Redis' slow log caught beside the heavy questions, per run (runs that kept it). */
function slowCommandsOf(runs: readonly SizeResult[]): string {
  const lines = runs.flatMap((s) => {
    const slow = s.noisyNeighbour?.withHeavy.redisSlowCommands;
    if (slow === undefined) return [];
    const listed = slow.map(
      (c) => `\`${c.command}\`${c.args > 2 ? ` (${f(c.args)} arguments)` : ""} ${f(c.ms, 1)} ms`,
    );
    return [`- ${runLabel(s)}: ${listed.length === 0 ? "none" : listed.join("; ")}`];
  });
  return lines.length === 0
    ? ""
    : `\n\nCommands Redis' slow log caught over 5 ms beside the heavy questions, longest first (the commands of a
\`MULTI\` each on their own; wall-clock, like the latency monitor):\n\n${lines.join("\n")}`;
}

/** The paging table, with how it was asked. */
function pagingSection(runs: Array<{ noisyNeighbour: NoisyNeighbourResult } & SizeResult>): string {
  return `Then the heavy answer is paged through: page 1 asked uncached (computed, and kept: answers of any
size up to \`RESULT_CACHE_LARGE_ROWS\` rows are kept apart), then pages 2 to 11 as a client pages on,
all over one kept-alive connection. The API's processes (Node's cluster) are handed connections,
not requests, and each keeps its own answers: a client that opens a new connection for a page may
reach another process, which computes the answer once more. An answer is also kept under where
retention begins for each tier, for minute blocks a moment that moves every minute: a page asked in
a later UTC minute than page 1 computes the answer again (it shows in the max).

${table(
  ["Run", "Rows in the answer", "Page 1", "Pages 2–11 p50 / max", "Later ÷ first", "Connections / refused"],
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
        p.connections === undefined ? "–" : `${f(p.connections)} / ${f(p.refused ?? 0)}`,
      ];
    }),
)}`;
}

const PAGING_TARGET = `pages after the first of a 100,000-group answer ≤ ${100 * MAX_LATER_PAGE_SHARE} % of the first page's latency`;

/**
 * The paging target. Runs from before the heavy organization paged the largest one's answer, a
 * few thousand rows: shown, but not taken as the target's measurement.
 */
function pagingCheck(run: SizeResult & { noisyNeighbour: NoisyNeighbourResult }): TargetCheck {
  const { paging, heavyLoad } = run.noisyNeighbour;
  const target = `${PAGING_TARGET} (at ${runLabel(run)})`;
  const kind = "noisyPaging";
  if (paging === undefined) return { kind, area: AREA, target, measured: "not measured", met: null };
  const share = paging.laterPages.p50 / paging.firstPageMs;
  const measured = `${f(100 * share, 1)} % (${ms(paging.laterPages.p50)} vs ${ms(paging.firstPageMs)}, ${f(paging.totalRows)} rows)`;
  if (heavyLoad === undefined)
    return {
      kind,
      area: AREA,
      target,
      measured: `${measured}: a run from before the heavy organization`,
      met: null,
    };
  return { kind, area: AREA, target, measured, met: share <= MAX_LATER_PAGE_SHARE };
}

/** The noisy-neighbour targets on the largest multi-tenant run that measured them. */
export function noisyChecks(r: BenchResults): TargetCheck[] {
  const largest = withNoise(r).at(-1);
  const area = AREA;
  const small = `a small organization's p99 beside heavy uncached questions ≤ ${MAX_SMALL_P99_RATIO} × alone`;
  const redis = `Redis' own latency (its longest command, LATENCY LATEST) < ${MAX_REDIS_COMMAND_MS} ms while they run`;
  if (largest === undefined) {
    const measured = "not run (needs the multi-tenant set with queries)";
    return [
      { kind: "noisyP99", area, target: small, measured, met: null },
      { kind: "noisyRedisCommand", area, target: redis, measured, met: null },
      { kind: "noisyPaging", area, target: PAGING_TARGET, measured, met: null },
    ];
  }
  const n = largest.noisyNeighbour;
  const ratio = n.withHeavy.small.p99 / n.alone.small.p99;
  return [
    {
      kind: "noisyP99",
      area,
      target: `${small} (at ${runLabel(largest)})`,
      measured: `×${f(ratio, 2)} (${ms(n.withHeavy.small.p99)} vs ${ms(n.alone.small.p99)})`,
      met: ratio <= MAX_SMALL_P99_RATIO,
    },
    {
      kind: "noisyRedisCommand",
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
    pagingCheck(largest),
  ];
}
