import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { describe, expect, it, onTestFinished } from "vitest";
import { silentLog } from "../log";
import { waitFor } from "../waitFor";
import { hasCommand } from "./commands";
import { ensureKafka, restartKafka, stopKafka } from "./kafkaBroker";
import { kafkaAnswers } from "./kafkaProbe";
import { freePort } from "./ports";

// The native broker needs a JVM; a machine that runs the tests in Docker may not have one.
const hasJava = await hasCommand("java");

describe.skipIf(!hasJava)("the native Kafka broker", () => {
  it("restarts on the same port and data dir and keeps its messages", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "vu-kafka-"));
    const port = await freePort();
    const options = { port, controllerPort: await freePort(), dataDir, log: silentLog };
    onTestFinished(async () => {
      await stopKafka(options);
      rmSync(dataDir, { recursive: true, force: true });
    });

    const first = await ensureKafka(options);
    expect(first.startedHere).toBe(true);
    expect(await ensureKafka(options)).toMatchObject({ startedHere: false, pid: first.pid });

    const kafka = new Kafka({ clientId: "restart-test", brokers: first.brokers, logLevel: logLevel.NOTHING });
    const topic = `restart-${randomUUID()}`;
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    await admin.disconnect();
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: [{ value: "before restart" }] });
    await producer.disconnect();

    const second = await restartKafka(options);
    expect(second.pid).not.toBe(first.pid);

    const consumer = kafka.consumer({ groupId: `restart-${randomUUID()}`, maxWaitTimeInMs: 100 });
    await consumer.connect();
    onTestFinished(() => consumer.disconnect());
    await consumer.subscribe({ topic, fromBeginning: true });
    const seen: string[] = [];
    await consumer.run({
      eachMessage: async ({ message }) => void seen.push(message.value?.toString() ?? ""),
    });
    await waitFor(() => seen.length > 0, {
      timeoutMs: 30_000,
      message: "the message written before the restart",
    });
    expect(seen).toEqual(["before restart"]);
    // Before the broker goes: a consumer left behind would retry leaving its group against a dead port.
    await consumer.disconnect();

    expect(await stopKafka(options)).toBe(true);
    expect(await kafkaAnswers(first.brokers)).toBe(false);
    expect(await stopKafka(options)).toBe(false);
  });
});
