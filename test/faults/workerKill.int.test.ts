import type { ChildProcess } from "node:child_process";
import { redisTargets, sleep } from "@vu/infra";
import { createOffsetProbe, waitUntilCaughtUp } from "@vu/testkit/caughtUp";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { spawnWorker, stopProcess, workerProcessEnv } from "@vu/testkit/worker";
import { describe, expect, it, onTestFinished } from "vitest";
import { faultShapes, faultTimeout } from "../support/faultShapes";
import { produceWorkload } from "../support/produce";
import { createRandom } from "../support/random";
import { expectExactAfterFault } from "../support/scenario";

// Fault: the real worker process is SIGKILLed several times while it ingests (no chance to commit
// or clean up); a new one takes over each time. Afterwards nothing may be lost or counted twice.
// On a single Redis and on a cluster (where a batch is several script calls, one per slot), with a
// few organizations and with many.
const shapes = faultShapes("worker-kill", (config) => config.size.faultEvents);
const KILLS = 5;

describe.each(redisTargets())("on $name", ({ start: startRedis }) => {
  it.each(shapes)(
    "loses nothing and counts nothing twice when the worker is SIGKILLed during ingest, repeatedly ($shape)",
    async ({ prepared }) => {
      const redisTarget = await startRedis();
      onTestFinished(() => redisTarget.stop());
      const names = await isolatedTopics("kill");
      const kafka = testKafka();
      // Small fetches: many small batches, so a kill finds work fetched but not yet committed.
      const env = workerProcessEnv(names, {
        KAFKA_MAX_BYTES_PER_PARTITION: "16384",
        REDIS_URL: redisTarget.url,
      });
      const random = createRandom(prepared.config.seed).fork("kills");
      let child: ChildProcess = spawnWorker(env);
      onTestFinished(() => stopProcess(child, "SIGTERM"));

      // The stream comes in KILLS + 1 parts. After each part but the last, the worker is killed as
      // soon as it has committed its first batch of it (more are fetched or being applied), and a
      // new one started; the next part arrives while it starts, so it always begins with a backlog.
      const { messages } = prepared.workload;
      const part = Math.ceil(messages.length / (KILLS + 1));
      const probe = await createOffsetProbe(kafka, names.topic, names.groupId);
      onTestFinished(() => probe.close());
      let committedAtSpawn = 0;
      const lagAtKill: number[] = [];
      for (let k = 0; k <= KILLS; k++) {
        await produceWorkload(kafka, names.topic, messages.slice(k * part, (k + 1) * part));
        if (k === KILLS) break;
        await probe.progressPast(committedAtSpawn);
        await sleep(random.int(0, 30));
        const { lag } = await probe.progress();
        await stopProcess(child, "SIGKILL");
        lagAtKill.push(lag);
        committedAtSpawn = (await probe.progress()).committed;
        child = spawnWorker(env);
      }
      await waitUntilCaughtUp(kafka, names.topic, names.groupId, 240_000);
      console.info(
        `[worker-kill] ${KILLS} SIGKILLs; messages not yet committed at each: ${lagAtKill.join(", ")}`,
      );
      // Most kills must hit a worker with work in hand, or the test proves little.
      expect(lagAtKill.filter((lag) => lag > 0).length).toBeGreaterThanOrEqual(KILLS - 1);

      // The worker processes run on the real clock.
      await expectExactAfterFault(prepared, {
        redisUrl: redisTarget.url,
        prefix: names.prefix,
        workerClock: "real",
      });
    },
    faultTimeout(shapes, 300_000),
  );
});
