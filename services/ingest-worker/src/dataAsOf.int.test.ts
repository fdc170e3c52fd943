import { createRecordingProducer } from "@vu/events";
import { waitFor } from "@vu/infra";
import { createRedisClient, type RedisClient } from "@vu/store";
import { recordingEvent, redisUrl } from "@vu/testkit";
import { startApiServer } from "@vu/testkit/api";
import { waitUntilViewCaughtUp } from "@vu/testkit/caughtUp";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { QUICK_REBALANCE_ENV, startInProcessWorker } from "@vu/testkit/worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// docs/contract.md §7 `X-Data-As-Of`: through real Kafka, the worker and the API, the header names
// an instant after the events were produced (they are in the answer) and not after the request.

const kafka = testKafka();
let redis: RedisClient;

beforeAll(() => {
  redis = createRedisClient(redisUrl());
});
afterAll(() => redis.quit());

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("X-Data-As-Of", () => {
  it("is sent on /stats (JSON and CSV) and /stats/summary, after the events' produce time and not after now", async () => {
    const names = await isolatedTopics("asof", { partitions: 3 });
    const worker = await startInProcessWorker({ kafka, redis, names, env: QUICK_REBALANCE_ENV });
    try {
      const recordedAt = new Date(Date.now() - 3_600_000).toISOString();
      const events = Array.from({ length: 12 }, (_, i) =>
        recordingEvent(`asof-${i}`, recordedAt, { organization_id: `asof-org-${i % 4}` }),
      );
      const producer = createRecordingProducer({ kafka, topic: names.topic });
      await producer.connect();
      // Before sending: no event was produced earlier than this.
      const producedAt = Date.now();
      await producer.send(events);
      await producer.disconnect();
      // Each checkpoint moves with its partition's as-of, in the same script call.
      await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 60_000);

      const api = await startApiServer({
        prefix: names.prefix,
        nowMs: Date.now(),
        openEpoch: false,
        orgs: ["asof-org-0"],
      });
      try {
        const token = api.tokenFor("asof-org-0");
        // A batch's as-of is when its fetch request left, which a long poll can send before the
        // events were produced; the watcher then moves a caught-up partition's as-of to the moment
        // it asks for the high watermark, so it passes the produce time within a check or two.
        await waitFor(
          async () => {
            const res = await api.get("/api/v1/stats/summary", token);
            await res.arrayBuffer();
            return Date.parse(res.headers.get("x-data-as-of") ?? "") >= producedAt;
          },
          { timeoutMs: 30_000, message: "X-Data-As-Of to pass the events' produce time" },
        );
        const paths = [
          "/api/v1/stats?granularity=hour",
          "/api/v1/stats?granularity=hour&format=csv",
          "/api/v1/stats/summary",
          // Again: kept answers get the header too.
          "/api/v1/stats?granularity=hour",
          "/api/v1/stats/summary",
        ];
        for (const path of paths) {
          const res = await api.get(path, token);
          expect(res.status, path).toBe(200);
          await res.arrayBuffer();
          const header = res.headers.get("x-data-as-of");
          expect(header, path).toMatch(ISO_MS_UTC);
          const asOf = Date.parse(header ?? "");
          expect(asOf, path).toBeGreaterThanOrEqual(producedAt);
          expect(asOf, path).toBeLessThanOrEqual(Date.now());
        }
        const summary = await api.get("/api/v1/stats/summary", token);
        expect(((await summary.json()) as { total_recordings: number }).total_recordings).toBe(3);
        // Idle partitions do not hold it back: the worker's watcher moves it on while nothing arrives.
        const first = Date.parse(summary.headers.get("x-data-as-of") ?? "");
        await waitFor(
          async () => {
            const res = await api.get("/api/v1/stats/summary", token);
            await res.arrayBuffer();
            return Date.parse(res.headers.get("x-data-as-of") ?? "") > first;
          },
          { timeoutMs: 30_000, message: "X-Data-As-Of to move on while the topic is idle" },
        );
      } finally {
        await api.close();
      }
    } finally {
      await worker.stop();
    }
  });

  it("is not sent while no partition's as-of is known", async () => {
    const api = await startApiServer({ nowMs: Date.now(), orgs: ["nobody"] });
    try {
      const res = await api.get("/api/v1/stats/summary", api.tokenFor("nobody"));
      expect(res.status).toBe(200);
      expect(res.headers.has("x-data-as-of")).toBe(false);
    } finally {
      await api.close();
    }
  });
});
