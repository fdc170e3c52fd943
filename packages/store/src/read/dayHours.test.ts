import { DAY_MS, HOUR_MS } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { parseLayout, type StoredTier } from "../format/blockPlacement";
import { chainReads, daysAsHours } from "./dayHours";
import { derivedRead } from "./derivedBlocks";
import type { BlockRef } from "./readPlan";

const at = (iso: string) => Date.parse(iso);
const day = (iso: string): BlockRef => ({ tier: "day", startMs: at(`${iso}T00:00:00Z`) });
const hour = (iso: string): BlockRef => ({ tier: "hour", startMs: at(iso) });
const containers = parseLayout(["00000"]);
const keptAll = () => true;

/** Container fields as in the organization: a year of days holds ten times a month of hours. */
const fieldsLike =
  (sizes: Record<string, number>) =>
  (tier: StoredTier, startMs: number): number =>
    sizes[`${tier}:${new Date(startMs).toISOString().slice(0, 7)}`] ?? 0;
const yearOfDays = fieldsLike({ "day:2026-01": 1237, "hour:2026-11": 129, "hour:2026-12": 14 });

describe("daysAsHours", () => {
  it("reads the days of a few weeks as their hours when their month containers cost less to read", () => {
    const blocks = [hour("2026-11-02T23:00:00Z"), day("2026-11-03"), day("2026-12-01")];
    const read = daysAsHours(blocks, containers, keptAll, yearOfDays);
    expect(read).toBeDefined();
    expect(Array.from(read?.from ?? [])).toEqual([0, 1, 25, 49]);
    expect(read?.fetched[0]).toBe(blocks[0]);
    const hours = read?.fetched.slice(1, 25) ?? [];
    expect(hours.every((b) => b.tier === "hour")).toBe(true);
    expect(hours.map((b) => b.startMs - at("2026-11-03T00:00:00Z"))).toEqual(
      Array.from({ length: 24 }, (_, h) => h * HOUR_MS),
    );
    expect(read?.fetched[25]?.startMs).toBe(at("2026-12-01T00:00:00Z"));
  });

  it("keeps the days when their container is the smaller read", () => {
    const blocks = [day("2026-11-03"), day("2026-12-01")];
    const sparseYear = fieldsLike({ "day:2026-01": 100, "hour:2026-11": 129, "hour:2026-12": 14 });
    expect(daysAsHours(blocks, containers, keptAll, sparseYear)).toBeUndefined();
    // A tie reads as asked: fewer blocks to walk.
    // Days: 189 fields and 2 blocks; hours: 143 fields and 48 blocks.
    const even = fieldsLike({ "day:2026-01": 189, "hour:2026-11": 129, "hour:2026-12": 14 });
    expect(daysAsHours(blocks, containers, keptAll, even)).toBeUndefined();
  });

  it("counts a container the read fetches anyway once: hours already read cost nothing more", () => {
    // The range's edges read November's and December's hours already; the days add only their year.
    const blocks = [hour("2026-11-02T23:00:00Z"), day("2026-11-03"), hour("2026-12-01T00:00:00Z")];
    const cheapYear = fieldsLike({ "day:2026-01": 40, "hour:2026-11": 129, "hour:2026-12": 14 });
    expect(daysAsHours(blocks, containers, keptAll, cheapYear)).toBeDefined();
  });

  it("weighs the hours a day becomes: a year of days stays days for a few fewer fields", () => {
    // A small organization: its hours' containers hold about as many fields as its days' years.
    const first = at("2025-12-01T00:00:00Z");
    const year = Array.from(
      { length: 365 },
      (_, i): BlockRef => ({ tier: "day", startMs: first + i * DAY_MS }),
    );
    const months: Record<string, number> = { "day:2025-01": 20, "day:2026-01": 201 };
    for (let m = 0; m < 12; m++)
      months[`hour:${new Date(Date.UTC(2025, 11 + m)).toISOString().slice(0, 7)}`] = 16;
    expect(daysAsHours(year, containers, keptAll, fieldsLike(months))).toBeUndefined();
    // Its years a hundred times as full: their fields outweigh the hours to walk.
    months["day:2026-01"] = 100 * 201;
    expect(daysAsHours(year, containers, keptAll, fieldsLike(months))).toBeDefined();
  });

  it("reads as asked unless days and hours are both in containers", () => {
    const blocks = [day("2026-11-03")];
    for (const code of ["01000", "00100", "02000", "01100"]) {
      expect(daysAsHours(blocks, parseLayout([code]), keptAll, yearOfDays), code).toBeUndefined();
    }
    expect(daysAsHours(blocks, containers, undefined, yearOfDays)).toBeUndefined();
    expect(daysAsHours([hour("2026-11-03T05:00:00Z")], containers, keptAll, yearOfDays)).toBeUndefined();
  });

  it("reads every day as asked when any hour of any of them is no longer kept", () => {
    const blocks = [day("2025-10-30"), day("2026-11-03")];
    const hoursSince = at("2025-10-30T12:00:00Z");
    const kept = (tier: string, startMs: number) => tier !== "hour" || startMs >= hoursSince;
    expect(daysAsHours(blocks, containers, kept, yearOfDays)).toBeUndefined();
    expect(daysAsHours(blocks.slice(1), containers, kept, yearOfDays)).toBeDefined();
  });

  it("reads a derived week's days as hours, every day of it alike", () => {
    const week: BlockRef = { tier: "week", startMs: at("2026-11-16T00:00:00Z") };
    const layout = parseLayout(["000dd"]);
    const days = derivedRead([hour("2026-11-15T23:00:00Z"), week], layout);
    const hours = daysAsHours(days.fetched, layout, keptAll, yearOfDays);
    expect(hours).toBeDefined();
    const read = chainReads(days, hours ?? days);
    expect(Array.from(read.from)).toEqual([0, 1, 1 + 7 * 24]);
    expect(read.fetched.slice(1).every((b) => b.tier === "hour")).toBe(true);
    expect((read.fetched.at(-1)?.startMs ?? 0) - week.startMs).toBe(7 * DAY_MS - HOUR_MS);
  });
});
