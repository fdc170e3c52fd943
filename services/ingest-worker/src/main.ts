import { loadTracingEnv, startTracing } from "@vu/service-runtime";
import { workerInstrumentations } from "./tracing";

// Tracing starts before the worker's modules load: an ES module is instrumented only when it is
// imported after the instrumentation's loader hook (service-runtime's startTracing), so the worker
// is imported here, not above.
const tracing = await startTracing({
  env: loadTracingEnv(),
  serviceName: "ingest-worker",
  instrumentations: workerInstrumentations,
});
const { runWorker } = await import("./runWorker");
await runWorker(tracing);
