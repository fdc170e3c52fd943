// Child entry (tracedProcess.ts): the ingest worker traced into memory, for `startTracedWorker`.
import { workerInstrumentations } from "@vu/ingest-worker/tracing";
import { serveParent, startRecordedTracing, type TracedWorkerOptions, tracedOptions } from "../tracedProcess";

const exporter = await startRecordedTracing("ingest-worker", workerInstrumentations);
const { testKafka } = await import("../kafka");
const { startInProcessWorker } = await import("../worker");
const { names } = tracedOptions<TracedWorkerOptions>();
const worker = await startInProcessWorker({ kafka: testKafka(), names });
serveParent(exporter, {}, () => worker.stop());
