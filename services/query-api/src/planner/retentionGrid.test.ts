import { DAY_MS, DEFAULT_RETENTION, HOUR_MS, isBlockKept, type Retention } from "@vu/time-buckets";
import { FixedOffsetZone, IANAZone } from "luxon";
import { describe, expect, it } from "vitest";
import { keptAt } from "./block";
import { cutBuckets } from "./bucketCutting";
import { ceilToGrid, floorToGrid, gridAt, nearestOnGrid, snapBuckets } from "./retentionGrid";

const now = Date.parse("2026-11-22T12:00:00Z");
/**
 * Most cases below are about the hour and day grids, which the default retention reaches only after
 * 400 days (quarter hours are kept as long as hours): they run with quarter hours kept only as
 * long as minutes, a configuration the ladder allows. `defaultKept` is the default.
 */
const isKept = keptAt({ now, retention: { ...DEFAULT_RETENTION, quarter: DEFAULT_RETENTION.minute } });
const defaultKept = keptAt({ now, retention: DEFAULT_RETENTION });
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe("gridAt", () => {
  it("uses minutes within 35 days, quarter hours within 400 days, days beyond (default retention)", () => {
    expect(gridAt(at("2026-11-20T10:17:00Z"), defaultKept)).toBe("minute");
    expect(gridAt(at("2026-10-01T10:17:00Z"), defaultKept)).toBe("quarter");
    expect(gridAt(at("2025-11-01T10:17:00Z"), defaultKept)).toBe("quarter");
    expect(gridAt(at("2025-01-01T10:17:00Z"), defaultKept)).toBe("day");
  });

  it("uses minutes within 35 days, hours within 400 days, days beyond (quarters kept as minutes)", () => {
    expect(gridAt(at("2026-11-20T10:17:00Z"), isKept)).toBe("minute");
    expect(gridAt(at("2026-10-01T10:17:00Z"), isKept)).toBe("hour");
    expect(gridAt(at("2025-01-01T10:17:00Z"), isKept)).toBe("day");
    expect(gridAt(at("1990-01-01T10:17:00Z"), isKept)).toBe("day");
  });

  it("decides by the first block of the parent span: the minute grid needs the whole UTC hour", () => {
    const edge = now - 35 * DAY_MS; // the oldest minute block still kept
    // A time in the hour that starts exactly at the edge is on the minute grid...
    const hourAtEdge = Math.ceil(edge / HOUR_MS) * HOUR_MS;
    expect(gridAt(hourAtEdge + 30 * 60_000, isKept)).toBe("minute");
    // ...but not a time in the hour before it, whose first minutes are gone.
    expect(gridAt(hourAtEdge - 1, isKept)).toBe("hour");
  });

  it("checks the coarser spans too when a configuration keeps hours barely longer than minutes", () => {
    const tight: Retention = { ...DEFAULT_RETENTION, minute: 35 * DAY_MS, hour: 35 * DAY_MS };
    const kept = keptAt({ now, retention: tight });
    // 35 days ago at 20:00 UTC: its hour's minutes are kept, but the hour blocks back to that UTC
    // midnight (used by a cover ending here) are not.
    const t = at("2026-10-18T20:30:00Z");
    expect(isBlockKept(tight, "minute", at("2026-10-18T20:00:00Z"), now)).toBe(true);
    expect(gridAt(t, kept)).toBe("day");
  });

  it("falls back to months when days expire, and throws when months are gone too", () => {
    const shortDays: Retention = { ...DEFAULT_RETENTION, day: 800 * DAY_MS, month: 5000 * DAY_MS };
    const kept = keptAt({ now, retention: shortDays });
    expect(gridAt(at("2023-06-15T10:00:00Z"), kept)).toBe("month");
    expect(() => gridAt(at("2000-06-15T10:00:00Z"), kept)).toThrow(/month blocks must be kept/);
  });
});

describe("floorToGrid / ceilToGrid / nearestOnGrid", () => {
  it("widens range bounds onto the grid and leaves grid points alone", () => {
    expect(iso(floorToGrid(at("2026-10-01T18:30:00Z"), isKept))).toBe("2026-10-01T18:00:00.000Z");
    expect(iso(ceilToGrid(at("2026-10-01T18:30:00Z"), isKept))).toBe("2026-10-01T19:00:00.000Z");
    expect(iso(floorToGrid(at("2025-01-01T22:00:00Z"), isKept))).toBe("2025-01-01T00:00:00.000Z");
    expect(iso(ceilToGrid(at("2025-01-01T22:00:00Z"), isKept))).toBe("2025-01-02T00:00:00.000Z");
    expect(iso(floorToGrid(at("2026-11-20T18:30:00Z"), isKept))).toBe("2026-11-20T18:30:00.000Z");
  });

  it("moves to the nearest grid point, the earlier on a tie", () => {
    expect(iso(nearestOnGrid(at("2026-10-01T18:30:00Z"), isKept))).toBe("2026-10-01T18:00:00.000Z");
    expect(iso(nearestOnGrid(at("2026-10-01T18:15:00Z"), isKept))).toBe("2026-10-01T18:00:00.000Z");
    expect(iso(nearestOnGrid(at("2026-10-01T18:45:00Z"), isKept))).toBe("2026-10-01T19:00:00.000Z");
    expect(iso(nearestOnGrid(at("2025-01-01T23:00:00Z"), isKept))).toBe("2025-01-02T00:00:00.000Z");
    expect(iso(nearestOnGrid(at("2025-01-01T12:00:00Z"), isKept))).toBe("2025-01-01T00:00:00.000Z");
    expect(iso(nearestOnGrid(at("2026-11-20T18:30:00Z"), isKept))).toBe("2026-11-20T18:30:00.000Z");
  });
});

