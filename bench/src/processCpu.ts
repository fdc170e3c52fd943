import { readFileSync } from "node:fs";

/** Clock ticks per second of /proc's CPU counters (USER_HZ); 100 on every mainstream Linux. */
const TICKS_PER_SECOND = 100;

/** CPU seconds a process has used (user + system), from /proc/<pid>/stat; 0 where /proc is missing. */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
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
