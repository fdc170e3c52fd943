import { redisTargets } from "@vu/infra";
import { recording } from "@vu/testkit";
import { useRedisTarget } from "@vu/testkit/redis";
import { storeUnderTest } from "@vu/testkit/store";
import { DAY_MS, DEFAULT_RETENTION, isBlockKept, type Tier } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { containerOf } from "../format/blockPlacement";
import { ALL_QUARTERS, WHOLE_BLOCK } from "../format/quarterCells";
import type { RedisClient } from "../redis/redisClient";
import { type BlockSnapshot, snapshotCellsOf } from "./blockSnapshot";
import { sumCells } from "./containerCells";
import { createRollupReader } from "./rollupReader";

describe.each(redisTargets())("days read as their hours on $name", (target) => {
  let redis: RedisClient;
  useRedisTarget(target, (client) => {
    redis = client;
  });

  const nowMs = Date.parse("2026-12-02T12:00:00Z");
  const kept = (tier: Tier, startMs: number) => isBlockKept(DEFAULT_RETENTION, tier, startMs, nowMs);
  const apps = ["Zoom", "Teams", "Meet", "Slack"];

  /**
   * A small organization: three recordings a day in four apps since January, so its year of days
   * dwarfs a month of hours, by more than the hours a few days become.
   */
  async function seeded() {
    const { keyspace, writer } = storeUnderTest(redis, nowMs);
    const start = Date.parse("2026-01-01T09:17:00Z");
    const recordings = Array.from({ length: 990 }, (_, i) =>
      recording(`r${i}`, new Date(start + i * 8 * 3_600_000 + (i % 13) * 600_000).toISOString(), {
        app_name: apps[i % apps.length] as string,
      }),
    );
    await writer.apply(1, "acme", recordings);
    return { keyspace, recordings };
  }

  const blockOf = (tier: Tier, iso: string) => ({ tier, startMs: Date.parse(iso) });
  const asked = [
    blockOf("hour", "2026-11-02T23:00:00Z"),
    blockOf("day", "2026-11-03T00:00:00Z"),
    blockOf("day", "2026-11-20T00:00:00Z"),
    blockOf("week", "2026-11-09T00:00:00Z"),
    blockOf("quarter", "2026-11-21T09:15:00Z"),
  ];
  const countsOf = (snapshot: BlockSnapshot) =>
    asked.map((_, i) => sumCells(snapshotCellsOf(snapshot).comboCells[i] ?? []).count);

  it("answers as the days do from the hours' month containers, when the year's days hold more", async () => {
    const { keyspace, recordings } = await seeded();
    const reader = createRollupReader({ redis, keyspace });
    const asDays = await reader.readBlocks(1, "acme", asked, "app_name");
    const asHours = await reader.readBlocks(1, "acme", asked, "app_name", { kept });
    const inRange = (from: string, days: number) =>
      recordings.filter(
        (r) => r.recordedAtMs >= Date.parse(from) && r.recordedAtMs < Date.parse(from) + days * DAY_MS,
      ).length;
    expect(countsOf(asDays)).toEqual(countsOf(asHours));
    expect(countsOf(asHours).slice(1, 4)).toEqual([
      inRange("2026-11-03", 1),
      inRange("2026-11-20", 1),
      inRange("2026-11-09", 7),
    ]);
    expect(countsOf(asHours)[3]).toBeGreaterThan(0);
    expect(Array.from(snapshotCellsOf(asDays).parts)).toEqual([
      ALL_QUARTERS,
      WHOLE_BLOCK,
      WHOLE_BLOCK,
      WHOLE_BLOCK,
      1,
    ]);
    // The days, and the derived week's days, came from their hours: split hour cells.
    expect(Array.from(snapshotCellsOf(asHours).parts)).toEqual([
      ALL_QUARTERS,
      ALL_QUARTERS,
      ALL_QUARTERS,
      ALL_QUARTERS,
      1,
    ]);
    const year = keyspace.container(1, "acme", "day", containerOf("day", Date.parse("2026-11-03")).startMs);
    const month = keyspace.container(1, "acme", "hour", Date.parse("2026-11-01T00:00:00Z"));
    expect(await redis.hlen(year)).toBeGreaterThan(3 * (await redis.hlen(month)));
    // What decided it: the year's fields outweigh the 23 more blocks each of the 9 days becomes.
    expect(await redis.hlen(year)).toBeGreaterThan(23 * 9);
  });

  it("reads the days where an hour of them is no longer kept", async () => {
    const { keyspace } = await seeded();
    const reader = createRollupReader({ redis, keyspace });
    const hoursGone = (tier: Tier, startMs: number) =>
      tier !== "hour" || startMs >= Date.parse("2026-11-20T12:00:00Z");
    const snapshot = await reader.readBlocks(1, "acme", asked.slice(1, 3), "total", { kept: hoursGone });
    expect(Array.from(snapshotCellsOf(snapshot).parts)).toEqual([WHOLE_BLOCK, WHOLE_BLOCK]);
  });
});
