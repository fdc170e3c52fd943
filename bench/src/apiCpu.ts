/**
 * What one question costs the deployed query API: `services/query-api/src/main.ts` as a child
 * process (one API process, its own logging and middleware), over a private redis-server holding a
 * data set written once through the store's writer (the worker's code path). Each question is sent
 * `--requests` times one after another by one client; per question it prints the p50 latency, the
 * API process' CPU per request (/proc, user + system) and Redis' reads (round trips: one per
 * pipeline or lone command the server read) and commands per request. `--profile` runs the API
 * under `--cpu-prof` and prints its top functions by self and by total time (the profile covers
 * every question asked: narrow it with `--only`).
 *
 *   npx tsx bench/src/apiCpu.ts [--dataset 1000000] [--requests 1000] [--profile] [--only tiny:hour,a]
 *
 * Questions: a 200-recording organization's (`tiny:`) dimensions (kept and computed), default `/stats?granularity=hour`
 * (30 days ending now: always computed), summary, a fixed 30-day hourly range computed and
 * kept, and up to twelve months by month × member (`tiny:year`, computed: starting no earlier
 * than the hours still kept, so its days may be read as hours, dayHours.ts); the large
 * organization's 7-day hourly questions (a: Berlin, f: Kolkata, the dashboard set's) computed
 * (`Cache-Control: no-cache`) and kept; the tiny organization's dashboard set (`tiny:a` …
 * `tiny:f-utc`, dashboardQueries.ts), computed.
 */
import { Agent, request } from "node:http";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { generateEvents, smallOrganization } from "@vu/demo-data";
import { decodeRecordingCompleted, type RecordingCompletedInput } from "@vu/events";
import { startRedisServer } from "@vu/infra";
import { type CountableRecording, createRedisClient } from "@vu/store";
import { startApiServer } from "@vu/testkit/api";
import { startApi } from "./apiService";
import { OUT_DIR } from "./childService";
import { dashboardQueries } from "./dashboardQueries";
import { buildDataset } from "./dataset";
import { summarize } from "./latencyStats";
import { fmt, log } from "./log";
import { processCpuSeconds } from "./processCpu";
import { profileOf, summarizeInclusive, summarizeProfile } from "./profileSummary";
import { redisInfo } from "./redisInfo";

const { values } = parseArgs({
  options: {
    dataset: { type: "string", default: "1000000" },
    requests: { type: "string", default: "1000" },
    warmup: { type: "string", default: "200" },
    only: { type: "string" },
    profile: { type: "boolean", default: false },
  },
});
const size = Number(values.dataset);
const requests = Number(values.requests);
const warmup = Number(values.warmup);
/** A fixed anchor, so every run asks the same questions of the same data. */
const ANCHOR_MS = Date.UTC(2026, 10, 22, 12);
const TINY_ORG = "bench-tiny";
const TINY_RECORDINGS = 200;
const PREFIX = "api-cpu";
const TINY_PROFILE = smallOrganization(TINY_ORG, 7);

interface Question {
  id: string;
  org: string;
  path: string;
  headers?: Record<string, string>;
}

const COMPUTE = { "cache-control": "no-cache" };

function questions(dataset: ReturnType<typeof buildDataset>): Question[] {
  const isoZ = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
  const month = `start_date=${isoZ(ANCHOR_MS - 30 * 86_400_000)}&end_date=${isoZ(ANCHOR_MS)}`;
  // Twelve months back from the anchor, or from the first UTC day whose hours the API (on the real
  // clock) still keeps: every hour of it kept, so days may be read as hours.
  const hoursKeptFrom = Math.ceil((Date.now() - 399 * 86_400_000) / 86_400_000) * 86_400_000;
  const yearStart = Math.max(ANCHOR_MS - 365 * 86_400_000, hoursKeptFrom);
  const year = `start_date=${isoZ(yearStart)}&end_date=${isoZ(ANCHOR_MS)}`;
  const large = dataset.large.organizationId;
  const asked = dashboardQueries({ ...dataset, org: dataset.large });
  const pathOf = (id: string) => asked.find((q) => q.id === id)?.path ?? "";
  return [
    { id: "tiny:dimensions", org: TINY_ORG, path: "/api/v1/stats/dimensions" },
    { id: "tiny:dimensions-computed", org: TINY_ORG, path: "/api/v1/stats/dimensions", headers: COMPUTE },
    { id: "tiny:hour", org: TINY_ORG, path: "/api/v1/stats?granularity=hour" },
    { id: "tiny:summary", org: TINY_ORG, path: "/api/v1/stats/summary" },
    { id: "tiny:month", org: TINY_ORG, path: `/api/v1/stats?granularity=hour&${month}`, headers: COMPUTE },
    {
      id: "tiny:year",
      org: TINY_ORG,
      path: `/api/v1/stats?granularity=month&group_by=member_email&${year}`,
      headers: COMPUTE,
    },
    { id: "tiny:month-kept", org: TINY_ORG, path: `/api/v1/stats?granularity=hour&${month}` },
    { id: "a", org: large, path: pathOf("a"), headers: COMPUTE },
    { id: "f", org: large, path: pathOf("f"), headers: COMPUTE },
    { id: "a-kept", org: large, path: pathOf("a") },
    { id: "f-kept", org: large, path: pathOf("f") },
    // The tiny organization's dashboard set, computed: what the multi-tenant report's smallest asks.
    ...dashboardQueries({ fromMs: dataset.fromMs, toMs: dataset.toMs, org: TINY_PROFILE }).map((q) => ({
      id: `tiny:${q.id}`,
      org: TINY_ORG,
      path: q.path,
      headers: COMPUTE,
    })),
  ];
}

