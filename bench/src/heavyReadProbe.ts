/**
 * Which Redis commands a heavy organization's uncached question makes, and how long each held
 * Redis: the noisy neighbour's heavy organization (heavyOrganization.ts) written through the store's writer
 * under a prefix of its own, its every-member-by-hour question asked once through the in-process
 * API, with Redis' slow log catching every command over 1 ms. The noisy-neighbour section reports
 * only the longest (`LATENCY LATEST`); this says which command it was.
 *
 *   npx tsx bench/src/heavyReadProbe.ts [--slice-fields 5000] [--threshold-us 1000]
 */
import { parseArgs } from "node:util";
import { decodeRecordingCompleted } from "@vu/events";
import { DEFAULT_LARGE_READ_FIELDS } from "@vu/store";
import { startApiServer } from "@vu/testkit/api";
import { HEAVY_DAYS, HEAVY_ORG, HEAVY_RECORDINGS, heavyEvents } from "./heavyOrganization";
import { fmt } from "./log";
import { deleteKeyspace } from "./redisMemory";

const { values } = parseArgs({
  options: {
    "slice-fields": { type: "string" },
    "threshold-us": { type: "string", default: "1000" },
  },
});
const NOW_MS = Date.UTC(2026, 10, 22, 12);
const api = await startApiServer({
  nowMs: NOW_MS,
  orgs: [HEAVY_ORG],
  resultCacheRows: 0,
  ...(values["slice-fields"] === undefined
    ? {}
    : { readSliceFields: Number(values["slice-fields"]), largeReadFields: DEFAULT_LARGE_READ_FIELDS }),
});

type SlowEntry = [number, number, number, Array<string | Buffer>];

try {
  const recordings = [];
  for (const input of heavyEvents(HEAVY_ORG, HEAVY_RECORDINGS, NOW_MS)) {
    const decoded = decodeRecordingCompleted(JSON.stringify(input));
    if (!decoded.ok) throw new Error(decoded.reason);
    recordings.push({ event: decoded.event, recordedAtMs: Date.parse(decoded.event.recorded_at) });
  }
  for (let i = 0; i < recordings.length; i += 5_000)
    await api.write(HEAVY_ORG, recordings.slice(i, i + 5_000));
  const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
  const path =
    `/api/v1/stats?start_date=${iso(NOW_MS - HEAVY_DAYS * 86_400_000)}&end_date=${iso(NOW_MS)}` +
    "&granularity=hour&group_by=member_email&page_size=1000";
  const threshold = values["threshold-us"] ?? "1000";
  const previous = (await api.redis.call("CONFIG", "GET", "slowlog-log-slower-than")) as string[];
  await api.redis.call("CONFIG", "SET", "slowlog-log-slower-than", threshold);
  await api.redis.call("SLOWLOG", "RESET");
  await api.redis.call("CONFIG", "SET", "latency-monitor-threshold", "1");
  await api.redis.call("LATENCY", "RESET");
  try {
    for (let ask = 1; ask <= 2; ask++) {
      const started = performance.now();
      const res = await api.get(path, api.tokenFor(HEAVY_ORG), { "cache-control": "no-cache" });
      await res.arrayBuffer();
      console.log(`question ${ask}: ${res.status} in ${fmt(performance.now() - started, 1)} ms`);
    }
    const events = (await api.redis.call("LATENCY", "LATEST")) as Array<[string, number, number, number]>;
    console.log("Redis' latency monitor (event: latest / longest ms):");
    for (const [event, , latest, longest] of events) console.log(`  ${event}: ${latest} / ${longest}`);
    const slow = (await api.redis.call("SLOWLOG", "GET", "50")) as SlowEntry[];
    console.log(`commands over ${threshold} µs (newest first):`);
    for (const [, , micros, args] of slow) {
      const shown = args.slice(0, 3).map((a) => String(a).slice(0, 60));
      console.log(
        `  ${fmt(micros / 1000, 2).padStart(7)} ms  ${shown.join(" ")}${args.length > 3 ? ` … (${args.length} args)` : ""}`,
      );
    }
  } finally {
    await api.redis.call("CONFIG", "SET", "slowlog-log-slower-than", previous[1] ?? "10000");
    await api.redis.call("CONFIG", "SET", "latency-monitor-threshold", "0");
  }
} finally {
  await deleteKeyspace(api.redis, api.keyspace);
  await api.close();
}
