import type { RedisClient } from "@vu/store";
import type { RunningApi } from "./apiService";
import type { BenchDataset } from "./benchDataset";
import type { DashboardQuery } from "./dashboardQueries";
import { fmt, log } from "./log";
import type { BenchOptions } from "./options";
import { benchQueries, type QueryResult } from "./queryBench";
import { redisPid } from "./redisInfo";
import type { ComparableAnswer } from "./resultCheck";

/**
 * The dashboard queries of a data set, one queried organization after the other (the single set's
 * large one; the multi-tenant set's largest, median and smallest), each with its own token: the
 * API answers a token for its organization only.
 */
export async function benchOrganizations(
  dataset: BenchDataset,
  dashboard: readonly DashboardQuery[],
  input: {
    options: BenchOptions;
    redis: RedisClient;
    api: RunningApi;
    /** The raw table PostgreSQL scans (schema-qualified). */
    table: string;
  },
): Promise<{ results: QueryResult[]; answers: Map<string, ComparableAnswer> }> {
  const { options, api } = input;
  const results: QueryResult[] = [];
  const answers = new Map<string, ComparableAnswer>();
  for (const { profile, role, count } of dataset.queried) {
    const org = profile.organizationId;
    const whose = role === "large" ? "" : `the ${role} organization, `;
    log(
      `  dashboard queries for ${whose}${org} (${fmt(count)} recordings; ` +
        `${options.connections} connections, ${options.queryDurationS} s each)`,
    );
    const measured = await benchQueries(
      dashboard.filter((q) => q.raw.org === org),
      {
        redis: input.redis,
        apiPid: api.api.pid,
        redisPid: await redisPid(input.redis),
        baseUrl: api.baseUrl,
        token: await api.tokenFor(org),
        postgresUrl: options.postgresUrl,
        table: input.table,
        connections: options.connections,
        durationS: options.queryDurationS,
        singleStreamDurationS: options.singleStreamDurationS,
        pgMinSamples: options.pgMinSamples,
        pgMaxDurationS: options.pgMaxDurationS,
      },
    );
    results.push(...measured.results);
    for (const [id, answer] of measured.answers) answers.set(id, answer);
  }
  return { results, answers };
}
