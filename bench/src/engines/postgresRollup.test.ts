import { DIMENSIONS } from "@vu/events";
import { describe, expect, it } from "vitest";
import { postgresRollupDdl, postgresRollupSql } from "./postgresRollup";
import { ROLLUP_SUMS } from "./quarterRollup";
import type { RawQuery } from "./rawQuery";

const from = Date.parse("2026-03-01T23:00:00Z");
const berlinMonthByApp: RawQuery = {
  kind: "stats",
  org: "bench-large",
  fromMs: from,
  toMs: from + 30 * 86_400_000 - 3_600_000,
  zone: "Europe/Berlin",
  unit: "day",
  groupBy: "app_name",
  page: 1,
  pageSize: 1000,
};
const summary: RawQuery = {
  ...berlinMonthByApp,
  kind: "summary",
  filters: { voice_model: ["v1"], app_name: ["Zoom", "it's"] },
  pageSize: 1,
};

const squash = (sql: string) => sql.replace(/\s+/g, " ");

describe("postgresRollupDdl", () => {
  const [create, insert, index, vacuum] = postgresRollupDdl("bench_50000").map(squash);

  it("makes one row per organization, quarter hour and combination from the raw table, in key order", () => {
    for (const sum of Object.keys(ROLLUP_SUMS)) expect(create).toContain(`${sum} bigint NOT NULL`);
    expect(create).toContain("language_model text,");
    expect(insert).toContain("INSERT INTO bench_50000.recording_quarters SELECT organization_id,");
    expect(insert).toContain(
      "date_bin('15 minutes', recorded_at, TIMESTAMPTZ '1970-01-01 00:00:00+00') AS quarter",
    );
    expect(insert).toContain(`${DIMENSIONS.join(", ")}, count(*), sum(word_count), sum(duration_ms)`);
    expect(insert).toContain("coalesce(sum(voice_processing_ms), 0), count(voice_processing_ms)");
    expect(insert).toContain(`FROM bench_50000.recordings GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2`);
  });

  it("indexes it on (organization_id, quarter) and analyzes it", () => {
    expect(index).toBe(
      "CREATE INDEX recording_quarters_org_quarter ON bench_50000.recording_quarters (organization_id, quarter)",
    );
    expect(vacuum).toBe("VACUUM (ANALYZE) bench_50000.recording_quarters");
  });
});

describe("postgresRollupSql", () => {
  it("sums the quarters in range, each bucketed by its start with date_trunc in the zone", () => {
    const sql = squash(postgresRollupSql(berlinMonthByApp, "bench_50000"));
    expect(sql).toContain("date_trunc('day', quarter, 'Europe/Berlin') AS bucket, app_name,");
    expect(sql).toContain(
      `FROM bench_50000.recording_quarters WHERE organization_id = 'bench-large' AND quarter >= TIMESTAMPTZ '2026-03-01T23:00:00.000Z' AND quarter < TIMESTAMPTZ '2026-03-31T22:00:00.000Z'`,
    );
    expect(sql).toContain(
      'GROUP BY 1, app_name ORDER BY 1, app_name COLLATE "C" NULLS LAST LIMIT 1000 OFFSET 0',
    );
    expect(sql).toContain("sum(recordings)::bigint AS recording_count");
  });

  it("averages over the non-null counts in exact numerics, 0 when there is none", () => {
    const sql = squash(postgresRollupSql(berlinMonthByApp, "s"));
    expect(sql).toContain(
      "CASE WHEN sum(llm_ms_count) = 0 THEN 0 ELSE round(sum(llm_ms_sum) / sum(llm_ms_count), 3) END AS avg_llm_processing_time",
    );
    expect(sql).toContain("ELSE round(sum(words_sum) / (sum(duration_ms_sum) / 60000.0), 3) END AS avg_wpm");
  });

  it("filters the summary, quoting its values, and answers zeros over no rows", () => {
    const sql = squash(postgresRollupSql(summary, "s"));
    expect(sql).toContain("voice_model IN ('v1') AND app_name IN ('Zoom', 'it''s')");
    expect(sql).toContain("coalesce(sum(recordings), 0)::bigint AS total_recordings");
    expect(sql).toContain("CASE WHEN coalesce(sum(voice_ms_count), 0) = 0 THEN 0");
  });

  it("refuses a range the quarter hours cannot answer exactly", () => {
    expect(() => postgresRollupSql({ ...berlinMonthByApp, toMs: berlinMonthByApp.toMs + 1000 }, "s")).toThrow(
      /quarter hours/,
    );
  });
});
