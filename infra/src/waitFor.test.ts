import { describe, expect, it } from "vitest";
import { waitFor } from "./waitFor";

describe("waitFor", () => {
  it("resolves with the first truthy value, treating throws as not yet", async () => {
    let calls = 0;
    const value = await waitFor(
      () => {
        calls += 1;
        if (calls < 2) throw new Error("refused");
        return calls < 3 ? undefined : "ready";
      },
      { intervalMs: 1 },
    );
    expect(value).toBe("ready");
    expect(calls).toBe(3);
  });

  it("names the condition and the last error when it times out", async () => {
    await expect(
      waitFor(
        () => {
          throw new Error("connection refused");
        },
        { timeoutMs: 30, intervalMs: 5, message: "the broker" },
      ),
    ).rejects.toThrow(/the broker: last error: connection refused/);
  });

  it("does not hang on an attempt that never settles", async () => {
    await expect(waitFor(() => new Promise<boolean>(() => {}), { timeoutMs: 30 })).rejects.toThrow(
      /Timed out/,
    );
  });
});
