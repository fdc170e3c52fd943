import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** TCP state LISTEN in /proc/net/tcp's `st` column. */
const LISTEN = "0A";

/** Socket inodes listening on `port` (IPv4 and IPv6), from /proc/net/tcp{,6}. */
function listeningInodes(port: number): Set<string> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (local?.endsWith(`:${hexPort}`) && fields[3] === LISTEN && fields[9]) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/**
 * The process listening on a local TCP port (the Kafka broker the bench produces to, for its CPU),
 * found through the socket's inode among /proc/<pid>/fd; undefined when the port is not local,
 * nothing listens, or the process is not ours to read (another user's, a container's).
 */
export function listeningPid(port: number): number | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (target.startsWith("socket:[") && inodes.has(target.slice(8, -1))) return pid;
      } catch {
        // The descriptor closed while we looked.
      }
    }
  }
  return undefined;
}

/** The first broker's process, when it runs on this machine: `127.0.0.1:9092` → its pid. */
export function brokerPid(brokers: readonly string[]): number | undefined {
  const [host, port] = (brokers[0] ?? "").split(":");
  const local = host === "127.0.0.1" || host === "localhost" || host === "::1";
  return local && port ? listeningPid(Number(port)) : undefined;
}
