import { recordingCompletedSchema } from "@vu/events";
import { describe, expect, it } from "vitest";
import { buildManyOrgDataset } from "./manyOrgDataset";
import { newOrganizationEvents, steadyEvents } from "./steadyPass";

const dataset = buildManyOrgDataset({ total: 200, seed: 7, toMs: Date.UTC(2026, 0, 1), orgs: 20 });
const profiles = dataset.tenants.map((t) => t.profile);
const range = { seed: 7, fromMs: dataset.fromMs, toMs: dataset.toMs };

describe("the steady pass's events", () => {
  const events = [...steadyEvents(profiles, 3, range)];

  it("gives every organization one recording per pass, pass after pass", () => {
    expect(events).toHaveLength(3 * profiles.length);
    for (let pass = 0; pass < 3; pass++) {
      const orgs = events
        .slice(pass * profiles.length, (pass + 1) * profiles.length)
        .map((e) => e.organization_id);
      expect(orgs).toEqual(profiles.map((p) => p.organizationId));
    }
  });

  it("draws each from its organization's own members, in the data set's range, with ids the data set does not use", () => {
    const dataIds = new Set([...dataset.events].map((e) => e.recording_id));
    const members = new Map<string, Set<string>>();
    for (const e of dataset.events)
      members.set(e.organization_id, (members.get(e.organization_id) ?? new Set()).add(e.member_email));
    expect(new Set(events.map((e) => e.recording_id)).size).toBe(events.length);
    for (const e of events) {
      expect(recordingCompletedSchema.safeParse(e).success).toBe(true);
      expect(dataIds.has(e.recording_id)).toBe(false);
      const at = Date.parse(e.recorded_at);
      expect(at).toBeGreaterThanOrEqual(dataset.fromMs);
      expect(at).toBeLessThan(dataset.toMs);
    }
    // The largest organization's members all appear in the data set; its steady recordings use them.
    const largest = profiles[0]?.organizationId ?? "";
    for (const e of events.filter((x) => x.organization_id === largest))
      expect(members.get(largest)?.has(e.member_email)).toBe(true);
  });
});

describe("the new organizations' events", () => {
  it("makes one valid recording for each of `count` organizations not in the data set", () => {
    const events = [...newOrganizationEvents("bench-new-x", 5, dataset)];
    expect(events.map((e) => e.organization_id)).toEqual([0, 1, 2, 3, 4].map((i) => `bench-new-x-000${i}`));
    for (const e of events) {
      expect(recordingCompletedSchema.safeParse(e).success).toBe(true);
      expect(Date.parse(e.recorded_at)).toBeGreaterThanOrEqual(dataset.fromMs);
      expect(Date.parse(e.recorded_at)).toBeLessThan(dataset.toMs);
    }
  });
});
