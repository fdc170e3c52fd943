import { DIMENSIONS } from "@vu/events";
import { describe, expect, it } from "vitest";
import { clickhouseRollupDdl, clickhouseRollupSql } from "./clickhouseRollup";
import { ROLLUP_SUMS, ROLLUP_TABLE } from "./quarterRollup";
import type { RawQuery } from "./rawQuery";

const from = Date.parse("2026-03-25T18:30:00Z");
const kolkataWeek: RawQuery = {
  kind: "stats",
  org: "o'brien",
  fromMs: from,
  toMs: from + 7 * 86_400_000,
  zone: "Asia/Kolkata",
  unit: "hour",
  page: 1,
  pageSize: 1000,
};
const membersByMonth: RawQuery = {
  ...kolkataWeek,
  zone: "UTC",
  unit: "month",
  groupBy: "member_email",
  page: 2,
};
const summary: RawQuery = {
  ...kolkataWeek,
  kind: "summary",
  zone: "Europe/Berlin",
  filters: { voice_model: ["v1"], app_name: ["Zoom", "Bürokratie-Assistent"] },
  pageSize: 1,
};

const squash = (sql: string) => sql.replace(/\s+/g, " ");

describe("clickhouseRollupDdl", () => {
  const [table, view] = clickhouseRollupDdl().map(squash);

  it("keys a SummingMergeTree by organization, quarter hour and every dimension, summing each rollup sum", () => {
    expect(table).toContain(`CREATE TABLE ${ROLLUP_TABLE} (`);
    expect(table).toContain(
      `ENGINE = SummingMergeTree ORDER BY (organization_id, quarter, ${DIMENSIONS.join(", ")})`,
    );
    for (const sum of Object.keys(ROLLUP_SUMS)) expect(table).toContain(`${sum} UInt64`);
    expect(table).toContain("language_model LowCardinality(Nullable(String))");
  });

  it("fills it from every insert into the raw table, by UTC quarter hour, non-null processing times counted apart", () => {
    expect(view).toContain(`CREATE MATERIALIZED VIEW ${ROLLUP_TABLE}_view TO ${ROLLUP_TABLE} AS`);
    expect(view).toContain("toStartOfInterval(recorded_at, INTERVAL 15 MINUTE, 'UTC') AS quarter");
    expect(view).toContain("FROM recordings GROUP BY organization_id, quarter, member_email");
    expect(view).toContain("sum(ifNull(voice_processing_ms, 0)) AS voice_ms_sum");
    expect(view).toContain("count(voice_processing_ms) AS voice_ms_count");
    expect(view).toContain("count(llm_processing_ms) AS llm_ms_count");
  });
});

describe("clickhouseRollupSql", () => {
  it("sums the rollup rows in range (unmerged parts leave several per key) and buckets each quarter in the zone", () => {
    const sql = squash(clickhouseRollupSql(kolkataWeek));
    expect(sql).toContain(`FROM ${ROLLUP_TABLE} WHERE organization_id = 'o''brien'`);
    expect(sql).toContain(
      `quarter >= toDateTime(${from / 1000}, 'UTC') AND quarter < toDateTime(${from / 1000 + 7 * 86_400}, 'UTC')`,
    );
    expect(sql).toContain("toUnixTimestamp(toStartOfHour(quarter, 'Asia/Kolkata')) AS bucket_s");
    expect(sql).toContain("sum(recordings) AS recording_count");
    expect(sql).toContain("GROUP BY bucket_s ORDER BY bucket_s LIMIT 1000 OFFSET 0");
    expect(sql).not.toMatch(/recorded_at/);
  });

  it("averages processing times over their non-null count, 0 when there is none, and words per minute over the summed duration", () => {
    const sql = squash(clickhouseRollupSql(kolkataWeek));
    expect(sql).toContain(
      "if(sum(llm_ms_count) = 0, 0, round(sum(llm_ms_sum) / sum(llm_ms_count), 3)) AS avg_llm_processing_time",
    );
    expect(sql).toContain(
      "if(sum(voice_ms_count) = 0, 0, round(sum(voice_ms_sum) / sum(voice_ms_count), 3))",
    );
    expect(sql).toContain(
      "if(sum(duration_ms_sum) = 0, 0, round(sum(words_sum) / (sum(duration_ms_sum) / 60000.0), 3)) AS avg_wpm",
    );
  });

  it("groups in byte order with nulls last, pages by offset, and cuts months in the zone", () => {
    const sql = squash(clickhouseRollupSql(membersByMonth));
    expect(sql).toContain(
      "toUnixTimestamp(toDateTime(toStartOfMonth(quarter, 'UTC'), 'UTC')) AS bucket_s, member_email",
    );
    expect(sql).toContain(
      "GROUP BY bucket_s, member_email ORDER BY bucket_s, member_email NULLS LAST LIMIT 1000 OFFSET 1000",
    );
  });

  it("filters the summary and converts its units", () => {
    const sql = squash(clickhouseRollupSql(summary));
    expect(sql).toContain("voice_model IN ('v1') AND app_name IN ('Zoom', 'Bürokratie-Assistent')");
    expect(sql).toContain("round(sum(duration_ms_sum) / 60000.0, 3) AS total_duration_minutes");
    expect(sql).toContain(
      "round(sum(llm_ms_sum) / sum(llm_ms_count) / 1000.0, 3)) AS avg_llm_processing_seconds",
    );
  });

  it("reads with the engine's thread limit and asks nothing of ClickHouse's query cache", () => {
    for (const q of [kolkataWeek, summary]) {
      expect(squash(clickhouseRollupSql(q))).toMatch(/SETTINGS max_threads = 2$/);
    }
  });

  it("refuses a range the quarter hours cannot answer exactly", () => {
    expect(() => clickhouseRollupSql({ ...kolkataWeek, fromMs: from + 5 * 60_000 })).toThrow(/quarter hours/);
  });
});
