import { DateTime, IANAZone } from "luxon";
import { describe, expect, it } from "vitest";
import { TransitionTableZone } from "./transitionTableZone";

const HOUR = 3_600_000;

describe("TransitionTableZone", () => {
  it("answers every offset, label and calendar step exactly as the IANA zone, across transitions", () => {
    for (const name of ["Europe/Berlin", "America/St_Johns", "Asia/Kathmandu", "Australia/Lord_Howe"]) {
      const iana = IANAZone.create(name);
      const table = new TransitionTableZone(iana);
      // Every 15 minutes through the weeks around the northern and southern transitions, twice
      // (the second pass answers from memory).
      const windows = [
        [Date.UTC(2026, 2, 25), Date.UTC(2026, 3, 8)],
        [Date.UTC(2026, 8, 30), Date.UTC(2026, 9, 8)],
        [Date.UTC(2026, 9, 22), Date.UTC(2026, 10, 4)],
      ];
      const mismatches: number[] = [];
      for (let pass = 0; pass < 2; pass++) {
        for (const [from = 0, to = 0] of windows) {
          for (let t = from; t < to; t += HOUR / 4)
            if (table.offset(t) !== iana.offset(t)) mismatches.push(t);
        }
      }
      expect(mismatches).toEqual([]);
      for (const t of [
        Date.UTC(2026, 2, 29, 0, 30),
        Date.UTC(2026, 9, 25, 0, 30),
        Date.UTC(2026, 10, 1, 5),
      ]) {
        const a = DateTime.fromMillis(t, { zone: table });
        const b = DateTime.fromMillis(t, { zone: iana });
        expect(a.toISO()).toBe(b.toISO());
        expect(a.startOf("day").plus({ days: 1 }).toMillis()).toBe(
          b.startOf("day").plus({ days: 1 }).toMillis(),
        );
        expect(a.startOf("month").toISO()).toBe(b.startOf("month").toISO());
      }
      expect(table.equals(iana)).toBe(true);
      expect(table.name).toBe(name);
    }
  });
});
