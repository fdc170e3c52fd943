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
    children?: number[];
  }>;
  samples: number[];
}

type CallFrame = CpuProfile["nodes"][number]["callFrame"];

/** `function\tfile:line`, the file relative to the repository. */
function frameKey(frame: CallFrame): string {
  const url = frame.url.replace(/^file:\/\//, "");
  const where =
    url === "" ? "" : `${url.startsWith("/") ? relative(REPO_ROOT, url) : url}:${frame.lineNumber + 1}`;
  return `${frame.functionName || "(anonymous)"}\t${where}`;
}

function entries(counts: Map<string, number>, total: number, limit: number): ProfileEntry[] {
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([key, n]) => {
      const [fn = "", location = ""] = key.split("\t");
      return { function: fn, location, selfShare: n / total };
    });
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
    const key = frameKey(frame);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return entries(counts, profile.samples.length || 1, limit);
}

/** What `summarizeInclusive` adds up by: each function of the project, or each file and package. */
export type ProfileGrouping = "function" | "file";

/** A frame's file relative to the repository, a package by its name, Node's own as `node:`. */
function fileKey(frame: CallFrame): string | undefined {
  const url = frame.url.replace(/^file:\/\//, "");
  if (url === "") return undefined;
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg !== undefined) return `(package) ${pkg}`;
  if (url.startsWith("node:")) return "(node)";
  return url.startsWith("/") ? relative(REPO_ROOT, url) : url;
}

/**
 * Total time (itself and what it calls, each sample counted once per key on its stack) as a share
 * of the samples the process was busy (not idle): by function of the project's own code, or by
 * file and package. Where a request's phases go. An async function's total holds the stretches it
 * ran between its awaits, not the time it waited.
 */
export function summarizeInclusive(
  file: string,
  limit = 40,
  by: ProfileGrouping = "function",
): ProfileEntry[] {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const keyOf = (frame: CallFrame): string | undefined => {
    if (by === "file") return fileKey(frame);
    const own = frame.url.includes(REPO_ROOT) && !frame.url.includes("node_modules");
    return own ? frameKey(frame) : undefined;
  };
  const counts = new Map<string, number>();
  let busy = 0;
  for (const sample of profile.samples) {
    if (byId.get(sample)?.callFrame.functionName === "(idle)") continue;
    busy++;
    const seen = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)?.callFrame;
      const key = frame && keyOf(frame);
      if (key !== undefined) seen.add(key);
    }
    for (const key of seen) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return entries(counts, busy || 1, limit);
}
