import { redisTargets, waitFor } from "@vu/infra";
import { createKeyspace } from "@vu/store";
import { counterTotal } from "@vu/testkit";
import { startApiServer } from "@vu/testkit/api";
import { waitUntilCaughtUp } from "@vu/testkit/caughtUp";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { redisForTest } from "@vu/testkit/redis";
import { type InProcessWorker, startInProcessWorker } from "@vu/testkit/worker";
import type { Kafka } from "kafkajs";
import { describe, expect, it, onTestFinished } from "vitest";
import { expectedDeadLetters, readDeadLetters } from "./support/deadLetters";
import { httpGet } from "./support/httpClient";
import { produceWorkload } from "./support/produce";
import type { RunConfig } from "./support/runConfig";
import { type PreparedWorkload, prepareWorkload, verifyAgainstOracle } from "./support/scenario";

// Proof of exactness: the seeded workload, with what a broken producer sends and events a damaged
// store refuses mixed in, goes through real Kafka and the real worker into Redis, and every answer
// of the API over HTTP must equal the brute-force oracle's (test/oracle). Then the same on a Redis
// Cluster with two workers sharing the partitions and two API replicas sharing the rate limit.
// Twice: a few organizations of some size, and a thousand or more, most of them small (where the
// store keeps blocks in containers, packages/store/src/format/blockPlacement.ts).
const workloads = [
  {
    shape: "a few organizations",
    prepared: prepareWorkload("exactness", (config) => config.size.events, { hostile: true }),
    queries: (config: RunConfig) => config.size.queries,
  },
  {
    shape: "many small organizations",
    prepared: prepareWorkload("exactness-many", (config) => config.size.manyOrganizations.events, {
      hostile: true,
      organizations: (config) => config.size.manyOrganizations.organizations,
    }),
    queries: (config: RunConfig) => config.size.manyOrganizations.queries,
  },
];
const soak = workloads[0]?.prepared.config.workload === "soak";
const hostileOf = (prepared: PreparedWorkload, kind: string) =>
  prepared.workload.messages.filter((m) => m.hostile === kind).length;

const deployments = redisTargets().map((target, i) => ({ ...target, replicas: i === 0 ? 1 : 2 }));

