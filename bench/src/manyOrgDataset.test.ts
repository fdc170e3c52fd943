import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { buildManyOrgDataset, tenantId, tenantSizes } from "./manyOrgDataset";
import { mergeSorted } from "./mergeSorted";

describe("tenantSizes", () => {
  it("shares 10M over 10,000 organizations: exact sum, largest ≈ 10 %, median a couple of hundred", () => {
    const sizes = tenantSizes(10_000_000, 10_000);
    expect(sizes).toHaveLength(10_000);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(10_000_000);
    expect((sizes[0] ?? 0) / 10_000_000).toBeCloseTo(0.1, 2);
    expect(sizes[5000]).toBeGreaterThanOrEqual(150);
    expect(sizes[5000]).toBeLessThanOrEqual(400);
    expect(sizes.every((n, i) => n >= 1 && n <= (sizes[i - 1] ?? n))).toBe(true);
  });

  it("scales down: every organization keeps one recording, the sum stays exact", () => {
    const sizes = tenantSizes(1_000_000, 10_000);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(1_000_000);
    expect((sizes[0] ?? 0) / 1_000_000).toBeCloseTo(0.1, 2);
    expect(sizes[5000]).toBeGreaterThanOrEqual(15);
    expect(sizes[5000]).toBeLessThanOrEqual(40);
    expect(tenantSizes(10_000, 10_000).every((n) => n === 1)).toBe(true);
    expect(tenantSizes(10_003, 10_000).reduce((a, b) => a + b, 0)).toBe(10_003);
  });

  it("refuses fewer recordings than organizations", () => {
    expect(() => tenantSizes(9_999, 10_000)).toThrow(RangeError);
  });
});

describe("buildManyOrgDataset", () => {
  const toMs = Date.UTC(2026, 10, 22);
  const options = { total: 3_000, orgs: 60, seed: 7, toMs };
  const digest = (events: Iterable<{ recording_id: string; recorded_at: string }>) => {
    const hash = createHash("sha256");
    for (const e of events) hash.update(JSON.stringify(e));
    return hash.digest("hex");
  };

  it("interleaves the organizations in recorded_at order, every organization's count exactly", () => {
    const dataset = buildManyOrgDataset(options);
    const perOrg = new Map<string, number>();
    let previous = Number.NEGATIVE_INFINITY;
    let ordered = true;
    let switches = 0;
    let lastOrg = "";
    for (const event of dataset.events) {
      const at = Date.parse(event.recorded_at);
      if (at < previous || at < dataset.fromMs || at >= dataset.toMs) ordered = false;
      previous = at;
      if (event.organization_id !== lastOrg) switches++;
      lastOrg = event.organization_id;
      perOrg.set(event.organization_id, (perOrg.get(event.organization_id) ?? 0) + 1);
    }
    expect(ordered).toBe(true);
    expect(new Map(dataset.tenants.map((t) => [t.profile.organizationId, t.count]))).toEqual(perOrg);
    // Organization after organization would switch 59 times.
    expect(switches).toBeGreaterThan(500);
    expect(dataset.largest.profile.organizationId).toBe(tenantId(1, 60));
    expect(dataset.median.count).toBeLessThan(dataset.largest.count);
    expect(dataset.smallest.count).toBeLessThanOrEqual(dataset.median.count);
  });

  it("is deterministic for a seed and re-iterable", () => {
    const a = buildManyOrgDataset(options);
    const first = digest(a.events);
    expect(digest(a.events)).toBe(first);
    expect(digest(buildManyOrgDataset(options).events)).toBe(first);
    expect(digest(buildManyOrgDataset({ ...options, seed: 8 }).events)).not.toBe(first);
  });
});

describe("mergeSorted", () => {
  it("merges sorted sources, ties to the earlier source, and refuses an unsorted one", () => {
    const merged = [
      ...mergeSorted(
        [[1, 4, 4, 9], [], [0, 4, 10]].map((xs, source) => xs.map((at) => ({ at, source }))),
        (x) => x.at,
      ),
    ];
    expect(merged.map((x) => `${x.at}/${x.source}`)).toEqual([
      "0/2",
      "1/0",
      "4/0",
      "4/0",
      "4/2",
      "9/0",
      "10/2",
    ]);
    expect(() => [...mergeSorted([[2, 1]], (x) => x)]).toThrow(RangeError);
  });
});
