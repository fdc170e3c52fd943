import { DAY_MS, DEFAULT_RETENTION, HOUR_MS, MINUTE_MS } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import {
  containerOf,
  derivesTiers,
  LAYOUT_FIELDS,
  LAYOUT_RULE,
  layoutArguments,
  layoutOf,
  parseLayout,
  placementBy,
  STORED_TIERS,
} from "./blockPlacement";

const at = (iso: string) => Date.parse(iso);

describe("containerOf", () => {
  it("puts minutes in their UTC day, hours in their month, days, weeks and months in their year", () => {
    expect(containerOf("minute", at("2026-11-20T10:59:00Z"))).toMatchObject({
      startMs: at("2026-11-20T00:00:00Z"),
      endMs: at("2026-11-21T00:00:00Z"),
      index: 10 * 60 + 59,
      prefix: "659:",
    });
    // The 20th at 10:00: 19 days and 10 hours into November.
    expect(containerOf("hour", at("2026-11-20T10:00:00Z"))).toMatchObject({
      startMs: at("2026-11-01T00:00:00Z"),
      endMs: at("2026-12-01T00:00:00Z"),
      index: 19 * 24 + 10,
    });
    expect(containerOf("day", at("2026-02-28T00:00:00Z"))).toMatchObject({
      startMs: at("2026-01-01T00:00:00Z"),
      endMs: at("2027-01-01T00:00:00Z"),
      index: 31 + 27,
    });
    expect(containerOf("month", at("2026-12-01T00:00:00Z"))).toMatchObject({
      startMs: at("2026-01-01T00:00:00Z"),
      endMs: at("2027-01-01T00:00:00Z"),
      index: 11,
    });
  });

  it("gives every week starting in a year its own index there, the year's first Monday first", () => {
    const indexes = [];
    for (let monday = at("2024-01-01T00:00:00Z"); monday < at("2025-01-01T00:00:00Z"); monday += 7 * DAY_MS) {
      const place = containerOf("week", monday);
      expect(place.startMs).toBe(at("2024-01-01T00:00:00Z"));
      indexes.push(place.index);
    }
    expect(indexes).toEqual(Array.from({ length: 53 }, (_, i) => i));
    // A week that starts in December belongs to that year, not to the one it ends in.
    expect(containerOf("week", at("2025-12-29T00:00:00Z")).startMs).toBe(at("2025-01-01T00:00:00Z"));
  });
});

