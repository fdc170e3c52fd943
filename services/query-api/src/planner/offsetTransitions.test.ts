import { IANAZone } from "luxon";
import { describe, expect, it } from "vitest";
import { OffsetTransitions } from "./offsetTransitions";

const DAY = 86_400_000;

/** A synthetic zone: offset `base` with steps at the given instants, counting its questions. */
function steppedZone(base: number, steps: Array<[at: number, offset: number]>) {
  const asked = { count: 0 };
  const offsetAt = (t: number) => {
    asked.count++;
    let offset = base;
    for (const [at, next] of steps) if (t >= at) offset = next;
    return offset;
  };
  return { asked, offsetAt };
}

describe("OffsetTransitions", () => {
  it("finds every change within a day to the millisecond, several in one day too", () => {
    const day = 20_000 * DAY;
    const steps: Array<[number, number]> = [
      [day + 3_600_000 + 1, 60],
      [day + 7_200_000 + 999, 120],
      [day + 10 * 3_600_000, 90],
      [day + 2 * DAY, 0], // at a day's start: the next day's change
    ];
    const zone = steppedZone(0, steps);
    const table = new OffsetTransitions(zone.offsetAt);
    const mismatches: number[] = [];
    const check = (t: number) => {
      if (table.offset(t) !== zone.offsetAt(t)) mismatches.push(t);
    };
    for (let t = day - DAY; t < day + 3 * DAY; t += 9_973) check(t);
    for (const [at] of steps) for (const t of [at - 1, at, at + 1]) check(t);
    expect(mismatches).toEqual([]);
  });

  it("asks about a day without a change only at its two ends, and never twice", () => {
    const zone = steppedZone(330, []);
    const table = new OffsetTransitions(zone.offsetAt);
    const start = 20_000 * DAY;
    for (let t = start; t < start + 7 * DAY; t += 3_600_000) table.offset(t);
    expect(zone.asked.count).toBe(8);
    for (let t = start; t < start + 7 * DAY; t += 60_000) table.offset(t);
    expect(zone.asked.count).toBe(8);
  });

  it("agrees with the zone database around every transition of zones with odd rules, 1970-2040", () => {
    // Half-hour DST (Lord Howe), Ramadan suspensions a month apart (Casablanca), 45-minute offsets
    // (Kathmandu, Chatham), a zone that skipped a day (Apia), negative half hours (St John's,
    // Caracas), and a plain one (Berlin).
    const names = [
      "Europe/Berlin",
      "America/St_Johns",
      "America/Caracas",
      "Asia/Kathmandu",
      "Australia/Lord_Howe",
      "Africa/Casablanca",
      "Pacific/Chatham",
      "Pacific/Apia",
    ];
    for (const name of names) {
      const iana = IANAZone.create(name);
      const table = new OffsetTransitions((t) => iana.offset(t));
      const mismatches: string[] = [];
      const check = (t: number) => {
        if (table.offset(t) !== iana.offset(t)) mismatches.push(new Date(t).toISOString());
      };
      // Every 8 hours over seventy years: each change of offset seen this way is a transition,
      // found exactly by bisecting against the zone itself, then checked a millisecond either side.
      const step = 8 * 3_600_000;
      let previous = iana.offset(Date.UTC(1970, 0, 1));
      for (let t = Date.UTC(1970, 0, 1); t < Date.UTC(2040, 0, 1); t += step) {
        const offset = iana.offset(t);
        if (table.offset(t) !== offset) mismatches.push(new Date(t).toISOString());
        if (offset !== previous) {
          let lo = t - step;
          let hi = t;
          while (hi - lo > 1) {
            const mid = Math.floor((lo + hi) / 2);
            if (iana.offset(mid) === previous) lo = mid;
            else hi = mid;
          }
          for (const u of [hi - 60_000, hi - 1, hi, hi + 1, hi + 60_000]) check(u);
          previous = offset;
        }
      }
      expect({ name, mismatches: mismatches.slice(0, 5) }).toEqual({ name, mismatches: [] });
    }
  }, 120_000);
});
