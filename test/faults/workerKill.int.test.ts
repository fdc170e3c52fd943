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

      // The stream comes in KILLS + 1 parts. After each part but the last, the worker is stopped
      // (SIGSTOP) as soon as it has committed its first batch of it (more are fetched or being
      // applied), the next part is produced while it is frozen, and it is SIGKILLed: every kill
      // finds messages not committed, by construction, and the new worker begins with a backlog.
      const { messages } = prepared.workload;
      const part = Math.ceil(messages.length / (KILLS + 1));
      const slice = (k: number) => messages.slice(k * part, (k + 1) * part);
      const probe = await createOffsetProbe(kafka, names.topic, names.groupId);
      onTestFinished(() => probe.close());
      let committedAtSpawn = 0;
      const inHandAtStop: number[] = [];
      const lagAtKill: number[] = [];
      await produceWorkload(kafka, names.topic, slice(0));
      for (let k = 0; k < KILLS; k++) {
        await probe.progressPast(committedAtSpawn);
        // Varies, by the seed, how far into the part the worker gets; nothing depends on it.
        await sleep(random.int(0, 30));
        // Frozen, it commits nothing more until it dies: the lag read after the next part is
        // produced is what the kill finds uncommitted.
        child.kill("SIGSTOP");
        inHandAtStop.push((await probe.progress()).lag);
        await produceWorkload(kafka, names.topic, slice(k + 1));
        lagAtKill.push((await probe.progress()).lag);
        await stopProcess(child, "SIGKILL");
        committedAtSpawn = (await probe.progress()).committed;
        child = spawnWorker(env);
      }
      await waitUntilCaughtUp(kafka, names.topic, names.groupId, 240_000);
      console.info(
        `[worker-kill] ${KILLS} SIGKILLs; messages not yet committed when each worker was stopped: ` +
          `${inHandAtStop.join(", ")}; at each kill: ${lagAtKill.join(", ")}`,
      );
      // Every kill hits a worker with work not committed, or the test proves little: at least the
      // part produced while it was frozen.
      expect(lagAtKill).toHaveLength(KILLS);
      for (const [k, lag] of lagAtKill.entries()) expect(lag, `kill ${k + 1}`).toBeGreaterThan(0);

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
