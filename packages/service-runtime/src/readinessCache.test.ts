import { describe, expect, it } from "vitest";
import { cachedReadiness } from "./readinessCache";

describe("cachedReadiness", () => {
  it("runs one check for concurrent callers and reuses its verdict for the max age", async () => {
    let clock = 0;
    let checks = 0;
    let release: () => void = () => undefined;
    const check = () =>
      new Promise<{ ok: boolean; reasons: string[] }>((resolve) => {
        checks++;
        release = () => resolve({ ok: checks % 2 === 1, reasons: [`check ${checks}`] });
      });
    const ready = cachedReadiness(check, { maxAgeMs: 1_000, now: () => clock });

    const waiting = [ready(), ready(), ready()];
    release();
    expect(await Promise.all(waiting)).toEqual(Array(3).fill({ ok: true, reasons: ["check 1"] }));
    clock = 999;
    expect(await ready()).toEqual({ ok: true, reasons: ["check 1"] });
    expect(checks).toBe(1);

    clock = 1_000;
    const next = ready();
    release();
    expect(await next).toEqual({ ok: false, reasons: ["check 2"] });
    expect(checks).toBe(2);
  });

  it("does not keep a failed check: the next caller checks again", async () => {
    let checks = 0;
    const ready = cachedReadiness(async () => {
      checks++;
      if (checks === 1) throw new Error("no answer");
      return { ok: true, reasons: [] };
    });
    await expect(ready()).rejects.toThrow("no answer");
    expect(await ready()).toEqual({ ok: true, reasons: [] });
    expect(checks).toBe(2);
  });
});
