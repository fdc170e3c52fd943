/**
 * The read path without Kafka or child processes: a data set written once into Redis through the
 * store's writer (the worker's code path) under a kept prefix, then the API in process, each
 * dashboard query sent back to back from one client. A quick loop for working on the planner and
 * the reader, with an optional CPU profile of the query loop (its top self-time entries printed).
 * The full bench (`run.ts`) measures the deployed service.
 *
 *   npx tsx bench/src/queryPath.ts [--dataset 1000000] [--requests 200] [--profile] [--only b,f]
 *   npx tsx bench/src/queryPath.ts --dataset 1000000 --drop     # remove the kept prefix
 */
import { writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { decodeRecordingCompleted } from "@vu/events";
import { createApp } from "@vu/query-api";
import { createLogger } from "@vu/service-runtime";
import {
  type CountableRecording,
  createKeyspace,
  createRedisClient,
  createRollupReader,
  createRollupWriter,
  createTokenStore,
} from "@vu/store";
import { DEFAULT_RETENTION } from "@vu/time-buckets";
import { OUT_DIR } from "./childService";
import { startCpuProfile } from "./cpuProfile";
import { dashboardQueries } from "./dashboardQueries";
import { allEvents, buildDataset } from "./dataset";
import { summarize } from "./latencyStats";
import { fmt } from "./log";
import { deletePrefix } from "./redisMemory";

const { values } = parseArgs({
  options: {
    dataset: { type: "string", default: "1000000" },
    requests: { type: "string", default: "200" },
    only: { type: "string" },
    profile: { type: "boolean", default: false },
    drop: { type: "boolean", default: false },
  },
});
const size = Number(values.dataset);
const requests = Number(values.requests);
/** A fixed anchor, so the kept data set answers the same queries on every run. */
const ANCHOR_MS = Date.UTC(2026, 10, 22, 12);
const prefix = `query-path-${size}`;

const redis = createRedisClient(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
const keyspace = createKeyspace({ prefix });
const dataset = buildDataset(size, 42, ANCHOR_MS);

async function seed(): Promise<void> {
  const reader = createRollupReader({ redis, keyspace });
  if ((await reader.extent(await reader.generation(), dataset.large.organizationId)) !== null) return;
  const writer = createRollupWriter({ redis, keyspace, dedupeWindowMs: 60_000, now: () => ANCHOR_MS });
  const byOrg = new Map<string, CountableRecording[]>();
  const flush = async () => {
    await Promise.all([...byOrg].map(([org, recordings]) => writer.apply(1, org, recordings)));
    byOrg.clear();
  };
  let n = 0;
  const started = performance.now();
  for (const input of allEvents(dataset)) {
    const decoded = decodeRecordingCompleted(JSON.stringify(input));
    if (!decoded.ok) throw new Error(`generated event is invalid: ${decoded.reason}`);
    const list = byOrg.get(decoded.event.organization_id) ?? [];
    list.push({ event: decoded.event, recordedAtMs: Date.parse(decoded.event.recorded_at) });
    byOrg.set(decoded.event.organization_id, list);
    if (++n % 5000 === 0) await flush();
  }
  await flush();
  console.log(`seeded ${fmt(n)} events in ${fmt((performance.now() - started) / 1000, 1)} s`);
}

async function main(): Promise<void> {
  if (values.drop) {
    console.log(`unlinked ${fmt(await deletePrefix(redis, prefix))} keys`);
    return;
  }
  await seed();
  const tokens = createTokenStore({ redis, keyspace });
  const app = createApp({
    redis,
    keyspace,
    reader: createRollupReader({ redis, keyspace }),
    tokens,
    logger: createLogger("query-path", "silent"),
    config: { retention: DEFAULT_RETENTION, rateLimitPerMinute: 1e9, tokenCacheMs: 60_000 },
    now: () => ANCHOR_MS,
  });
  const server = app.listen(0);
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { token } = await tokens.create(dataset.large.organizationId, "query-path");
  const only = values.only?.split(",");
  const queries = dashboardQueries(dataset).filter((q) => !only || only.includes(q.id));
  const get = async (path: string) => {
    const res = await fetch(baseUrl + path, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${res.status} ${body.slice(0, 300)}`);
    return body.length;
  };
  try {
    for (const q of queries) for (let i = 0; i < 20; i++) await get(q.path);
    const profile = values.profile ? await startCpuProfile() : undefined;
    for (const q of queries) {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < requests; i++) {
        const t0 = performance.now();
        bytes = await get(q.path);
        times.push(performance.now() - t0);
      }
      const s = summarize(times);
      console.log(
        `(${q.id}) ${q.title.padEnd(36)} p50 ${fmt(s.p50, 2).padStart(7)} ms  p99 ${fmt(s.p99, 2).padStart(7)} ms  ${fmt(bytes / 1024)} KiB`,
      );
    }
    if (profile) {
      const file = join(OUT_DIR, `query-path-${Date.now()}.cpuprofile`);
      writeFileSync(file, JSON.stringify(await profile.stop()));
      const { summarizeProfile } = await import("./profileSummary");
      for (const e of summarizeProfile(file, 25))
        console.log(`${(e.selfShare * 100).toFixed(1).padStart(5)} %  ${e.function}  ${e.location}`);
    }
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

try {
  await main();
} finally {
  redis.disconnect();
}
