import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO_ROOT } from "./childService";

export interface ProfileEntry {
  function: string;
  location: string;
  /** Share of all samples spent in this function itself (not its callees). */
  selfShare: number;
}

interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }>;
  samples: number[];
}

/**
 * The main thread's `.cpuprofile` of a process (`CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile`):
 * tsx's loader thread writes one too, so the largest of the pid's files is taken.
 */
export function profileOf(dir: string, pid: number): string | undefined {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith(".cpuprofile") && f.split(".")[3] === String(pid))
      .map((f) => join(dir, f))
      .sort((a, b) => statSync(b).size - statSync(a).size)[0];
  } catch {
    return undefined;
  }
}

/**
 * Self time per function from a V8 CPU profile (`node --cpu-prof`), the top `limit`: where the
 * process burns its core, without opening a profiler UI.
 */
export function summarizeProfile(file: string, limit = 15): ProfileEntry[] {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const counts = new Map<string, number>();
  for (const id of profile.samples) {
    const frame = frames.get(id);
    if (frame === undefined) continue;
    const url = frame.url.replace(/^file:\/\//, "");
    const where =
      url === "" ? "" : `${url.startsWith("/") ? relative(REPO_ROOT, url) : url}:${frame.lineNumber + 1}`;
    const key = `${frame.functionName || "(anonymous)"}\t${where}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const total = profile.samples.length || 1;
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([key, n]) => {
      const [fn = "", location = ""] = key.split("\t");
      return { function: fn, location, selfShare: n / total };
    });
}