describe("snapBuckets", () => {
  const snapDays = (zone: string, startIso: string, endIso: string) => {
    const range = { startMs: floorToGrid(at(startIso), isKept), endMs: ceilToGrid(at(endIso), isKept) };
    const buckets = snapBuckets(cutBuckets(range, "day", IANAZone.create(zone)), range, isKept);
    return { range, buckets };
  };

  it("keeps Asia/Kolkata and Asia/Kathmandu days older than 35 days exact by default (quarter hours)", () => {
    for (const [zone, offset] of [
      ["Asia/Kolkata", "18:30"],
      ["Asia/Kathmandu", "18:15"],
    ] as const) {
      const start = at(`2026-09-30T${offset}:00Z`);
      const range = {
        startMs: floorToGrid(start, defaultKept),
        endMs: ceilToGrid(start + 3 * DAY_MS, defaultKept),
      };
      const unsnapped = cutBuckets(range, "day", IANAZone.create(zone));
      expect(range.startMs).toBe(start);
      expect(snapBuckets(unsnapped, range, defaultKept)).toEqual(unsnapped);
    }
  });

  it("moves Asia/Kolkata day boundaries older than 35 days to the nearest UTC hour", () => {
    const { buckets } = snapDays("Asia/Kolkata", "2026-09-30T18:30:00Z", "2026-10-03T18:30:00Z");
    expect(buckets.map((b) => `${b.label} ${iso(b.startMs)}`)).toEqual([
      "2026-10-01T00:00:00.000+05:30 2026-09-30T18:00:00.000Z",
      "2026-10-02T00:00:00.000+05:30 2026-10-01T18:00:00.000Z",
      "2026-10-03T00:00:00.000+05:30 2026-10-02T18:00:00.000Z",
      // The end was widened from 18:30Z to 19:00Z, into the local 4th; the tie at 18:30Z goes to
      // the earlier hour, so that bucket holds the hour 18:00Z–19:00Z.
      "2026-10-04T00:00:00.000+05:30 2026-10-03T18:00:00.000Z",
    ]);
    expect(iso(buckets.at(-1)?.endMs ?? 0)).toBe("2026-10-03T19:00:00.000Z");
  });

  it("moves Europe/Berlin day boundaries older than 400 days to the nearest UTC day", () => {
    const { range, buckets } = snapDays("Europe/Berlin", "2025-01-09T23:00:00Z", "2025-01-12T23:00:00Z");
    expect(iso(range.startMs)).toBe("2025-01-09T00:00:00.000Z");
    expect(buckets.map((b) => `${b.label} ${iso(b.startMs)} ${iso(b.endMs)}`)).toEqual([
      // The widened start reaches back into the local 9th: its bucket is kept, boundaries at 23:00Z
      // move forward to midnight UTC.
      "2025-01-09T00:00:00.000+01:00 2025-01-09T00:00:00.000Z 2025-01-10T00:00:00.000Z",
      "2025-01-10T00:00:00.000+01:00 2025-01-10T00:00:00.000Z 2025-01-11T00:00:00.000Z",
      "2025-01-11T00:00:00.000+01:00 2025-01-11T00:00:00.000Z 2025-01-12T00:00:00.000Z",
      "2025-01-12T00:00:00.000+01:00 2025-01-12T00:00:00.000Z 2025-01-13T00:00:00.000Z",
    ]);
  });

  it("never moves recent boundaries", () => {
    const { range, buckets } = snapDays("Asia/Kathmandu", "2026-11-09T18:15:00Z", "2026-11-12T18:15:00Z");
    const unsnapped = cutBuckets(range, "day", IANAZone.create("Asia/Kathmandu"));
    expect(buckets).toEqual(unsnapped);
    expect(buckets).toHaveLength(3);
  });

  it("drops buckets that become empty and keeps the rest monotonic and exact", () => {
    // Hour buckets of an old Berlin day: all boundaries move to one of two UTC midnights.
    const range = { startMs: at("2025-01-10T00:00:00Z"), endMs: at("2025-01-12T00:00:00Z") };
    const cut = cutBuckets(range, "hour", IANAZone.create("Europe/Berlin"));
    const snapped = snapBuckets(cut, range, isKept);
    expect(cut).toHaveLength(48);
    // Boundaries up to 12:00Z (a tie) move back to midnight, later ones forward: the bucket of the
    // local hour 13:00 (12:00Z–13:00Z) is the one that spans a whole UTC day.
    expect(snapped.map((b) => `${b.label} ${iso(b.startMs)} ${iso(b.endMs)}`)).toEqual([
      "2025-01-10T13:00:00.000+01:00 2025-01-10T00:00:00.000Z 2025-01-11T00:00:00.000Z",
      "2025-01-11T13:00:00.000+01:00 2025-01-11T00:00:00.000Z 2025-01-12T00:00:00.000Z",
    ]);
  });

  it("snaps forward and backward in a fixed zone 45 minutes off the hour", () => {
    const zone = FixedOffsetZone.instance(-45);
    const range = { startMs: at("2026-10-01T00:00:00Z"), endMs: at("2026-10-03T00:00:00Z") };
    const snapped = snapBuckets(cutBuckets(range, "day", zone), range, isKept);
    expect(snapped.map((b) => iso(b.startMs))).toEqual([
      "2026-10-01T00:00:00.000Z",
      "2026-10-01T01:00:00.000Z",
      "2026-10-02T01:00:00.000Z",
    ]);
  });
});