describe("the layout rule", () => {
  const { minRecordings, perBlock, perPeriod, leastSpanMs } = LAYOUT_RULE;

  it("moves a tier to keyed blocks once its containers would hold many recordings, to projected blocks once its blocks do", () => {
    // 100,000 recordings over 400 days: 250 a day, 10 an hour, 1,750 a week.
    const n = 100_000;
    const span = 400 * DAY_MS;
    expect(placementBy("minute", n, span, "container")).toBe("container");
    expect(placementBy("hour", n, span, "container")).toBe("keyed");
    expect(placementBy("day", n, span, "container")).toBe("projected");
    expect(placementBy("month", n, span, "container")).toBe("projected");
    // The same within one hour: even minutes hold ~1,700 each.
    expect(STORED_TIERS.every((tier) => placementBy(tier, n, HOUR_MS, "container") === "projected")).toBe(
      true,
    );
  });

  it("never moves a tier back, and keeps an organization in containers below its minimum, however bursty", () => {
    expect(placementBy("minute", minRecordings, 400 * DAY_MS, "keyed")).toBe("keyed");
    expect(placementBy("minute", minRecordings - 1, 0, "container")).toBe("container");
    expect(perPeriod).toBeGreaterThan(perBlock);
  });

  it("judges a span shorter than a day as a day: a burst at an organization's start is not its rate", () => {
    expect(leastSpanMs).toBe(DAY_MS);
    // 1,000 recordings in the busiest 27 minutes average 37 a minute, but its minutes stay in
    // containers; as 1,000 a day its hours average 42: projected.
    expect(placementBy("minute", minRecordings, 27 * MINUTE_MS, "container")).toBe("container");
    expect(placementBy("hour", minRecordings, 27 * MINUTE_MS, "container")).toBe("projected");
    // 32 a minute for a whole day is dense in minutes; within an hour, as well.
    const dense = (perBlock * DAY_MS) / MINUTE_MS;
    expect(placementBy("minute", dense, DAY_MS, "container")).toBe("projected");
    expect(placementBy("minute", dense, HOUR_MS, "container")).toBe("projected");
    expect(placementBy("minute", dense - 1, HOUR_MS, "container")).toBe("keyed");
    // 256 an hour for a day: keyed minutes.
    expect(placementBy("minute", 256 * 24, 0, "container")).toBe("keyed");
    expect(placementBy("minute", 256 * 24 - 1, 0, "container")).toBe("container");
    // Past a day, the span is the data's own.
    expect(placementBy("minute", dense, 2 * DAY_MS, "container")).toBe("keyed");
  });

  it("judges an organization it knows nothing of by one batch: containers while small, as dense as the batch is", () => {
    expect(layoutOf(minRecordings - 1, 0, false).code).toBe("00000");
    // A backfill of 5,000 recordings over 30 days: 7 an hour, 167 a day.
    expect(layoutOf(5_000, 30 * DAY_MS, false).placement).toEqual({
      minute: "container",
      hour: "keyed",
      day: "projected",
      week: "projected",
      month: "projected",
    });
  });

  it("derives a new organization's weeks and months from its days while the days are in containers", () => {
    expect(layoutOf(minRecordings - 1, 0, true).code).toBe("000dd");
    // 5,000 recordings over 400 days: about 380 every 30 days, so days leave their containers,
    // and weeks and months are stored where the rule puts them (about 90 a week: projected).
    expect(layoutOf(5_000, 400 * DAY_MS, true).code).toBe("00122");
    // 2,000 over 400 days: 150 every 30 days, days stay in containers and weeks and months derived.
    expect(layoutOf(2_000, 400 * DAY_MS, true).code).toBe("000dd");
    expect(layoutOf(5_000, 30 * DAY_MS, true).code).toBe("01222");
    expect(placementBy("week", 100_000, 400 * DAY_MS, "derived", "container")).toBe("derived");
    expect(placementBy("week", 100_000, 400 * DAY_MS, "derived", "keyed")).toBe("projected");
    expect(placementBy("week", minRecordings - 1, 0, "derived", "projected")).toBe("derived");
    // Derived blocks are only as lasting as their days.
    expect(derivesTiers(DEFAULT_RETENTION)).toBe(true);
    expect(derivesTiers({ ...DEFAULT_RETENTION, day: 400 * DAY_MS })).toBe(false);
  });

  it("passes the same rule to the apply script, and reads a stored layout back", () => {
    expect(layoutArguments(DEFAULT_RETENTION)).toBe(
      `${minRecordings} ${perPeriod} ${perBlock} ${leastSpanMs} m 60000 3600000 0 h 3600000 604800000 0 d 86400000 2592000000 0 w 604800000 31536000000 3 M 2592000000 31536000000 3`,
    );
    expect(layoutArguments({ ...DEFAULT_RETENTION, day: 400 * DAY_MS })).toMatch(
      / w 604800000 31536000000 0 M /,
    );
    const layout = parseLayout(["01222", null, "1700000000000", null, null, "5", null, null, null, "3", "4"]);
    expect(layout.placement).toEqual({
      minute: "container",
      hour: "keyed",
      day: "projected",
      week: "projected",
      month: "projected",
    });
    expect(layout.marks).toEqual({ minute: null, hour: 1_700_000_000_000, day: null, week: null, month: 5 });
    expect(layout.derivedUntil).toEqual({ minute: null, hour: null, day: null, week: 3, month: 4 });
    expect(parseLayout(["000dd"]).placement).toMatchObject({
      day: "container",
      week: "derived",
      month: "derived",
    });
    expect(parseLayout([]).code).toBe("00000");
    expect(LAYOUT_FIELDS).toEqual([
      "layout",
      "mark:m",
      "mark:h",
      "mark:d",
      "mark:w",
      "mark:M",
      "derived:m",
      "derived:h",
      "derived:d",
      "derived:w",
      "derived:M",
    ]);
  });
});
