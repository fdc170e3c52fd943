/**
 * The ingest path without Kafka: the worker's decode → aggregate → apply-script steps over a seeded
 * data set, against a private redis-server, one chunk at a time (no overlap), so each side's CPU per
 * event is measured alone. A quick loop for working on the apply script and the aggregation; the
 * full bench (`run.ts`) measures the real pipeline.
 *
 * `--shape single` (the default): the events are the first `--events` of the large organization's
 * `--dataset`-sized data set, so they arrive as densely in time as in that run (10M: about 17 a
 * minute). `--shape many`: the first `--events` of the multi-tenant data set of `--dataset`
 * recordings over `--orgs` organizations (manyOrgDataset.ts), all organizations interleaved in
 * time as a shared topic delivers them.
 *
 * After the run: Redis bytes per event (`used_memory` after minus before), split into the cells
 * (field and value bytes of every rollup hash, read in full: exact) and the key overhead (the rest:
 * key names, Redis' per-key and per-field structures, the dedupe state, the combination tables),
 * and keys per event, as the store classifies its keys (redisMemory.ts).
 *
 * `--to`: where the data set ends (default 2026-11-22T00:00Z); it starts 13 months earlier at the
 * same time of day, which decides how densely its first recordings come (the layout rule judges
 * those).
 *
 * `--sketches`: the writer keeps percentile sketches (the worker's PERCENTILE_SKETCHES,
 * docs/decisions/0027-percentile-sketches.md), to compare their cost with a run without.
 *
 *   npx tsx bench/src/ingestPath.ts [--shape single|many] [--orgs 10000] [--dataset 10000000]
 *                                   [--events 300000] [--chunk 50000] [--sketches]
 *                                   [--to 2026-11-22T00:00:00Z]
 */
import { parseArgs } from "node:util";
import type { RecordingCompletedInput } from "@vu/events";
import { startRedisServer } from "@vu/infra";
import { CHUNK_LIMITS, chunkEnd, validateAndGroup } from "@vu/ingest-worker";
import { createKeyspace, createLogPosition, createRedisClient, createRollupWriter } from "@vu/store";
import { buildDataset } from "./dataset";
import { buildManyOrgDataset, DEFAULT_ORGS } from "./manyOrgDataset";
import { commandStats, commandStatsDelta, redisInfo } from "./redisInfo";
import { bytesPerEvent, type KeyGroup, memoryBreakdown } from "./redisMemory";

const SHAPES = ["single", "many"] as const;
const { values } = parseArgs({
  options: {
    shape: { type: "string", default: "single" },
    orgs: { type: "string", default: String(DEFAULT_ORGS) },
    dataset: { type: "string", default: "10000000" },
    events: { type: "string", default: "300000" },
    chunk: { type: "string", default: String(CHUNK_LIMITS.messages) },
    sketches: { type: "boolean", default: false },
    to: { type: "string", default: "2026-11-22T00:00:00Z" },
  },
});
const shape = SHAPES.find((s) => s === values.shape);
if (shape === undefined) throw new Error(`--shape must be one of ${SHAPES.join(", ")}, got ${values.shape}`);
const orgs = Number(values.orgs);
const size = Number(values.dataset);
const take = Number(values.events);
const limits = { ...CHUNK_LIMITS, messages: Number(values.chunk) };
const SEED = 42;
const TO_MS = Date.parse(values.to);
if (!Number.isFinite(TO_MS)) throw new Error(`--to must be an ISO timestamp, got ${values.to}`);

/** The events to apply, and a line saying what they are. */
function source(): { events: Iterable<RecordingCompletedInput>; label: string } {
  if (shape === "single") {
    return {
      events: buildDataset(size, SEED, TO_MS).parts[0]?.events ?? [],
      label: `the large organization of buildDataset(${size})`,
    };
  }
  const dataset = buildManyOrgDataset({ total: size, orgs, seed: SEED, toMs: TO_MS });
  const { largest, median, smallest } = dataset;
  return {
    events: dataset.events,
    label:
      `${orgs} organizations, ${size} recordings: largest ${largest.count}, ` +
      `median ${median.count}, smallest ${smallest.count}`,
  };
}

