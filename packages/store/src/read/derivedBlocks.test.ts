import { describe, expect, it } from "vitest";
import { parseLayout } from "../format/blockPlacement";
import { cellsAsked, derivedRead } from "./derivedBlocks";

const at = (iso: string) => Date.parse(iso);
const week = { tier: "week" as const, startMs: at("2026-11-16T00:00:00Z") };
const month = { tier: "month" as const, startMs: at("2026-02-01T00:00:00Z") };
const hour = { tier: "hour" as const, startMs: at("2026-11-16T10:00:00Z") };

describe("derivedRead", () => {
  it("fetches a derived week or month as its UTC days and every other block as itself", () => {
    const read = derivedRead([hour, week, month], parseLayout(["000dd"]));
    expect(Array.from(read.from)).toEqual([0, 1, 8, 36]);
    expect(read.fetched[0]).toBe(hour);
    expect(read.fetched.slice(1, 8).map((b) => new Date(b.startMs).toISOString().slice(0, 10))).toEqual([
      "2026-11-16",
      "2026-11-17",
      "2026-11-18",
      "2026-11-19",
      "2026-11-20",
      "2026-11-21",
      "2026-11-22",
    ]);
    expect(read.fetched.slice(8).every((b) => b.tier === "day")).toBe(true);
    expect(read.fetched[35]?.startMs).toBe(at("2026-02-28T00:00:00Z"));
  });

  it("reads blocks that started before the tier was stored from their days, later ones from the tier", () => {
    const layout = parseLayout([
      "00122",
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      String(week.startMs),
      null,
    ]);
    const later = { tier: "week" as const, startMs: week.startMs + 7 * 86_400_000 };
    const read = derivedRead([week, later, month], layout);
    expect(Array.from(read.from)).toEqual([0, 7, 8, 9]);
    expect(read.fetched[7]).toBe(later);
    expect(read.fetched[8]).toBe(month);
    // Stored from the start: nothing is derived.
    expect(derivedRead([week, month], parseLayout(["00000"])).fetched).toEqual([week, month]);
  });
});

describe("cellsAsked", () => {
  it("joins a block's fetched cells into one list, keeping a single part's own array", () => {
    const a = [Buffer.from("1"), Buffer.from("x")];
    const b = [Buffer.from("1"), Buffer.from("y")];
    const read = { fetched: [], from: Int32Array.from([0, 1, 4]) };
    const asked = cellsAsked(read, [a, b, [], a]);
    expect(asked[0]).toBe(a);
    expect(asked[1]).toEqual([...b, ...a]);
  });
});
