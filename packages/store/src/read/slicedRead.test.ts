import { describe, expect, it } from "vitest";
import { onceEach, planSlices } from "./slicedRead";

describe("planSlices", () => {
  it("packs whole keys in order into slices of at most the budget", () => {
    const reads = [{ key: "a" }, { key: "b" }, { key: "c" }, { key: "d" }];
    expect(planSlices(reads, [40, 50, 30, 100], 100)).toEqual([
      [
        { read: 0, whole: true },
        { read: 1, whole: true },
      ],
      [{ read: 2, whole: true }],
      [{ read: 3, whole: true }],
    ]);
  });

  it("pages a key larger than the budget alone, and cuts long lists of named fields", () => {
    const fields = Array.from({ length: 250 }, (_, i) => `f${i}`);
    const reads = [{ key: "small" }, { key: "huge" }, { key: "named", fields }, { key: "none", fields: [] }];
    expect(planSlices(reads, [10, 5_000, 0, 0], 100)).toEqual([
      [{ read: 0, whole: true }],
      [{ read: 1, scan: true, size: 5_000 }],
      [{ read: 2, from: 0, to: 100 }],
      [{ read: 2, from: 100, to: 200 }],
      [{ read: 2, from: 200, to: 250 }],
    ]);
  });

  it("keeps each field of HSCAN pages once, however often it came back", () => {
    const b = (text: string) => Buffer.from(text);
    const pages = [
      [b("a"), b("1"), b("b"), b("2")],
      [b("b"), b("2"), b("c"), b("3")],
    ];
    expect(onceEach(pages).map(String)).toEqual(["a", "1", "b", "2", "c", "3"]);
  });
});
