import { startRedisServer, waitFor } from "@vu/infra";
import { createRedisClient } from "@vu/store";
import { startApiServer } from "@vu/testkit/api";
import { waitUntilViewCaughtUp } from "@vu/testkit/caughtUp";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { durableTokens } from "@vu/testkit/tokens";
import { startInProcessWorker } from "@vu/testkit/worker";
import { expect, it, onTestFinished } from "vitest";
import { faultShapes, faultTimeout } from "../support/faultShapes";
import { produceWorkload } from "../support/produce";
import { expectExactAfterFault } from "../support/scenario";
import { DAY_MS, MINUTE_MS } from "../workload/timeline";

// Fault: Redis comes back empty while the worker ingests (a restart without persistence, a failover
// to an empty replica), simulated with FLUSHALL. Kafka is the record: the worker notices that the
// view's epoch is gone, restores the tokens from their topic, replays the topic from its beginning,
// and the API meanwhile answers 503, never a 200 with numbers it knows to be wrong; an API that was
// running all along (with its caches of combinations and answers) answers what is stored now.
const shapes = faultShapes("redis-emptied", (config) => config.size.faultEvents);

it.each(shapes)(
  "answers only 503s or exact numbers while Redis comes back empty mid-ingest, and is exact after its own replay, tokens included ($shape)",
  async ({ prepared }) => {
    const server = await startRedisServer({ appendonly: false, extraArgs: ["--save", ""] });
    onTestFinished(() => server.dispose());
    const redis = createRedisClient(server.url);
    onTestFinished(async () => {
      await redis.quit();
    });
    const kafka = testKafka();
    const names = await isolatedTopics("emptied");
    const tokens = await durableTokens(kafka, redis, names);
    onTestFinished(() => tokens.close());
    const { workload } = prepared;
    const half = Math.floor(workload.messages.length / 2);

    await produceWorkload(kafka, names.topic, workload.messages.slice(0, half));
    const worker = await startInProcessWorker({
      kafka,
      redisUrl: server.url,
      names,
      nowMs: workload.anchorMs,
      env: { TOKENS_TOPIC: tokens.tokensTopic },
    });
    onTestFinished(() => worker.stop());
    await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 120_000);

    const org = workload.organizations[0]?.id ?? "";
    const token = await tokens.create(org);
    // An API over the worker's store, opening no epoch of its own (the worker opens them).
    const startApi = async () => {
      const started = await startApiServer({
        redisUrl: server.url,
        prefix: names.prefix,
        nowMs: workload.anchorMs + MINUTE_MS,
        openEpoch: false,
      });
      onTestFinished(() => started.close());
      return started;
    };
    const api = await startApi();
    const allTime = new Date(workload.anchorMs + 3 * DAY_MS).toISOString().slice(0, 10);
    const summary = `/api/v1/stats/summary?start_date=2000-01-01&end_date=${allTime}`;
    const grouped = `/api/v1/stats?start_date=2000-01-01&end_date=${allTime}&granularity=month&group_by=app_name&filter[language_model]=null,${workload.organizations[0]?.languageModels.find((m) => m !== null) ?? ""}`;
    const before = await api.get(grouped, token);
    expect(before.status).toBe(200);

    // Polls the running API throughout: every answer is a 503 or a total no smaller than one seen
    // before the loss (recordings only ever get counted).
    const seen: Array<{ status: number; total?: number }> = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const res = await api.get(summary, token);
        const body = (await res.json()) as { total_recordings?: number };
        seen.push({ status: res.status, ...(res.status === 200 ? { total: body.total_recordings } : {}) });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    // Redis is emptied with the worker's consumer paused: its replay cannot get anywhere, so the
    // view is certainly incomplete until the running API has answered a 503; then it goes on.
    let flushed = false;
    await produceWorkload(kafka, names.topic, workload.messages.slice(half), {
      chunkSize: 200,
      afterChunk: async (sent) => {
        if (!flushed && sent >= 400) {
          flushed = true;
          worker.pauseConsumer();
          await redis.flushall();
          const answeredBefore = seen.length;
          await waitFor(() => seen.slice(answeredBefore).some((s) => s.status === 503), {
            timeoutMs: 60_000,
            message: "the running API to answer 503 while the view is incomplete",
          });
          worker.resumeConsumer();
        }
      },
    });
    await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 180_000);
    // A few answers after the replay, then the poller stops.
    const answered = seen.length;
    while (seen.length < answered + 5) await new Promise((resolve) => setTimeout(resolve, 20));
    polling = false;
    await poller;

    const statuses = new Set(seen.map((s) => s.status));
    console.info(
      `[redis-emptied] ${seen.length} answers while ingesting: ${seen.filter((s) => s.status === 503).length} 503s; epochs opened ${JSON.stringify((await worker.metrics.epochsOpened.get()).values.map((v) => [v.labels.cause, v.value]))}`,
    );
    expect(
      [...statuses].every((s) => s === 200 || s === 503),
      `statuses ${[...statuses]}`,
    ).toBe(true);
    expect(statuses.has(503), "the API said the view was incomplete while it was").toBe(true);
    const totals = seen.flatMap((s) => (s.total === undefined ? [] : [s.total]));
    totals.forEach((total, i) => {
      expect(
        total,
        `answer ${i} of ${totals.length} shows fewer recordings than before it`,
      ).toBeGreaterThanOrEqual(Math.max(0, ...totals.slice(0, i)));
    });
    expect((await api.get(summary, token)).status, "the token survived the loss").toBe(200);

    // The API that lived through the loss answers as one started now (checked against the oracle below).
    const fresh = await startApi();
    const after = await api.get(grouped, token);
    expect(after.status).toBe(200);
    expect(await after.text()).toBe(await (await fresh.get(grouped, token)).text());

    await expectExactAfterFault(prepared, {
      redisUrl: server.url,
      prefix: names.prefix,
      workerClock: "anchor",
    });
  },
  faultTimeout(shapes, 300_000),
);
