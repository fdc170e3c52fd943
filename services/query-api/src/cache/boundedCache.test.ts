import { describe, expect, it } from "vitest";
import { createBoundedCache } from "./boundedCache";

describe("createBoundedCache", () => {
  it("forgets an entry ttlMs after it was set", () => {
    let now = 1_000;
    const cache = createBoundedCache<string>({ maxEntries: 10, ttlMs: 100, now: () => now });
    cache.set("a", "A");
    now += 99;
    expect(cache.get("a")).toBe("A");
    now += 1;
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("evicts the least recently used entry when full, never everything", () => {
    const cache = createBoundedCache<number>({ maxEntries: 3, ttlMs: 60_000 });
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect(cache.get("a")).toBe(1); // a is now the most recently used
    cache.set("d", 4);
    expect(cache.size).toBe(3);
    expect(cache.get("b")).toBeUndefined();
    expect([cache.get("a"), cache.get("c"), cache.get("d")]).toEqual([1, 3, 4]);
  });

  it("keeps a used entry through a flood of new keys only while it is used more recently", () => {
    const cache = createBoundedCache<string>({ maxEntries: 100, ttlMs: 60_000 });
    cache.set("valid", "v");
    for (let i = 0; i < 10_000; i++) {
      cache.set(`junk-${i}`, "x");
      if (i % 50 === 0) expect(cache.get("valid")).toBe("v");
    }
    expect(cache.size).toBe(100);
  });

  it("replaces a value and restarts its time to live", () => {
    let now = 0;
    const cache = createBoundedCache<string>({ maxEntries: 2, ttlMs: 10, now: () => now });
    cache.set("a", "old");
    now = 8;
    cache.set("a", "new");
    now = 15;
    expect(cache.get("a")).toBe("new");
    cache.delete("a");
    expect(cache.get("a")).toBeUndefined();
  });

  it("evicts by weight as well as by count, and keeps nothing heavier than the limit", () => {
    const cache = createBoundedCache<number[]>({
      maxEntries: 100,
      ttlMs: 60_000,
      maxWeight: 10,
      weigh: (rows) => rows.length,
    });
    cache.set("a", [1, 2, 3, 4]);
    cache.set("b", [1, 2, 3, 4]);
    expect(cache.get("a")).toHaveLength(4); // b is now the least recently used
    cache.set("c", [1, 2, 3]);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toHaveLength(4);
    expect(cache.get("c")).toHaveLength(3);
    cache.set(
      "huge",
      Array.from({ length: 11 }, (_, i) => i),
    );
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.size).toBe(2);
    // Replacing an entry releases its old weight.
    cache.set("a", [1]);
    cache.set("d", [1, 2, 3, 4, 5, 6]);
    expect([cache.get("a"), cache.get("c"), cache.get("d")?.length]).toEqual([[1], [1, 2, 3], 6]);
  });
});
