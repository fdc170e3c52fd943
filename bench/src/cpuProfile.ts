import { Session } from "node:inspector/promises";

/** The V8 profiler of this process, for a stretch of code: `stop()` returns the `.cpuprofile` object. */
export async function startCpuProfile(): Promise<{ stop(): Promise<object> }> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return {
    async stop() {
      const { profile } = await session.post("Profiler.stop");
      session.disconnect();
      return profile;
    },
  };
}
