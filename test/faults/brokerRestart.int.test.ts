import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureKafka, freePort, redisTargets, silentLog, sleep, stopKafka } from "@vu/infra";
import { counterTotal } from "@vu/testkit";
import { createOffsetProbe, waitUntilCaughtUp } from "@vu/testkit/caughtUp";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { type InProcessWorker, startInProcessWorker } from "@vu/testkit/worker";
import { Kafka, logLevel } from "kafkajs";
import { expect, it, onTestFinished } from "vitest";
import { faultShapes, faultTimeout } from "../support/faultShapes";
import { produceWorkload } from "../support/produce";
import { expectExactAfterFault } from "../support/scenario";

// Fault: the Kafka broker crashes (SIGKILL) while the worker ingests, stays down a few seconds, and
// comes back on the same port and data; later it is stopped cleanly and restarted. The broker is a
// private native one (@vu/infra ensureKafka on free ports and its own data dir), not the shared
// stack's: other test runs on this machine share that broker (infra/src/testing/stackLease.ts), and
// restarting it would fail them; a private one also works when KAFKA_BROKERS points elsewhere.
const hasJava = spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0;
// A private broker takes a minute, so the two shapes share the two deployments: a few organizations
// on a single Redis, many on a cluster.
const shapes = faultShapes("broker-restart", (config) => config.size.faultEvents);
const cases = redisTargets().map((target, i) => ({ ...target, ...shapes[i === 0 ? 0 : 1] }));
if (!hasJava)
  console.warn("[broker-restart] SKIPPED: no `java` on PATH to run a private native Kafka broker");

it.skipIf(!hasJava).each(cases)(
  "loses nothing and counts nothing twice when the Kafka broker crashes and restarts during ingest, on $name ($shape)",
  async ({ start, prepared }) => {
    const redisTarget = await start();
    onTestFinished(() => redisTarget.stop());
    const dataDir = mkdtempSync(join(tmpdir(), "vu-e2e-kafka-"));
    const broker = { port: await freePort(), controllerPort: await freePort(), dataDir, log: silentLog };
    let running: InProcessWorker | undefined;
    try {
      const { brokers } = await ensureKafka(broker);
      const names = await isolatedTopics("broker", { brokers });
      const kafka = testKafka(brokers);
      const { messages } = prepared.workload;
      const thirds = [0, 1, 2].map((i) =>
        messages.slice((i * messages.length) / 3, ((i + 1) * messages.length) / 3),
      );

      await produceWorkload(kafka, names.topic, thirds[0] ?? []);
      // The worker's client retries as in production (kafkajs defaults), not the test's short ones.
      const workerKafka = new Kafka({ clientId: "e2e-worker", brokers, logLevel: logLevel.NOTHING });
      running = await startInProcessWorker({
        kafka: workerKafka,
        redisUrl: redisTarget.url,
        names,
        nowMs: prepared.workload.anchorMs,
      });

      // Crash the broker once the worker has committed its first batch and with work it has not
      // committed, by construction: its consumer is paused (what it fetched is still applied) and
      // the second part is produced, which it cannot fetch before the crash. Resumed once the
      // broker is back (a consumer that crashed in the outage comes back unpaused anyway).
      const probe = await createOffsetProbe(kafka, names.topic, names.groupId);
      await probe.progressPast(0);
      running.pauseConsumer();
      await produceWorkload(kafka, names.topic, thirds[1] ?? []);
      const { lag } = await probe.progress();
      await probe.close();
      await stopKafka({ ...broker, force: true });
      await sleep(3_000);
      await ensureKafka(broker);
      running.resumeConsumer();

      // Then a clean stop and start while the second part is being ingested.
      await stopKafka(broker);
      await sleep(2_000);
      await ensureKafka(broker);
      await produceWorkload(kafka, names.topic, thirds[2] ?? []);

      await waitUntilCaughtUp(kafka, names.topic, names.groupId, 240_000).catch((error: unknown) => {
        throw new Error(`${(error as Error).message}; consumer crashes: ${running?.crashes.join("; ")}`, {
          cause: error,
        });
      });
      const retries = await counterTotal(running.metrics.retries);
      console.info(
        `[broker-restart] crashed with ${lag} messages uncommitted; ${retries} retries; ${running.joins} group joins; ${running.restarts} worker restarts; consumer crashes: ${running.crashes.join("; ")}`,
      );
      // The worker was in the middle of things: the broker went down with messages it had not
      // committed yet (at least the second part, produced while it was paused).
      expect(lag, "messages not committed when the broker crashed").toBeGreaterThan(0);

      await expectExactAfterFault(prepared, {
        redisUrl: redisTarget.url,
        prefix: names.prefix,
        workerClock: "anchor",
      });
    } finally {
      // The worker first: leaving its group needs the broker.
      await running?.stop().catch(() => undefined);
      await stopKafka(broker);
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
  faultTimeout(shapes, 420_000),
);