const sum = (groups: Record<string, KeyGroup>, of: (g: KeyGroup) => number) =>
  Object.values(groups).reduce((n, g) => n + of(g), 0);

const server = await startRedisServer({ appendonly: false });
const redis = createRedisClient(server.url);
try {
  const { events, label } = source();
  const generating = performance.now();
  const messages: Array<{ key: Buffer; value: Buffer; offset: string; timestamp: string }> = [];
  const seenOrgs = new Set<string>();
  let lastAt = "";
  for (const event of events) {
    if (messages.length === take) break;
    seenOrgs.add(event.organization_id);
    lastAt = event.recorded_at;
    messages.push({
      key: Buffer.from(event.organization_id),
      value: Buffer.from(JSON.stringify(event)),
      offset: String(messages.length),
      // Written at the data set's end, as a producer at that time would have.
      timestamp: String(TO_MS),
    });
  }
  console.log(
    `${shape}: ${label}; the first ${messages.length} events (${seenOrgs.size} organizations, ` +
      `up to ${lastAt.slice(0, 10)}) generated in ${((performance.now() - generating) / 1000).toFixed(1)} s`,
  );
  const keyspace = createKeyspace({ prefix: "ingest-path" });
  const writer = createRollupWriter({
    redis,
    keyspace,
    dedupeWindowMs: 7 * 86_400_000,
    sketches: values.sketches,
  });
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
  const usedMemory = async () => Number((await redisInfo(redis, "memory")).get("used_memory"));
  const memoryBefore = await usedMemory();
  const statsBefore = await commandStats(redis);
  const redisBefore = await redisCpu();
  let workerUs = 0;
  let decodeUs = 0;
  let prepareUs = 0;
  const started = performance.now();
  for (let first = 0, end = 0; first < messages.length; first = end) {
    end = chunkEnd(messages, first, limits);
    const t0 = process.cpuUsage();
    const sorted = validateAndGroup(messages.slice(first, end), { futureToleranceMs: 86_400_000 });
    const t1a = process.cpuUsage(t0);
    const throughOffset = String(end - 1);
    const origin = { partition, throughOffset };
    const prepared = [...sorted.byOrg].map(([org, recordings]) => writer.prepare(org, recordings, origin));
    const t1b = process.cpuUsage(t0);
    // As the worker does: organizations that may share a script call share one.
    const applying = writer
      .groups(prepared)
      .map((group) => writer.applyGroup(1, group, { checkpoint }).run());
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
  const memory = await usedMemory();
  const n = messages.length;
  console.log(
    `events ${n}, chunks of ${limits.messages} (${limits.perKey} per organization), wall ${wallS.toFixed(1)} s → ${Math.round(n / wallS)} events/s sequential`,
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
  const breakdown = await memoryBreakdown(redis, keyspace, memory - memoryBefore, { payload: true });
  const perEvent = bytesPerEvent(breakdown, n);
  const rollupKeys = sum(breakdown.tiers, (g) => g.keys);
  const otherKeys = sum(breakdown.other, (g) => g.keys);
  const keys = rollupKeys + breakdown.seen.keys + otherKeys;
  console.log(
    `redis ${perEvent.total.toFixed(1)} B/event (used_memory Δ): cells ${perEvent.cells.toFixed(1)} ` +
      `(field+value bytes of ${sum(breakdown.tiers, (g) => g.fields)} rollup fields, exact), ` +
      `key overhead ${perEvent.keyOverhead.toFixed(1)} (of it dedupe ${perEvent.dedupe.toFixed(1)})`,
  );
  console.log(
    `keys ${(keys / n).toFixed(3)}/event (${keys}): rollup ${(rollupKeys / n).toFixed(3)}, ` +
      `dedupe ${(breakdown.seen.keys / n).toFixed(3)}, other ${(otherKeys / n).toFixed(3)}; ` +
      `rollup keys by tier ${Object.entries(breakdown.tiers)
        .map(([tier, g]) => `${tier} ${g.keys}`)
        .join(", ")}`,
  );
} finally {
  redis.disconnect();
  await server.stop();
}
