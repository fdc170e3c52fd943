import { recordingCompletedSchema } from "@vu/events";
import { describe, expect, it } from "vitest";
import { heavyEvents } from "./heavyOrganization";

describe("heavyEvents", () => {
  const toMs = Date.UTC(2026, 10, 25, 22);
  const fromMs = toMs - 30 * 86_400_000;
  const events = [...heavyEvents("bench-heavy", 5_000, toMs)];

  it("gives every recording its own id, member and app, all valid events of the organization", () => {
    expect(events).toHaveLength(5_000);
    for (const field of ["recording_id", "member_email", "app_name"] as const)
      expect(new Set(events.map((e) => e[field])).size).toBe(5_000);
    expect(events.every((e) => recordingCompletedSchema.safeParse(e).success)).toBe(true);
    expect(events.every((e) => e.organization_id === "bench-heavy")).toBe(true);
  });

  it("spreads them evenly over the 30 days before the end, in order, inside the range", () => {
    const times = events.map((e) => Date.parse(e.recorded_at));
    expect(times.every((t, i) => t >= fromMs && t < toMs && t > (times[i - 1] ?? fromMs - 1))).toBe(true);
    const hours = new Set(times.map((t) => Math.floor(t / 3_600_000)));
    expect(hours.size).toBe(30 * 24);
  });

  it("yields the same events on every iteration", () => {
    expect([...heavyEvents("bench-heavy", 5_000, toMs)]).toEqual(events);
  });
});
