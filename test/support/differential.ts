import {
  answerDimensions,
  answerStats,
  answerSummary,
  type CountedRecording,
  type ExpectedStats,
} from "../oracle";
import type { QueryCase } from "../workload/queries";
import { diffBadRequest, diffDimensions, diffStatsCsv, diffStatsJson, diffSummary } from "./compare";
import { type HttpReply, httpGet, mapConcurrently, queryString } from "./httpClient";

export const PATHS = {
  stats: "/api/v1/stats",
  summary: "/api/v1/stats/summary",
  dimensions: "/api/v1/stats/dimensions",
} as const;

export interface DifferentialContext {
  /** API replicas; queries go to them in turn. */
  baseUrls: readonly string[];
  tokenFor(org: string): string;
  recordings: ReadonlyMap<string, readonly CountedRecording[]>;
  nowMs: number;
  /** The environment that replays the run (printed with every failure). */
  replay: string;
  selfCheck: boolean;
}

/** What the oracle expects of a query, or "not-comparable" when an edge is off the kept grid. */
export function expectationOf(
  query: QueryCase,
  ctx: Pick<DifferentialContext, "recordings" | "nowMs" | "selfCheck">,
) {
  const recordings = ctx.recordings.get(query.org) ?? [];
  const options = { nowMs: ctx.nowMs, selfCheck: ctx.selfCheck };
  switch (query.endpoint) {
    case "stats":
      return answerStats(recordings, query.pairs, options);
    case "summary":
      return answerSummary(recordings, query.pairs, options);
    case "dimensions":
      return { status: 200 as const, dimensions: answerDimensions(recordings) };
  }
}

export const isComparable = (query: QueryCase, ctx: Parameters<typeof expectationOf>[1]) =>
  expectationOf(query, ctx).status !== "not-comparable";

function diff(query: QueryCase, reply: HttpReply, ctx: DifferentialContext): string | null {
  const expected = expectationOf(query, ctx);
  if (expected.status === "not-comparable") return null;
  if (expected.status === 400) return diffBadRequest(reply, expected.parameter);
  if (reply.status !== 200) return `status ${reply.status}: ${reply.text.slice(0, 300)}`;
  if ("dimensions" in expected) return diffDimensions(reply, expected.dimensions);
  if ("metrics" in expected) return diffSummary(reply, expected);
  const stats = expected as ExpectedStats;
  return stats.format === "csv" ? diffStatsCsv(reply, stats) : diffStatsJson(reply, stats);
}

/**
 * Sends every query over HTTP with the organization's token and compares each answer with the
 * oracle's, field by field. Returns one line per mismatch, with what is needed to replay it.
 */
export async function compareWithOracle(
  queries: readonly QueryCase[],
  ctx: DifferentialContext,
): Promise<string[]> {
  let turn = 0;
  const failures = await mapConcurrently(queries, 4, async (query) => {
    const reply = await httpGet(
      ctx.baseUrls[turn++ % ctx.baseUrls.length] ?? "",
      PATHS[query.endpoint],
      ctx.tokenFor(query.org),
      queryString(query.pairs),
    );
    let problem: string | null;
    try {
      problem = diff(query, reply, ctx);
    } catch (error) {
      problem = `could not compare: ${(error as Error).message}; body ${reply.text.slice(0, 300)}`;
    }
    return problem === null ? null : `org=${query.org} GET ${reply.url}\n    ${problem}`;
  });
  return failures.filter((f): f is string => f !== null);
}

/** A failure message that fits a test report: how to replay, the count and the first mismatches. */
export function report(suite: string, replay: string, total: number, failures: readonly string[]): string {
  const head = `${suite}: ${failures.length} of ${total} queries differ from the oracle (replay: ${replay})`;
  return [head, ...failures.slice(0, 15), failures.length > 15 ? `... and ${failures.length - 15} more` : ""]
    .filter((line) => line !== "")
    .join("\n");
}
