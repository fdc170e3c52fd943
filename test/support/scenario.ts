import { startApiServer } from "@vu/testkit/api";
import { type CountedRecording, countRecordings } from "../oracle";
import { generateComparable, type QueryCase, retargetPage } from "../workload/queries";
import { DAY_MS, HISTORY_MS, hotInstants, MINUTE_MS } from "../workload/timeline";
import type { OrgVocabulary } from "../workload/vocabulary";
import { acceptedUntil, generateWorkload, type Workload } from "../workload/workload";
import { coverageOf, missingCoverage } from "./coverage";
import {
  compareWithOracle,
  type DifferentialContext,
  expectationOf,
  isComparable,
  report,
} from "./differential";
import { createRandom } from "./random";
import { announce, type RunConfig, replayEnv, runConfig } from "./runConfig";
import { checkSnappedQuery, generateSnappedQuery } from "./snapChecks";

export interface PreparedWorkload {
  suite: string;
  config: RunConfig;
  workload: Workload;
  /** What the oracle says must be counted, per organization, by time. */
  recordings: Map<string, CountedRecording[]>;
  counted: number;
}

/** The seeded workload of a suite and the oracle's view of it; prints how to replay it first. */
export function prepareWorkload(
  suite: string,
  events: (config: RunConfig) => number,
  options: {
    vocabularies?: OrgVocabulary[];
    hostile?: boolean;
    /** How many organizations (default: the size's `organizations`). */
    organizations?: (config: RunConfig) => number;
  } = {},
): PreparedWorkload {
  const { vocabularies, hostile = false } = options;
  const config = runConfig();
  announce(suite, config);
  const { anchorMs } = config;
  const workload = generateWorkload({
    seed: config.seed,
    random: createRandom(config.seed).fork(`workload:${suite}`),
    anchorMs,
    organizations: options.organizations?.(config) ?? config.size.organizations,
    events: events(config),
    ...(vocabularies ? { vocabularies } : {}),
    hostile,
  });
  // An event the store refuses (a poisoned minute) is never counted, like an invalid one.
  const recordings = countRecordings(
    workload.messages.map((m) => ({ key: m.key, event: m.hostile === "apply_failed" ? null : m.event })),
    acceptedUntil(workload),
  );
  const counted = [...recordings.values()].reduce((n, list) => n + list.length, 0);
  console.info(`[${suite}] ${workload.messages.length} messages, ${counted} recordings to count`);
  return { suite, config, workload, recordings, counted };
}

export interface VerifyOptions {
  redisUrl: string;
  prefix: string;
  queries: number;
  /**
   * "anchor" when the worker's clock was pinned to the workload's anchor: the API's "now" is then
   * the anchor plus a minute, and the same seed and anchor give the same queries. "real" for the
   * worker process on the real clock: the API's "now" must not be earlier than any of its writes
   * (a minute block it saw as expired must not be read as kept), so it follows the real clock.
   */
  workerClock: "anchor" | "real";
  /** API replicas over the same Redis, sharing tokens; queries alternate between them. Default 1. */
  apiReplicas?: number;
}

export interface Verdict {
  /** Empty when every answer equals the oracle's. */
  failures: string[];
  message: string;
  missingCoverage: string[];
}

/**
 * A fault suite's last step: the fault-sized set of random queries against the oracle, over what
 * the worker wrote through the fault; throws the replayable report on the first run that differs.
 */
export async function expectExactAfterFault(
  prepared: PreparedWorkload,
  options: Pick<VerifyOptions, "redisUrl" | "prefix" | "workerClock">,
): Promise<void> {
  const verdict = await verifyAgainstOracle(prepared, {
    ...options,
    queries: prepared.config.size.faultQueries,
  });
  if (verdict.failures.length > 0) throw new Error(verdict.message);
}

/**
 * Starts the API over what the worker wrote (its clock fixed just after ingest, so the oracle and
 * the API agree on "now" and on which blocks are kept), then compares: every organization's
 * all-time summary and dimensions first, then `queries` random queries.
 */
