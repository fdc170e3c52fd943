import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";

/** A command Redis ran, its name upper-cased: `["HGET", key, field]`. */
export type LoggedCommand = string[];

export interface RedisCommandLog {
  /** Every command Redis ran since the last call (or the start) with an argument `watched` picks. */
  take(watched: (arg: string) => boolean): Promise<LoggedCommand[]>;
  close(): Promise<void>;
}

/**
 * What a request really asks of Redis, seen through MONITOR (tests only: MONITOR slows Redis).
 * Redis reports commands in the order it runs them, so once a marker command sent after a
 * request shows up, every command that request caused has been seen. Give it a Redis of its own
 * (`startRedisServer`): other clients' commands arriving while ioredis' monitor connection still
 * waits for a reply of its own break it ("Command queue state error").
 */
export async function createRedisCommandLog(url: string): Promise<RedisCommandLog> {
  const client = new Redis(url);
  const monitor = await client.monitor();
  let seen: LoggedCommand[] = [];
  let waiting: { marker: string; done: () => void } | undefined;
  monitor.on("monitor", (_time: string, args: string[]) => {
    const command = [String(args[0]).toUpperCase(), ...args.slice(1)];
    if (waiting !== undefined && command[0] === "ECHO" && command[1] === waiting.marker) waiting.done();
    else seen.push(command);
  });
  return {
    async take(watched) {
      const marker = `command-log-marker:${randomUUID()}`;
      const arrived = new Promise<void>((done) => {
        waiting = { marker, done };
      });
      await client.echo(marker);
      await arrived;
      const taken = seen.filter((command) => command.some(watched));
      seen = [];
      return taken;
    },
    async close() {
      monitor.disconnect();
      await client.quit();
    },
  };
}
