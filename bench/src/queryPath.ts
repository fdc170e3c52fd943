/**
 * The read path without Kafka or child processes: a data set written once into Redis through the
 * store's writer (the worker's code path) under a kept prefix, then the API in process, each
 * dashboard query sent back to back from one client. A quick loop for working on the planner and
 * the reader: per query its p50 and p99, and the process' CPU per request (user + system: the API
 * and the client, steadier than latency on a busy machine), with an optional CPU profile of the
 * query loop (its top self-time entries printed).
 * The full bench (`run.ts`) measures the deployed service.
 *
 *   npx tsx bench/src/queryPath.ts [--dataset 1000000] [--requests 200] [--profile] [--only b,f]
 *                                  [--slice-fields 5000]   # READ_SLICE_FIELDS, to compare slice sizes
 *   npx tsx bench/src/queryPath.ts --dataset 1000000 --drop     # remove the kept prefix
 *   npx tsx bench/src/queryPath.ts --percentiles 50,95,99        # every query asks for percentiles
 *                                                                # (docs/contract.md §9), to compare
 *   npx tsx bench/src/queryPath.ts --include active_members      # every query asks for active members
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { decodeRecordingCompleted } from "@vu/events";
import { type CountableRecording, DEFAULT_LARGE_READ_FIELDS } from "@vu/store";
import { startApiServer } from "@vu/testkit/api";
import { OUT_DIR } from "./childService";
import { startCpuProfile } from "./cpuProfile";
import { dashboardQueries } from "./dashboardQueries";
import { allEvents, buildDataset } from "./dataset";
import { summarize } from "./latencyStats";
import { fmt } from "./log";
import { summarizeProfile } from "./profileSummary";
import { deleteKeyspace } from "./redisMemory";

const { values } = parseArgs({
  options: {
    dataset: { type: "string", default: "1000000" },
    requests: { type: "string", default: "200" },
    only: { type: "string" },
    profile: { type: "boolean", default: false },
    drop: { type: "boolean", default: false },
    "slice-fields": { type: "string" },
    percentiles: { type: "string" },
    include: { type: "string" },
  },
});
const size = Number(values.dataset);
const requests = Number(values.requests);
/** A fixed anchor, so the kept data set answers the same queries on every run. */
const ANCHOR_MS = Date.UTC(2026, 10, 22, 12);
const dataset = buildDataset(size, 42, ANCHOR_MS);
const org = dataset.large.organizationId;
// The test kit's in-process API, on a prefix kept between runs (written once, read many times).
const api = await startApiServer({
  nowMs: ANCHOR_MS,
  prefix: `query-path-${size}`,
  orgs: [org],
  tokenCacheMs: 60_000,
  // The path of a query computed from the rollups, not of a kept answer (the result cache).
  resultCacheRows: 0,
  ...(values["slice-fields"] === undefined
    ? {}
    : { readSliceFields: Number(values["slice-fields"]), largeReadFields: DEFAULT_LARGE_READ_FIELDS }),
});

async function seed(): Promise<void> {
  if ((await api.redis.exists(api.keyspace.extent(1, org))) === 1) return;
  const byOrg = new Map<string, CountableRecording[]>();
  const flush = async () => {
    await Promise.all([...byOrg].map(([o, recordings]) => api.write(o, recordings)));
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

/**
 * With `--percentiles`, every query asks for them too (the kit's writer keeps the sketches); with
 * `--include active_members`, for the active members.
 */
const asked =
  (values.percentiles === undefined ? "" : `&percentiles=${values.percentiles}`) +
  (values.include === undefined ? "" : `&include=${values.include}`);

async function get(path: string): Promise<number> {
  const res = await api.get(`${path}${asked}`, api.tokenFor(org));
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${res.status} ${body.slice(0, 300)}`);
  return body.length;
}

async function main(): Promise<void> {
  if (values.drop) {
    console.log(`unlinked ${fmt(await deleteKeyspace(api.redis, api.keyspace))} keys`);
    return;
  }
  await seed();
  const only = values.only?.split(",");
  const queries = dashboardQueries({ ...dataset, org: dataset.large }).filter(
    (q) => !only || only.includes(q.id),
  );
  for (const q of queries) for (let i = 0; i < 20; i++) await get(q.path);
  const profile = values.profile ? await startCpuProfile() : undefined;
  for (const q of queries) {
    const times: number[] = [];
    let bytes = 0;
    const cpu = process.cpuUsage();
    for (let i = 0; i < requests; i++) {
      const t0 = performance.now();
      bytes = await get(q.path);
      times.push(performance.now() - t0);
    }
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000 / requests;
    const s = summarize(times);
    console.log(
      `(${q.id}) ${q.title.padEnd(40)} p50 ${fmt(s.p50, 2).padStart(7)} ms  p99 ${fmt(s.p99, 2).padStart(7)} ms  cpu ${fmt(cpuMs, 2).padStart(6)} ms  ${fmt(bytes / 1024)} KiB`,
    );
  }
  if (profile) {
    mkdirSync(OUT_DIR, { recursive: true });
    const file = join(OUT_DIR, `query-path-${Date.now()}.cpuprofile`);
    writeFileSync(file, JSON.stringify(await profile.stop()));
    for (const e of summarizeProfile(file, 25))
      console.log(`${(e.selfShare * 100).toFixed(1).padStart(5)} %  ${e.function}  ${e.location}`);
  }
}

try {
  await main();
} finally {
  await api.close();
}