export async function verifyAgainstOracle(
  prepared: PreparedWorkload,
  options: VerifyOptions,
): Promise<Verdict> {
  const { suite, config, workload } = prepared;
  const nowMs =
    options.workerClock === "anchor"
      ? workload.anchorMs + MINUTE_MS
      : Math.ceil(Date.now() / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
  const orgs = workload.organizations.map((o) => o.id);
  const api = await startApiServer({ redisUrl: options.redisUrl, prefix: options.prefix, nowMs, orgs });
  const replicas = [api];
  while (replicas.length < (options.apiReplicas ?? 1)) {
    replicas.push(
      await startApiServer({
        redisUrl: options.redisUrl,
        prefix: options.prefix,
        nowMs,
        orgs,
        tokens: api.tokens,
      }),
    );
  }
  const ctx: DifferentialContext = {
    baseUrls: replicas.map((r) => r.baseUrl),
    tokenFor: api.tokenFor,
    recordings: prepared.recordings,
    nowMs,
    replay: replayEnv(config),
    selfCheck: config.workload === "quick",
  };
  try {
    const allTime = new Date(nowMs + 3 * DAY_MS).toISOString().slice(0, 10);
    const basics: QueryCase[] = orgs.flatMap((org) => [
      {
        endpoint: "summary" as const,
        org,
        pairs: [
          ["start_date", "2000-01-01"],
          ["end_date", allTime],
        ] as const,
      },
      { endpoint: "dimensions" as const, org, pairs: [] },
    ]);
    const basicFailures = await compareWithOracle(basics, ctx);
    // When the totals are off, thousands of query mismatches would only repeat that.
    if (basicFailures.length > 0) {
      return {
        failures: basicFailures,
        message: report(`${suite} totals`, replayEnv(config), basics.length, basicFailures),
        missingCoverage: [],
      };
    }

    const random = createRandom(config.seed).fork(`queries:${suite}`);
    const rangeContext = {
      nowMs,
      hot: hotInstants(workload.anchorMs - HISTORY_MS - 40 * DAY_MS, nowMs + 2 * DAY_MS),
    };
    const draw = () => {
      const query = generateComparable(workload.organizations, rangeContext, random, (q) =>
        isComparable(q, ctx),
      );
      const expected = expectationOf(query, ctx);
      return expected.status === 200 && "pagination" in expected
        ? retargetPage(query, expected.pagination.total_pages, random)
        : query;
    };
    const queries = Array.from({ length: options.queries }, draw);
    queries.push(...topUpCoverage(queries, draw, (q) => expectationOf(q, ctx), nowMs));
    const started = performance.now();
    const failures = await compareWithOracle(queries, ctx);
    // Off-grid queries (old data, zones not on UTC hours): only what snapping cannot change.
    const snapped = Math.ceil(options.queries / 15);
    for (let i = 0; i < snapped; i++) {
      const org = random.pick(orgs);
      const pairs = generateSnappedQuery(nowMs, random);
      const problem = await checkSnappedQuery(api, org, prepared.recordings.get(org) ?? [], pairs, nowMs);
      if (problem !== null) failures.push(`(off-grid) ${problem}`);
    }
    const coverage = coverageOf(
      queries,
      queries.map((q) => expectationOf(q, ctx)),
      nowMs,
    );
    console.info(
      `[${suite}] compared ${queries.length} random and ${snapped} off-grid queries in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        `coverage ${JSON.stringify(Object.fromEntries([...coverage].sort()))}`,
    );
    return {
      failures,
      message: report(suite, replayEnv(config), queries.length + snapped, failures),
      missingCoverage: missingCoverage(coverage),
    };
  } finally {
    await Promise.all(replicas.map((r) => r.close()));
  }
}

/**
 * Rare kinds (a §7 parameter alone, say) may be missed by a run's draws, depending on the anchor:
 * more queries are drawn from the same generator, and those that exercise a kind still missing
 * are kept, so the required coverage does not hang on luck. Bounded: what stays missing fails the
 * run.
 */
function topUpCoverage(
  queries: readonly QueryCase[],
  draw: () => QueryCase,
  expect: (query: QueryCase) => ReturnType<typeof expectationOf>,
  nowMs: number,
): QueryCase[] {
  let missing = missingCoverage(coverageOf(queries, queries.map(expect), nowMs));
  const added: QueryCase[] = [];
  for (let attempt = 0; missing.length > 0 && attempt < 20 * queries.length; attempt++) {
    const query = draw();
    const kinds = coverageOf([query], [expect(query)], nowMs);
    if (!missing.some((kind) => kinds.has(kind))) continue;
    added.push(query);
    missing = missing.filter((kind) => !kinds.has(kind));
  }
  return added;
}
