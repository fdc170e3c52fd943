import { describe, expect, it } from "vitest";
import { createBoundedCache } from "./boundedCache";

/** A cache of strings sized by their length, counting how often each key was built. */
function counted(budget: number) {
  const cache = createBoundedCache<string>(budget, (value) => value.length);
  const builds = new Map<string, number>();
  const get = (key: string, value = key) =>
    cache.get(key, () => {
      builds.set(key, (builds.get(key) ?? 0) + 1);
      return value;
    });
  return { get, builds };
}

describe("createBoundedCache", () => {
  it("builds a key once and returns the held value after", () => {
    const cache = createBoundedCache<number[]>(10, (value) => value.length);
    const first = cache.get("a", () => [1, 2]);
    expect(cache.get("a", () => [3])).toBe(first);
  });

  it("drops the least recently used values to stay within its budget", () => {
    const { get, builds } = counted(6);
    get("aa");
    get("bb");
    get("cc");
    get("aa"); // now "bb" is the least recently used
    get("dd");
    get("aa");
    get("cc");
    expect(builds.get("aa")).toBe(1);
    expect(builds.get("cc")).toBe(1);
    get("bb");
    expect(builds.get("bb")).toBe(2);
  });

  it("returns but does not keep a value larger than the whole budget", () => {
    const { get, builds } = counted(3);
    get("a");
    expect(get("huge", "x".repeat(4))).toBe("xxxx");
    get("huge", "x".repeat(4));
    expect(builds.get("huge")).toBe(2);
    get("a");
    expect(builds.get("a")).toBe(1);
  });
});
