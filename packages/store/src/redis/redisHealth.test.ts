import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { withTimeout } from "./redisHealth";

describe("withTimeout", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Settles `promise` into a readable state without an unhandled rejection. */
  function track<T>(promise: Promise<T>): {
    state: "pending" | "resolved" | "rejected";
    value?: T;
    error?: unknown;
  } {
    const outcome: { state: "pending" | "resolved" | "rejected"; value?: T; error?: unknown } = {
      state: "pending",
    };
    promise.then(
      (value) => {
        outcome.state = "resolved";
        outcome.value = value;
      },
      (error: unknown) => {
        outcome.state = "rejected";
        outcome.error = error;
      },
    );
    return outcome;
  }

  it("is still pending at 499 ms and rejects, naming what did not answer, at 500 ms", async () => {
    const never = new Promise<string>(() => undefined);
    const outcome = track(withTimeout(never, 500, "Redis 127.0.0.1:6379"));

    await vi.advanceTimersByTimeAsync(499);
    expect(outcome.state).toBe("pending");

    await vi.advanceTimersByTimeAsync(1);
    expect(outcome.state).toBe("rejected");
    expect(outcome.error).toBeInstanceOf(Error);
    expect((outcome.error as Error).message).toBe("Redis 127.0.0.1:6379 did not answer within 500 ms");
  });

  it("answers with the promise's value when it settles first, and leaves no timer behind", async () => {
    let answer: (value: string) => void = () => undefined;
    const reply = new Promise<string>((resolve) => {
      answer = resolve;
    });
    const outcome = track(withTimeout(reply, 500, "Redis"));

    await vi.advanceTimersByTimeAsync(499);
    answer("PONG");
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome).toEqual({ state: "resolved", value: "PONG" });
    expect(vi.getTimerCount()).toBe(0);

    await vi.advanceTimersByTimeAsync(1_000);
    expect(outcome.state).toBe("resolved");
  });

  it("passes the promise's own rejection through before the timeout", async () => {
    const outcome = track(withTimeout(Promise.reject(new Error("ECONNREFUSED")), 500, "Redis"));
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome.state).toBe("rejected");
    expect((outcome.error as Error).message).toBe("ECONNREFUSED");
    expect(vi.getTimerCount()).toBe(0);
  });
});
