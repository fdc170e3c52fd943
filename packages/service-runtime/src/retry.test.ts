import { describe, expect, it } from "vitest";
import { RetryAbortedError, retryWithBackoff } from "./retry";

describe("retryWithBackoff", () => {
  it("retries until success with growing delays", async () => {
    let calls = 0;
    const delays: number[] = [];
    const result = await retryWithBackoff(
      async () => {
        calls++;
        if (calls < 4) throw new Error("down");
        return "up";
      },
      {
        shouldContinue: () => true,
        initialDelayMs: 2,
        maxDelayMs: 8,
        onRetry: (_e, _a, d) => void delays.push(d),
      },
    );
    expect(result).toBe("up");
    expect(calls).toBe(4);
    expect(delays.every((d) => d >= 1 && d <= 8)).toBe(true);
  });

  it("gives up with the cause when told to stop, and rethrows non-retriable errors at once", async () => {
    const fail = async () => {
      throw new Error("down");
    };
    await expect(retryWithBackoff(fail, { shouldContinue: () => false })).rejects.toBeInstanceOf(
      RetryAbortedError,
    );
    let calls = 0;
    const fatal = async () => {
      calls++;
      throw new TypeError("bug");
    };
    await expect(
      retryWithBackoff(fatal, { shouldContinue: () => true, isRetriable: () => false }),
    ).rejects.toThrow("bug");
    expect(calls).toBe(1);
  });
});
