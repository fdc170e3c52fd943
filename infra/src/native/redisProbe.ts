import { Redis } from "ioredis";

/** A short-lived client that fails fast instead of queueing commands while it reconnects. */
function probeClient(url: string, timeoutMs: number): Redis {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // Refused connections are the expected answer while a server starts; keep them off the console.
  client.on("error", () => {});
  return client;
}

/** Runs one command against a fresh connection and closes it. */
export async function redisCommand(url: string, command: string, args: string[] = [], timeoutMs = 1_000) {
  const client = probeClient(url, timeoutMs);
  try {
    await client.connect();
    return await client.call(command, ...args);
  } finally {
    client.disconnect();
  }
}

/** True when the server at `url` answers PING. */
export async function redisAnswers(url: string, timeoutMs = 1_000): Promise<boolean> {
  try {
    return (await redisCommand(url, "PING", [], timeoutMs)) === "PONG";
  } catch {
    return false;
  }
}

export function redisUrl(port: number, host = "127.0.0.1"): string {
  return `redis://${host}:${port}`;
}
