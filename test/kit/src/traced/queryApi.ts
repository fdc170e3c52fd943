// Child entry (tracedProcess.ts): the query API traced into memory, for `startTracedApi`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apiInstrumentations } from "@vu/query-api/tracing";
import { serveParent, startRecordedTracing, type TracedApiOptions, tracedOptions } from "../tracedProcess";

const exporter = await startRecordedTracing("query-api", apiInstrumentations);
const { startApiServer } = await import("../api");
const { nowMs, orgs, recordings = {}, largeReadProcess = false } = tracedOptions<TracedApiOptions>();

async function start() {
  if (!largeReadProcess) {
    const api = await startApiServer({ nowMs, orgs });
    return { api, stop: () => api.close() };
  }
  const dir = mkdtempSync(join(tmpdir(), "vu-traced-large-reads-"));
  const socketPath = join(dir, "large-reads.sock");
  const largeReads = await startApiServer({
    nowMs,
    orgs,
    readSliceFields: 100,
    role: { kind: "largeReads" },
    socketPath,
  });
  const front = await startApiServer({
    nowMs,
    prefix: largeReads.keyspace.prefix,
    tokens: largeReads.tokens,
    readSliceFields: 100,
    role: { kind: "forwards", socketPath },
  });
  const stop = async () => {
    await Promise.all([front.close(), largeReads.close()]);
    rmSync(dir, { recursive: true, force: true });
  };
  return { api: front, stop };
}

const { api, stop } = await start();
for (const [org, written] of Object.entries(recordings)) await api.write(org, written);
serveParent(
  exporter,
  { baseUrl: api.baseUrl, opsUrl: api.opsUrl, tokens: Object.fromEntries(api.tokens) },
  stop,
);
