// The ceiling of any kafkajs pipeline: a consumer with the ingest worker's exact settings (see
// services/ingest-worker/src/app.ts) that reads the topic and discards every message. Run as a
// child process, like the worker, by ingestBench.ts; prints one JSON line when it has read
// BENCH_EXPECTED messages.
import { Kafka, logLevel } from "kafkajs";

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === "") throw new Error(`${name} is required`);
  return value;
};

const expected = Number(env("BENCH_EXPECTED"));
const kafka = new Kafka({
  clientId: "bench-bare-consumer",
  brokers: env("KAFKA_BROKERS").split(","),
  logLevel: logLevel.WARN,
});
const consumer = kafka.consumer({
  groupId: env("BENCH_GROUP"),
  sessionTimeout: 30_000,
  heartbeatInterval: 3_000,
  maxWaitTimeInMs: 100,
  maxBytesPerPartition: 32 * 1024 * 1024,
  maxBytes: 64 * 1024 * 1024,
});

let read = 0;
let firstAt = 0;
let firstCount = 0;
let firstCpu = process.cpuUsage();
let done = false;

await consumer.connect();
await consumer.subscribe({ topics: [env("BENCH_TOPIC")], fromBeginning: true });
await consumer.run({
  autoCommit: true,
  autoCommitInterval: 1_000,
  eachBatchAutoResolve: false,
  partitionsConsumedConcurrently: Number(env("BENCH_PARTITIONS_CONCURRENTLY")),
  eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary, heartbeat }) => {
    const last = batch.messages.at(-1);
    if (last === undefined) return;
    read += batch.messages.length;
    // Same clock as the worker's measurement: from the end of the first batch to the end of the last.
    if (firstAt === 0) {
      firstAt = Date.now();
      firstCount = read;
      firstCpu = process.cpuUsage();
    }
    resolveOffset(last.offset);
    await commitOffsetsIfNecessary();
    await heartbeat();
    if (read >= expected && !done) {
      done = true;
      const lastAt = Date.now();
      // CPU over the same window as the rate, so start-up work is left out.
      const { user, system } = process.cpuUsage(firstCpu);
      const cpuSeconds = (user + system) / 1e6;
      process.stdout.write(`${JSON.stringify({ read, firstAt, firstCount, lastAt, cpuSeconds })}\n`);
      setImmediate(() => {
        consumer.disconnect().finally(() => process.exit(0));
      });
    }
  },
});
