// Child entry (tracedProcess.ts): the query API traced into memory, for `startTracedApi`.
import { apiInstrumentations } from "@vu/query-api/tracing";
import { serveParent, startRecordedTracing, type TracedApiOptions, tracedOptions } from "../tracedProcess";

const exporter = await startRecordedTracing("query-api", apiInstrumentations);
const { startApiServer } = await import("../api");
const { nowMs, orgs } = tracedOptions<TracedApiOptions>();
const api = await startApiServer({ nowMs, orgs });
serveParent(exporter, { baseUrl: api.baseUrl, tokens: Object.fromEntries(api.tokens) }, () => api.close());
