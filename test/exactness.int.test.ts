import { expect, it, onTestFinished } from "vitest";
import { waitUntilCaughtUp } from "./support/caughtUp";
import { readDeadLetters } from "./support/deadLetters";
import { startInProcessWorker } from "./support/inProcessWorker";
import { counterTotal, expectedDeadLetters } from "./support/metricsTotal";
import { produceWorkload } from "./support/produce";
import { prepareWorkload, verifyAgainstOracle } from "./support/scenario";
import { isolatedNames, kafkaClient, sharedRedisUrl } from "./support/stack";

// Proof of exactness: the seeded workload goes through real Kafka and the real worker into Redis,
// and every answer of the API over HTTP must equal the brute-force oracle's (test/oracle).
const prepared = prepareWorkload("exactness", (config) => config.size.events);
const soak = prepared.config.workload === "soak";

it(
  "answers every random query exactly as the oracle does, after real Kafka and the worker",
  async () => {
    const names = await isolatedNames("exact");
    const kafka = kafkaClient();
    // The worker's clock is the workload's anchor, so "more than 24 hours ahead" is decided exactly.
    const running = await startInProcessWorker({
      kafka,
      redisUrl: sharedRedisUrl(),
      names,
      nowMs: prepared.workload.anchorMs,
    });
    onTestFinished(() => running.stop());

    await produceWorkload(kafka, names.topic, prepared.workload.messages);
    await waitUntilCaughtUp(kafka, names.topic, names.groupId, soak ? 1_800_000 : 120_000);
    expect(running.crashes).toEqual([]);
    // Every recording counted once (a redelivered batch finds its ids counted already), and every
    // bad message on the dead-letter topic with its reason (a redelivered one may be there twice).
    expect(await counterTotal(running.metrics.applied)).toBe(prepared.counted);
    const deadLetters = await readDeadLetters(kafka, names.dlqTopic);
    expect(deadLetters.distinct).toBe(expectedDeadLetters(prepared));
    expect(deadLetters.withoutReason).toBe(0);

    const verdict = await verifyAgainstOracle(prepared, {
      redisUrl: sharedRedisUrl(),
      prefix: names.prefix,
      queries: prepared.config.size.queries,
      workerClock: "anchor",
    });
    expect(verdict.missingCoverage, "query kinds the random queries never produced").toEqual([]);
    if (verdict.failures.length > 0) throw new Error(verdict.message);
  },
  soak ? 10_800_000 : 300_000,
);
