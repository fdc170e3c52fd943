import { loadTracingEnv, startTracing } from "@vu/service-runtime";
import { apiInstrumentations } from "./tracing";

// Tracing starts before the API's modules load: an ES module is instrumented only when it is
// imported after the instrumentation's loader hook (service-runtime's startTracing), so the API is
// imported here, not above.
const tracing = await startTracing({
  env: loadTracingEnv(),
  serviceName: "query-api",
  instrumentations: apiInstrumentations,
});
const { runApi } = await import("./runApi");
await runApi(tracing);
