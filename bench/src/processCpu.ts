import { existsSync, readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's CPU counters (USER_HZ); 100 on every mainstream Linux. */
const TICKS_PER_SECOND = 100;

/** Fields of /proc/<pid>/stat after the command name (which may contain spaces); undefined when gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** The running processes below `pid` (the API's processes under its cluster primary, for one). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    const child = Number(entry);
    if (!Number.isInteger(child)) continue;
    const parent = Number(statFields(child)?.[1]);
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const found: number[] = [];
  for (let queue = [pid]; queue.length > 0; ) {
    const next = children.get(queue.pop() as number) ?? [];
    found.push(...next);
    queue = queue.concat(next);
  }
  return found;
}

/**
 * CPU seconds a process and its running descendants have used (user + system), from
 * /proc/<pid>/stat; 0 where /proc is missing. The bench's own process counts alone: its children
 * are the services, measured apart.
 */
export function processCpuSeconds(pid: number): number {
  let seconds = 0;
  const tree = pid === process.pid || !existsSync("/proc") ? [pid] : [pid, ...descendants(pid)];
  for (const each of tree) {
    const fields = statFields(each);
    if (fields !== undefined) seconds += (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  }
  return seconds;
}

/** Busy CPU seconds of the whole machine, all cores together. */
export function machineBusySeconds(): number {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
    const [, ...values] = line.trim().split(/\s+/);
    const n = values.map(Number);
    const idle = (n[3] ?? 0) + (n[4] ?? 0);
    const total = n.reduce((a, b) => a + b, 0);
    return (total - idle) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

export interface CpuWindow {
  seconds: number;
  /** Share of one core each process used over the window (1 = one full core). */
  cores: Record<string, number>;
  /** Share of one core the whole machine used (2 = both cores of a 2-core machine). */
  machineCores: number;
}

/** Starts measuring the named processes; `end()` returns their average core use since. */
export function measureCpu(pids: Record<string, number>): { end(): CpuWindow } {
  const started = performance.now();
  const before = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, processCpuSeconds(pid)]),
  );
  const machineBefore = machineBusySeconds();
  return {
    end() {
      const seconds = (performance.now() - started) / 1000;
      const cores: Record<string, number> = {};
      for (const [name, pid] of Object.entries(pids)) {
        cores[name] = (processCpuSeconds(pid) - (before[name] ?? 0)) / seconds;
      }
      return { seconds, cores, machineCores: (machineBusySeconds() - machineBefore) / seconds };
    },
  };
}
