import { describe, expect, it } from "vitest";
import { CallWindow } from "./callWindow";

/** A call that settles when the test says so. */
function pending() {
  let settle: { resolve: (v: string) => void; reject: (e: Error) => void } | undefined;
  const promise = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  return { promise, settle: settle as NonNullable<typeof settle> };
}

describe("CallWindow", () => {
  it("sends synchronously while a place is free, then queues in the order made", async () => {
    const window = new CallWindow(2);
    const calls = [pending(), pending(), pending(), pending()];
    const started: number[] = [];
    const results = calls.map((call, i) =>
      window.run(() => {
        started.push(i);
        return call.promise;
      }),
    );
    // The first two were sent before run returned, with no await in between.
    expect(started).toEqual([0, 1]);
    expect([window.open, window.waiting]).toEqual([2, 2]);

    calls[1]?.settle.resolve("b");
    await expect(results[1]).resolves.toBe("b");
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);

    calls[0]?.settle.reject(new Error("timed out"));
    await expect(results[0]).rejects.toThrow("timed out");
    await Promise.resolve();
    // A failed call frees its place as an answered one does.
    expect(started).toEqual([0, 1, 2, 3]);
    expect([window.open, window.waiting]).toEqual([2, 0]);

    calls[2]?.settle.resolve("c");
    calls[3]?.settle.resolve("d");
    await expect(Promise.all(results.slice(2))).resolves.toEqual(["c", "d"]);
    expect(window.open).toBe(0);
  });

  it("frees the place of a send that throws before it returns a promise", async () => {
    const window = new CallWindow(1);
    await expect(
      window.run(() => {
        throw new TypeError("bad arguments");
      }),
    ).rejects.toThrow("bad arguments");
    await expect(window.run(async () => "next")).resolves.toBe("next");
    expect(window.open).toBe(0);
  });

  it("refuses a window without places", () => {
    expect(() => new CallWindow(0)).toThrow(RangeError);
  });
});