describe.each(deployments)("on $name", ({ start, replicas }) => {
  it.each(workloads)(
    `answers every random query exactly as the oracle does, $shape (${replicas} worker(s), ${replicas} API replica(s))`,
    async ({ prepared, queries }) => {
      // The store's refusals are part of what is proven: some organizations have a poisoned minute.
      expect(prepared.workload.poisoned.length).toBeGreaterThan(0);
      const { redis, url: redisUrl } = await redisForTest({ start });
      const names = await isolatedTopics("exact");
      const kafka = testKafka();
      const keyspace = createKeyspace({ prefix: names.prefix });
      const poisonedKeys = prepared.workload.poisoned.flatMap((p) =>
        keyspace.blockKeys(1, p.org, "minute", p.minuteMs),
      );
      for (const key of poisonedKeys) await redis.set(key, "a damaged key: not a hash");

      // The workers' clock is the workload's anchor, so "more than 24 hours ahead" is decided exactly.
      const workers: InProcessWorker[] = [];
      for (let i = 0; i < replicas; i++) {
        const worker = await startInProcessWorker({
          kafka,
          redisUrl,
          names,
          nowMs: prepared.workload.anchorMs,
        });
        onTestFinished(() => worker.stop());
        workers.push(worker);
      }
      // Every worker in the group before the first message: no rebalance redelivers a batch, so
      // the counters must add up to exactly what was sent.
      await waitForMembers(kafka, names.groupId, replicas);
      const joins = () => workers.reduce((n, w) => n + w.joins, 0);
      const joinsBefore = joins();

      await produceWorkload(kafka, names.topic, prepared.workload.messages);
      await waitUntilCaughtUp(kafka, names.topic, names.groupId, soak ? 1_800_000 : 120_000);
      // A loaded broker can answer a group request with a retriable error past the client's
      // retries (seen once: NOT_COORDINATOR); kafkajs then restarts the consumer, which rejoins.
      // The sums must stay exact through that; a crash kafkajs could not restart from is a fault.
      const crashes = workers.flatMap((w) => w.crashes);
      expect(crashes.filter((c) => !c.endsWith("(restart: true)"))).toEqual([]);
      // A rebalance during ingest (rare: a session that timed out under load, or such a restart)
      // hands uncommitted messages to the other worker, which sends their dead letters again:
      // every sum is still exact, but the counters then count those twice.
      const rebalanced = joins() > joinsBefore || crashes.length > 0;
      if (rebalanced) console.info(`[${prepared.suite}] the group rebalanced during ingest`);
      const countedOnce = (counted: number, expected: number, what: string) =>
        rebalanced
          ? expect(counted, what).toBeGreaterThanOrEqual(expected)
          : expect(counted, what).toBe(expected);
      const total = async (counter: "applied" | "duplicates" | "deadLettered" | "replayed" | "retries") =>
        (await Promise.all(workers.map((w) => counterTotal(w.metrics[counter])))).reduce((a, b) => a + b, 0);
      expect(await total("applied")).toBe(prepared.counted);
      // No fault here: no worker saw the view lost, gone back or behind on a shard.
      const reopened = (await Promise.all(workers.map((w) => w.metrics.epochsOpened.get()))).flatMap((m) =>
        m.values.filter((v) => v.labels.cause !== "first" && v.value > 0).map((v) => v.labels.cause),
      );
      expect(reopened, "epochs opened after the first").toEqual([]);
      const [applied, duplicates, deadLettered] = await Promise.all([
        total("applied"),
        total("duplicates"),
        total("deadLettered"),
      ]);
      countedOnce(
        applied + duplicates + deadLettered,
        prepared.workload.messages.length,
        `applied (${applied}) + duplicates (${duplicates}) + dead-lettered (${deadLettered}) = sent; replayed ${await total("replayed")}, retries ${await total("retries")}, dead letters expected ${expectedDeadLetters(prepared)}, joins ${joins() - joinsBefore}, restarts ${workers.reduce((n, w) => n + w.restarts, 0)}`,
      );
      const deadLetters = await readDeadLetters(kafka, names.dlqTopic);
      expect(deadLetters.distinct).toBe(expectedDeadLetters(prepared));
      countedOnce(deadLettered, expectedDeadLetters(prepared), "dead-lettered");
      expect(deadLetters.withoutReason).toBe(0);
      expect(deadLetters.kinds.invalid_unicode).toBe(hostileOf(prepared, "invalid_unicode"));
      expect(deadLetters.kinds.apply_failed).toBe(hostileOf(prepared, "apply_failed"));

      // The operator repairs the damaged keys; the refused events were never counted anywhere.
      for (const key of poisonedKeys) await redis.del(key);
      const verdict = await verifyAgainstOracle(prepared, {
        redisUrl,
        prefix: names.prefix,
        queries: queries(prepared.config),
        workerClock: "anchor",
        apiReplicas: replicas,
      });
      expect(verdict.missingCoverage, "query kinds the random queries never produced").toEqual([]);
      if (verdict.failures.length > 0) throw new Error(verdict.message);
      if (replicas > 1) await expectSharedRateLimit(redisUrl, names.prefix);
    },
    soak ? 10_800_000 : 300_000,
  );
});

async function waitForMembers(kafka: Kafka, groupId: string, members: number): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await waitFor(
      async () => {
        const { groups } = await admin.describeGroups([groupId]);
        return groups[0]?.state === "Stable" && groups[0].members.length === members;
      },
      { timeoutMs: 60_000, message: `${members} workers in the consumer group` },
    );
  } finally {
    await admin.disconnect();
  }
}

/** Two replicas with a limit of 10 a minute: one token gets 10 answers in all, not 10 from each. */
async function expectSharedRateLimit(redisUrl: string, prefix: string): Promise<void> {
  const org = `limit-${prefix}`;
  const nowMs = Date.now();
  const first = await startApiServer({ redisUrl, prefix, nowMs, orgs: [org], rateLimitPerMinute: 10 });
  onTestFinished(() => first.close());
  const second = await startApiServer({
    redisUrl,
    prefix,
    nowMs,
    orgs: [org],
    rateLimitPerMinute: 10,
    tokens: first.tokens,
  });
  onTestFinished(() => second.close());
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) {
    const api = i % 2 === 0 ? first : second;
    statuses.push((await httpGet(api.baseUrl, "/api/v1/stats/dimensions", api.tokenFor(org))).status);
  }
  expect(statuses.filter((s) => s === 200)).toHaveLength(10);
  expect(statuses.slice(10)).toEqual([429, 429]);
}
