import { EventEmitter } from "node:events";
import { createLogger } from "@vu/service-runtime";
import type { Consumer } from "kafkajs";
import { describe, expect, it, vi } from "vitest";
import type { IngestWorker } from "./app";
import { createWorkerSupervisor } from "./supervisor";

const CRASH = "consumer.crash";

/** A worker whose consumer only emits what the test tells it to; `failStarts` starts fail first. */
function fakeWorkers(failStarts = 0) {
  const built: Array<IngestWorker & { emitter: EventEmitter; stopped: boolean }> = [];
  let failures = failStarts;
  const create = () => {
    const emitter = new EventEmitter();
    const consumer = {
      events: { CRASH },
      on: (event: string, listener: (e: unknown) => void) => emitter.on(event, listener),
    } as unknown as Consumer;
    const worker = {
      emitter,
      stopped: false,
      consumer,
      async start() {
        // Only restarts fail: the first worker always starts.
        if (built.length > 1 && failures-- > 0) throw new Error("broker still away");
      },
      async stop() {
        worker.stopped = true;
      },
      ready: async () => ({ ok: true, reasons: [] }),
    };
    built.push(worker);
    return worker;
  };
  return { built, create };
}

const crash = (emitter: EventEmitter, restart: boolean) =>
  emitter.emit(CRASH, { payload: { error: new Error("no coordinator"), restart } });
const logger = createLogger("test", "silent");

describe("createWorkerSupervisor", () => {
  it("leaves crashes kafkajs restarts from to kafkajs", async () => {
    const { built, create } = fakeWorkers();
    const supervisor = createWorkerSupervisor({ create, logger });
    await supervisor.start();
    crash(built[0]?.emitter as EventEmitter, true);
    expect(built).toHaveLength(1);
    expect(supervisor.restarts).toBe(0);
  });

  it("replaces a worker kafkajs gives up on, retrying until one starts", async () => {
    const { built, create } = fakeWorkers(2);
    const supervisor = createWorkerSupervisor({ create, logger, initialDelayMs: 1, maxDelayMs: 1 });
    await supervisor.start();
    const first = built[0];
    crash(first?.emitter as EventEmitter, false);
    await vi.waitFor(() => expect(supervisor.current()).toBe(built[3]));
    expect(first?.stopped).toBe(true);
    expect(built.slice(1, 3).every((w) => w.stopped)).toBe(true);
    expect(supervisor.restarts).toBe(3);
    await supervisor.stop();
    expect(built[3]?.stopped).toBe(true);
  });

  it("starts nothing new once stopped", async () => {
    // Fake timers: the backoff between attempts passes only when the test says so, so the restart
    // loop is at a known point when stop is called, and its end is awaited, not slept on.
    vi.useFakeTimers();
    try {
      const { built, create } = fakeWorkers(1_000);
      const supervisor = createWorkerSupervisor({ create, logger, initialDelayMs: 1, maxDelayMs: 1 });
      await supervisor.start();
      crash(built[0]?.emitter as EventEmitter, false);
      for (let ms = 0; ms < 100 && built.length <= 2; ms++) await vi.advanceTimersByTimeAsync(1);
      expect(built.length).toBeGreaterThan(2);
      await supervisor.stop();
      const count = built.length;
      // Runs every backoff still pending (and what it starts) until none is left; a loop that went
      // on restarting after stop would never run out of timers and fail here.
      await vi.runAllTimersAsync();
      expect(vi.getTimerCount()).toBe(0);
      // At most the attempt in flight when stop was called; it fails, and is stopped too.
      expect(built.length).toBeLessThanOrEqual(count + 1);
      expect(built.every((w) => w.stopped)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
