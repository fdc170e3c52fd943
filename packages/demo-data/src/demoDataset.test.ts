import { recordingCompletedSchema } from "@vu/events";
import { describe, expect, it } from "vitest";
import { demoDataset } from "./demoDataset";

const nowMs = Date.UTC(2026, 10, 15, 9, 30);

describe("demoDataset", () => {
  const dataset = demoDataset(nowMs);
  const events = dataset.flatMap(({ events }) => [...events]);

  it("holds a few thousand events of three small organizations", () => {
    expect(dataset.map(({ profile }) => profile.organizationId)).toEqual(["acme", "globex", "initech"]);
    expect(events.length).toBeGreaterThan(2_000);
    expect(events.length).toBeLessThan(10_000);
    expect(events.length).toBe(dataset.reduce((sum, { count }) => sum + count, 0));
  });

  it("covers 14 months up to now, crossing the European and US DST changes and a year end", () => {
    const instants = events.map((event) => Date.parse(event.recorded_at));
    expect(Math.min(...instants)).toBeGreaterThanOrEqual(Date.UTC(2025, 8, 15, 9, 30));
    expect(Math.max(...instants)).toBeLessThan(nowMs);
    const months = new Set(events.map((event) => event.recorded_at.slice(0, 7)));
    expect(months.size).toBe(15);
    const days = new Set(events.map((event) => event.recorded_at.slice(0, 10)));
    for (const day of ["2025-10-27", "2025-11-03", "2026-03-09", "2026-03-30", "2026-10-26", "2026-11-02"]) {
      expect(days.has(day), day).toBe(true);
    }
  });

  it("is valid, deterministic for a given now, and uses distinct ids per organization", () => {
    for (const event of events) expect(recordingCompletedSchema.safeParse(event).success).toBe(true);
    const again = demoDataset(nowMs).flatMap(({ events }) => [...events]);
    expect(again).toEqual(events);
    expect(new Set(events.map((event) => event.recording_id)).size).toBe(events.length);
  });
});
