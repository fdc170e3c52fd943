/**
 * The ingest path without Kafka: the worker's decode → aggregate → apply-script steps over a seeded
 * data set, against a private redis-server, one chunk at a time (no overlap), so each side's CPU per
 * event is measured alone. A quick loop for working on the apply script and the aggregation; the
 * full bench (`run.ts`) measures the real pipeline.
 *
 * The events are the first `--events` of the large organization's `--dataset`-sized data set, so
 * they arrive as densely in time as in that run (10M: about 17 a minute).
 *
 *   npx tsx bench/src/ingestPath.ts [--dataset 10000000] [--events 300000] [--chunk 5000]
 */
import { parseArgs } from "node:util";
import { startRedisServer } from "@vu/infra";
import { validateAndGroup } from "@vu/ingest-worker";
import { createKeyspace, createLogPosition, createRedisClient, createRollupWriter } from "@vu/store";
import { buildDataset } from "./dataset";
import { commandStats, commandStatsDelta, redisInfo } from "./redisInfo";

const { values } = parseArgs({
  options: {
    dataset: { type: "string", default: "10000000" },
    events: { type: "string", default: "300000" },
    chunk: { type: "string", default: "5000" },
  },
});
const size = Number(values.dataset);
const take = Number(values.events);
const chunk = Number(values.chunk);

const server = await startRedisServer({ appendonly: false });
const redis = createRedisClient(server.url);
try {
  const dataset = buildDataset(size, 42, Date.UTC(2026, 10, 22));
  const messages: Array<{ value: Buffer; offset: string }> = [];
  for (const event of dataset.parts[0]?.events ?? []) {
    if (messages.length === take) break;
    messages.push({ value: Buffer.from(JSON.stringify(event)), offset: String(messages.length) });
  }
  const keyspace = createKeyspace({ prefix: "ingest-path" });
  const writer = createRollupWriter({ redis, keyspace, dedupeWindowMs: 7 * 86_400_000 });
  // As the worker does: each organization's batch carries its offsets, each apply is guarded by
  // the partition's checkpoint, and the checkpoint moves after each chunk.
  const log = createLogPosition({ redis, keyspace });
  const { epoch } = await log.open(1, {
    expected: null,
    state: "replaying",
    reason: "bench",
    targets: new Map(),
  });
  const partition = "ingest-path:0";
  let checkpoint: string | null = null;
  const redisCpu = async () => {
    const cpu = await redisInfo(redis, "cpu");
    return Number(cpu.get("used_cpu_user")) + Number(cpu.get("used_cpu_sys"));
  };
  const statsBefore = await commandStats(redis);
  const redisBefore = await redisCpu();
  let workerUs = 0;
  let decodeUs = 0;
  let prepareUs = 0;
  const started = performance.now();
  for (let first = 0; first < messages.length; first += chunk) {
    const t0 = process.cpuUsage();
    const sorted = validateAndGroup(messages.slice(first, first + chunk), {
      nowMs: dataset.toMs,
      futureToleranceMs: 86_400_000,
    });
    const t1a = process.cpuUsage(t0);
    const throughOffset = String(Math.min(messages.length, first + chunk) - 1);
    const origin = { partition, throughOffset };
    const prepared = [...sorted.byOrg].map(([org, recordings]) => writer.prepare(org, recordings, origin));
    const t1b = process.cpuUsage(t0);
    const applying = prepared.map((batch) => writer.applyPrepared(1, batch, { checkpoint }));
    const t1 = process.cpuUsage(t0);
    decodeUs += t1a.user + t1a.system;
    prepareUs += t1b.user + t1b.system - (t1a.user + t1a.system);
    workerUs += t1.user + t1.system;
    await Promise.all(applying);
    const next = String(Number(throughOffset) + 1);
    await log.advance(1, { epoch, partition, expected: checkpoint, next });
    checkpoint = next;
  }
  const wallS = (performance.now() - started) / 1000;
  const redisS = (await redisCpu()) - redisBefore;
  const stats = commandStatsDelta(statsBefore, await commandStats(redis));
  const memory = Number((await redisInfo(redis, "memory")).get("used_memory"));
  const n = messages.length;
  console.log(
    `events ${n}, chunk ${chunk}, wall ${wallS.toFixed(1)} s → ${Math.round(n / wallS)} events/s sequential`,
  );
  console.log(
    `worker ${(workerUs / n).toFixed(2)} µs/event: decode and validate ${(decodeUs / n).toFixed(2)}, ` +
      `aggregate and encode ${(prepareUs / n).toFixed(2)}, send ${((workerUs - decodeUs - prepareUs) / n).toFixed(2)}`,
  );
  console.log(
    `redis CPU ${((redisS * 1e6) / n).toFixed(2)} µs/event; used_memory ${(memory / 2 ** 20).toFixed(1)} MiB`,
  );
  for (const s of stats.slice(0, 8))
    console.log(
      `  ${s.command.padEnd(24)} ${s.calls.toString().padStart(9)} calls ${((s.usec / n) | 0) === 0 ? (s.usec / n).toFixed(2) : (s.usec / n).toFixed(1)} µs/event`,
    );
} finally {
  redis.disconnect();
  await server.stop();
}