/** Every event of the data set and the tiny organization's, as the writer takes them. */
function* recordings(dataset: ReturnType<typeof buildDataset>): Generator<CountableRecording> {
  const tiny = generateEvents({
    profile: TINY_PROFILE,
    seed: 7,
    fromMs: dataset.fromMs,
    toMs: dataset.toMs,
    count: TINY_RECORDINGS,
    idPrefix: TINY_ORG,
  });
  const all: Iterable<RecordingCompletedInput>[] = [...dataset.parts.map((p) => p.events), tiny];
  for (const events of all) {
    for (const input of events) {
      const decoded = decodeRecordingCompleted(JSON.stringify(input));
      if (!decoded.ok) throw new Error(`generated event is invalid: ${decoded.reason}`);
      yield { event: decoded.event, recordedAtMs: Date.parse(decoded.event.recorded_at) };
    }
  }
}

/** Writes the data set with the store's writer and opens a live epoch with an as-of instant. */
async function seed(redisUrl: string, dataset: ReturnType<typeof buildDataset>): Promise<void> {
  const writer = await startApiServer({ nowMs: ANCHOR_MS, redisUrl, prefix: PREFIX });
  try {
    const started = performance.now();
    let batch: CountableRecording[] = [];
    let org = "";
    let n = 0;
    for (const recording of recordings(dataset)) {
      if (recording.event.organization_id !== org || batch.length === 5000) {
        if (batch.length > 0) await writer.write(org, batch);
        batch = [];
        org = recording.event.organization_id;
      }
      batch.push(recording);
      n++;
    }
    if (batch.length > 0) await writer.write(org, batch);
    await writer.setDataAsOf(ANCHOR_MS);
    log(`seeded ${fmt(n)} events in ${fmt((performance.now() - started) / 1000, 1)} s`);
  } finally {
    await writer.close();
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function get(baseUrl: string, question: Question, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}${question.path}`,
      { agent, headers: { authorization: `Bearer ${token}`, ...question.headers } },
      (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on("end", () =>
          res.statusCode === 200 ? resolve(bytes) : reject(new Error(`${question.id}: ${res.statusCode}`)),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

async function main(): Promise<void> {
  const dataset = buildDataset(size, 42, ANCHOR_MS);
  const server = await startRedisServer({ appendonly: false });
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  const redis = createRedisClient(server.url);
  try {
    await seed(server.url, dataset);
    api = await startApi({
      runId: "api-cpu",
      redis,
      redisUrl: server.url,
      prefix: PREFIX,
      profile: values.profile,
      processes: 1,
    });
    const only = values.only?.split(",");
    const asked = questions(dataset).filter((q) => !only || only.includes(q.id));
    const tokens = new Map<string, string>();
    for (const q of asked) if (!tokens.has(q.org)) tokens.set(q.org, await api.tokenFor(q.org));
    const baseUrl = api.baseUrl;
    for (const q of asked) {
      const token = tokens.get(q.org) as string;
      for (let i = 0; i < warmup; i++) await get(baseUrl, q, token);
      const cpuBefore = processCpuSeconds(api.api.pid);
      const statsBefore = await redisInfo(redis, "stats");
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < requests; i++) {
        const t0 = performance.now();
        bytes = await get(baseUrl, q, token);
        times.push(performance.now() - t0);
      }
      const cpuMs = ((processCpuSeconds(api.api.pid) - cpuBefore) * 1000) / requests;
      const statsAfter = await redisInfo(redis, "stats");
      // The INFO call itself is one read and one command.
      const per = (field: string) =>
        (Number(statsAfter.get(field)) - Number(statsBefore.get(field)) - 1) / requests;
      const s = summarize(times);
      console.log(
        `${q.id.padEnd(16)} p50 ${fmt(s.p50, 3).padStart(7)} ms  p90 ${fmt(s.p90, 3).padStart(7)} ms` +
          `  API CPU ${fmt(cpuMs, 3).padStart(6)} ms  Redis reads ${fmt(per("total_reads_processed"), 2)}` +
          `  commands ${fmt(per("total_commands_processed"), 1)}  ${fmt(bytes)} B`,
      );
    }
  } finally {
    agent.destroy();
    await api?.api.stop();
    redis.disconnect();
    await server.dispose();
  }
  if (values.profile && api !== undefined) printProfile(api.api.pid);
}

/** The API's profile (startApi's `--cpu-prof`, written as it exits): its top functions. */
function printProfile(pid: number): void {
  const file = profileOf(join(OUT_DIR, "prof"), pid);
  if (file === undefined) {
    console.log("no profile of the API was written");
    return;
  }
  console.log(`\nprofile ${file}\nself time:`);
  for (const e of summarizeProfile(file, 30))
    console.log(`${(e.selfShare * 100).toFixed(1).padStart(5)} %  ${e.function}  ${e.location}`);
  for (const by of ["file", "function"] as const) {
    console.log(`\ntotal time of the busy samples, by ${by}:`);
    for (const e of summarizeInclusive(file, 60, by))
      console.log(`${(e.selfShare * 100).toFixed(1).padStart(5)} %  ${e.function}  ${e.location}`);
  }
}

await main();
