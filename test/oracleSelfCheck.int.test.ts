import { IANAZone } from "luxon";
import { describe, expect, it } from "vitest";
import {
  answerDimensions,
  answerStats,
  answerSummary,
  type CountedRecording,
  compareCodePoints,
  type ExpectedStats,
  type QueryPairs,
  round3,
  wallToInstant,
} from "./oracle";

// The oracle is only as good as its own reading of the contract: these cases are worked out by hand
// from docs/contract.md §2, independently of the service, so a wrong oracle cannot agree with a wrong API.
const nowMs = Date.parse("2026-11-22T12:00:00Z");

function rec(id: string, at: string, patch: Partial<CountedRecording> = {}): CountedRecording {
  return {
    org: "acme",
    id,
    atMs: Date.parse(at),
    member_email: "ada@example.com",
    voice_model: "whisper",
    language_model: "gpt",
    app_name: "Zoom",
    duration_ms: 60_000,
    word_count: 150,
    voice_processing_ms: 1_000,
    llm_processing_ms: 2_000,
    ...patch,
  };
}

const recordings = [
  rec("r1", "2026-11-02T09:15:00Z", { word_count: 100 }),
  rec("r2", "2026-11-02T23:30:00Z", { app_name: "=SUM(1)", language_model: null, llm_processing_ms: null }),
  rec("r3", "2026-11-03T10:00:00Z", { member_email: "bob@example.com", voice_processing_ms: null }),
  rec("r4", "2026-11-10T10:00:00Z", { app_name: "🎙 Memo", duration_ms: 0, word_count: 0 }),
  rec("r5", "2026-11-10T11:00:00Z", { app_name: "\uFF5EWave" }),
].sort((a, b) => a.atMs - b.atMs);

function stats(pairs: QueryPairs): ExpectedStats {
  const answer = answerStats(recordings, pairs, { nowMs, selfCheck: true });
  if (answer.status !== 200) throw new Error(`expected 200, got ${JSON.stringify(answer)}`);
  return answer;
}
const labels = (s: ExpectedStats) =>
  s.rows.map((r) => [r.time_bucket, r.group?.[0], r.metrics.recording_count.value]);

describe("the oracle's reading of docs/contract.md §2", () => {
  it("takes a date-only end as the whole end day, in UTC by default", () => {
    const s = stats([
      ["start_date", "2026-11-01"],
      ["end_date", "2026-11-30"],
    ]);
    expect(s.meta).toEqual({
      start_date: "2026-11-01T00:00:00.000Z",
      end_date: "2026-12-01T00:00:00.000Z",
      granularity: "day",
      group_by: null,
      timezone: "UTC",
    });
    expect(labels(s)).toEqual([
      ["2026-11-02T00:00:00.000Z", undefined, 2],
      ["2026-11-03T00:00:00.000Z", undefined, 1],
      ["2026-11-10T00:00:00.000Z", undefined, 2],
    ]);
    expect(s.rows[0]?.metrics.avg_wpm).toEqual({ value: 125 });
    expect(s.rows[0]?.metrics.avg_llm_processing_time).toEqual({ value: 2000 });
  });

  it("cuts local days and ISO weeks (Monday) in the query zone, labelled with the zone's offset", () => {
    const berlin = stats([
      ["start_date", "2026-11-01"],
      ["end_date", "2026-11-03"],
      ["timezone", "Europe/Berlin"],
    ]);
    expect(labels(berlin)).toEqual([
      ["2026-11-02T00:00:00.000+01:00", undefined, 1],
      ["2026-11-03T00:00:00.000+01:00", undefined, 2],
    ]);
    const weeks = stats([
      ["start_date", "2026-11-03T00:00:00+05:30"],
      ["end_date", "2026-11-30"],
      ["granularity", "week"],
    ]);
    expect(weeks.meta.timezone).toBe("+05:30");
    // A Tuesday start: the first bucket is partial but labelled with its Monday.
    expect(labels(weeks)[0]).toEqual(["2026-11-02T00:00:00.000+05:30", undefined, 2]);
  });

  it("groups in code point order with null last; dimensions have no null", () => {
    const byApp = stats([
      ["start_date", "2026-11-01"],
      ["end_date", "2026-11-30"],
      ["granularity", "month"],
      ["group_by", "app_name"],
    ]);
    expect(byApp.rows.map((r) => r.group?.[0])).toEqual(["=SUM(1)", "Zoom", "\uFF5EWave", "🎙 Memo"]);
    const byModel = stats([
      ["start_date", "2026-11-01"],
      ["end_date", "2026-11-30"],
      ["granularity", "month"],
      ["group_by", "language_model"],
    ]);
    expect(byModel.rows.map((r) => r.group?.[0])).toEqual(["gpt", null]);
    expect(compareCodePoints("\uFF5E", "🎙")).toBeLessThan(0);
    expect(answerDimensions(recordings).language_models).toEqual(["gpt"]);
  });

  it("filters with trimmed, case-insensitive e-mails and the literal null", () => {
    const s = stats([
      ["start_date", "2026-11-01"],
      ["end_date", "2026-11-30"],
      ["granularity", "month"],
      ["filter[member_email]", " ADA@example.com ,, "],
      ["filter[language_model]", "null"],
    ]);
    expect(labels(s)).toEqual([["2026-11-01T00:00:00.000Z", undefined, 1]]);
  });

  it("pages, with an empty page past the end", () => {
    const s = stats([
      ["start_date", "2026-11-01"],
      ["end_date", "2026-11-30"],
      ["page", "3"],
      ["page_size", "2"],
    ]);
    expect(s.pagination).toEqual({ page: 3, page_size: 2, total_rows: 3, total_pages: 2, count: 0 });
  });

  it("rounds exact rationals to 3 decimals, half up, and averages like SQL", () => {
    expect(round3(30_030, 60_000)).toEqual({ value: 0.501, tie: 0.5 });
    expect(round3(1, 3)).toEqual({ value: 0.333 });
    expect(round3(5, 0)).toEqual({ value: 0 });
    const summary = answerSummary(
      recordings,
      [
        ["start_date", "2026-11-03"],
        ["end_date", "2026-11-03"],
      ],
      { nowMs },
    );
    expect(summary).toMatchObject({
      status: 200,
      metrics: {
        total_recordings: { value: 1 },
        avg_voice_processing_seconds: { value: 0 },
        total_duration_minutes: { value: 1 },
      },
    });
  });

  it("reads a repeated local time as its first occurrence and a skipped one as after the gap", () => {
    const berlin = IANAZone.create("Europe/Berlin");
    expect(new Date(wallToInstant(Date.parse("2026-10-25T02:30:00Z"), berlin)).toISOString()).toBe(
      "2026-10-25T00:30:00.000Z",
    );
    expect(new Date(wallToInstant(Date.parse("2026-03-29T02:30:00Z"), berlin)).toISOString()).toBe(
      "2026-03-29T01:30:00.000Z",
    );
  });

  it("refuses what the contract calls a 400", () => {
    const bad = (pairs: QueryPairs) => answerStats(recordings, pairs, { nowMs });
    expect(
      bad([
        ["start_date", "2026-11-10"],
        ["end_date", "2026-11-01"],
      ]),
    ).toEqual({ status: 400, parameter: "start_date" });
    expect(
      bad([
        ["start_date", "2020-01-01"],
        ["granularity", "hour"],
      ]),
    ).toEqual({ status: 400, parameter: "granularity" });
    expect(
      bad([
        ["page", "1"],
        ["page", "2"],
      ]),
    ).toEqual({ status: 400, parameter: "page" });
    expect(bad([["granularty", "day"]])).toEqual({ status: 400, parameter: "granularty" });
  });
});

describe("the oracle's reading of docs/contract.md §7", () => {
  const november = [
    ["start_date", "2026-11-01"],
    ["end_date", "2026-11-30"],
    ["granularity", "month"],
  ] as const;
  const rows = (s: ExpectedStats) =>
    s.rows.map((r) => [r.time_bucket, ...(r.group ?? []), r.metrics.recording_count.value]);

  it("leaves out excluded values, null included, ANDed with filters", () => {
    expect(labels(stats([...november, ["exclude[app_name]", "Zoom, 🎙 Memo"]]))).toEqual([
      ["2026-11-01T00:00:00.000Z", undefined, 2],
    ]);
    const s = stats([
      ...november,
      ["exclude[language_model]", "null"],
      ["filter[member_email]", "ADA@example.com"],
    ]);
    expect(labels(s)).toEqual([["2026-11-01T00:00:00.000Z", undefined, 3]]);
  });

  it("groups by several dimensions, in the order asked", () => {
    const s = stats([...november, ["group_by", "member_email, language_model"]]);
    expect(s.meta.group_by).toBe("member_email,language_model");
    expect(rows(s)).toEqual([
      ["2026-11-01T00:00:00.000Z", "ada@example.com", "gpt", 3],
      ["2026-11-01T00:00:00.000Z", "ada@example.com", null, 1],
      ["2026-11-01T00:00:00.000Z", "bob@example.com", "gpt", 1],
    ]);
  });

  it("answers granularity=all as one bucket labelled with the range's start, in the query's zone", () => {
    const range = [
      ["start_date", "2026-11-02T12:00:00"],
      ["end_date", "2026-11-10"],
      ["granularity", "all"],
    ] as const;
    expect(labels(stats([...range]))).toEqual([["2026-11-02T12:00:00.000Z", undefined, 4]]);
    expect(labels(stats([...range, ["timezone", "Europe/Berlin"]]))).toEqual([
      ["2026-11-02T12:00:00.000+01:00", undefined, 4],
    ]);
  });

  it("sorts by a metric as shown, ties in the default order, and keeps the top N with an exact rest", () => {
    const sorted = [...november, ["group_by", "app_name"], ["sort", "-total_words"]] as const;
    expect(rows(stats([...sorted]))).toEqual([
      ["2026-11-01T00:00:00.000Z", "Zoom", 2],
      ["2026-11-01T00:00:00.000Z", "=SUM(1)", 1],
      ["2026-11-01T00:00:00.000Z", "\uFF5EWave", 1],
      ["2026-11-01T00:00:00.000Z", "🎙 Memo", 1],
    ]);
    const top = stats([...sorted, ["limit", "2"], ["other", "true"]]);
    expect(rows(top)).toEqual([
      ["2026-11-01T00:00:00.000Z", "Zoom", 2],
      ["2026-11-01T00:00:00.000Z", "=SUM(1)", 1],
      ["2026-11-01T00:00:00.000Z", "(other)", 2],
    ]);
    expect(top.rows[2]?.metrics.total_words.value).toBe(150);
    expect(rows(stats([...sorted, ["limit", "2"]]))).toHaveLength(2);
  });

  it("fills every bucket: a zero row per empty bucket, or per group of the answer a bucket lacks", () => {
    const days = [
      ["start_date", "2026-11-01"],
      ["end_date", "2026-11-04"],
      ["fill", "zero"],
    ] as const;
    expect(labels(stats([...days]))).toEqual([
      ["2026-11-01T00:00:00.000Z", undefined, 0],
      ["2026-11-02T00:00:00.000Z", undefined, 2],
      ["2026-11-03T00:00:00.000Z", undefined, 1],
      ["2026-11-04T00:00:00.000Z", undefined, 0],
    ]);
    const grouped = stats([...days, ["group_by", "member_email"]]);
    expect(rows(grouped).map((r) => r.slice(1))).toEqual([
      ["ada@example.com", 0],
      ["bob@example.com", 0],
      ["ada@example.com", 2],
      ["bob@example.com", 0],
      ["ada@example.com", 0],
      ["bob@example.com", 1],
      ["ada@example.com", 0],
      ["bob@example.com", 0],
    ]);
  });

  it("refuses invalid values and parameters that need another", () => {
    const bad = (pairs: QueryPairs) => answerStats(recordings, pairs, { nowMs });
    expect(bad([["other", "true"]])).toEqual({ status: 400, parameter: "other" });
    expect(
      bad([
        ["other", "true"],
        ["limit", "3"],
      ]),
    ).toEqual({ status: 400, parameter: "other" });
    expect(bad([["sort", "app_name"]])).toEqual({ status: 400, parameter: "sort" });
    expect(bad([["sort", "-words"]])).toEqual({ status: 400, parameter: "sort" });
    expect(bad([["group_by", "app_name,app_name"]])).toEqual({ status: 400, parameter: "group_by" });
    expect(bad([["limit", "0"]])).toEqual({ status: 400, parameter: "limit" });
    expect(bad([["fill", "one"]])).toEqual({ status: 400, parameter: "fill" });
    expect(bad([["granularity", "decade"]])).toEqual({ status: 400, parameter: "granularity" });
  });

  it("counts each row's distinct members, the (other) row's once each, and the summary's (§9)", () => {
    const counted = [...november, ["include", "active_members"]] as const;
    const members = (s: ExpectedStats) =>
      s.rows.map((r) => [r.group?.[0], r.metrics.active_members?.value, r.summedMembers]);
    expect(members(stats([...counted]))).toEqual([[undefined, 2, undefined]]);
    const top = stats([
      ...counted,
      ["group_by", "app_name"],
      ["sort", "-total_words"],
      ["limit", "1"],
      ["other", "true"],
    ]);
    // Zoom: ada and bob; the rest (=SUM(1), ～Wave, 🎙 Memo): ada three times, counted once.
    expect(members(top)).toEqual([
      ["Zoom", 2, undefined],
      ["(other)", 1, 3],
    ]);
    expect(Object.keys(top.rows[0]?.metrics ?? {}).at(-1)).toBe("active_members");
    const byMembers = stats([...counted, ["group_by", "app_name"], ["sort", "-active_members,app_name"]]);
    expect(members(byMembers).map((r) => r[0])).toEqual(["Zoom", "=SUM(1)", "\uFF5EWave", "🎙 Memo"]);
    const summary = answerSummary(
      recordings,
      [
        ["start_date", "2026-11-01"],
        ["end_date", "2026-11-30"],
        ["include", "active_members"],
        ["exclude[member_email]", "BOB@example.com"],
      ],
      { nowMs },
    );
    expect(summary.status === 200 && summary.metrics.active_members).toEqual({ value: 1 });
    const bad = (pairs: QueryPairs) => answerStats(recordings, pairs, { nowMs });
    expect(bad([["sort", "active_members"]])).toEqual({ status: 400, parameter: "sort" });
    expect(bad([["include", "members"]])).toEqual({ status: 400, parameter: "include" });
  });
});

describe("the oracle's reading of docs/contract.md §9's calendar", () => {
  const iso = (ms: number | undefined) => new Date(ms ?? 0).toISOString();

  it("starts weeks on Sunday's local midnight with week_start=sunday, on Monday's without", () => {
    const range = [
      ["start_date", "2026-11-01"],
      ["end_date", "2026-11-14"],
      ["timezone", "Europe/Berlin"],
      ["granularity", "week"],
    ] as const;
    const sundays = stats([...range, ["week_start", "sunday"]]);
    expect(labels(sundays)).toEqual([
      ["2026-11-01T00:00:00.000+01:00", undefined, 3],
      ["2026-11-08T00:00:00.000+01:00", undefined, 2],
    ]);
    // Each row's bucket ends at the next Sunday's local midnight, the last at the range's end.
    expect(sundays.rows.map((r) => iso(r.endMs))).toEqual([
      "2026-11-07T23:00:00.000Z",
      "2026-11-14T23:00:00.000Z",
    ]);
    expect(sundays.complete).toBe(true);
    const mondays = stats([...range]);
    expect(labels(mondays)).toEqual([
      ["2026-11-02T00:00:00.000+01:00", undefined, 3],
      ["2026-11-09T00:00:00.000+01:00", undefined, 2],
    ]);
    expect(mondays.complete).toBe(false);
    expect(mondays.rows.map((r) => r.endMs)).toEqual([undefined, undefined]);
  });

  it("cuts quarters and years at the zone's local midnight of 1 January, April, July and October", () => {
    const year = [
      ["start_date", "2026-01-01"],
      ["end_date", "2026-12-31"],
    ] as const;
    expect(labels(stats([...year, ["granularity", "quarter"]]))).toEqual([
      ["2026-10-01T00:00:00.000Z", undefined, 5],
    ]);
    expect(labels(stats([...year, ["granularity", "year"]]))).toEqual([
      ["2026-01-01T00:00:00.000Z", undefined, 5],
    ]);
    // St John's keeps summer time (−02:30) until 1 November 2026; its year ends at −03:30.
    const stJohns = stats([...year, ["granularity", "quarter"], ["timezone", "America/St_Johns"]]);
    expect(labels(stJohns)).toEqual([["2026-10-01T00:00:00.000-02:30", undefined, 5]]);
    expect(iso(stJohns.rows[0]?.endMs)).toBe("2027-01-01T03:30:00.000Z");
  });

  it("marks rows for complete with any §9 parameter, week_start=monday and include too", () => {
    const days = [
      ["start_date", "2026-11-01"],
      ["end_date", "2026-11-03"],
    ] as const;
    const monday = stats([...days, ["week_start", "monday"]]);
    expect(monday.complete).toBe(true);
    expect(monday.rows.map((r) => iso(r.endMs))).toEqual([
      "2026-11-03T00:00:00.000Z",
      "2026-11-04T00:00:00.000Z",
    ]);
    const counted = stats([...days, ["include", "active_members"]]);
    expect(counted.complete).toBe(true);
    expect(counted.rows.map((r) => iso(r.endMs))).toEqual(monday.rows.map((r) => iso(r.endMs)));
    expect(stats([...days]).complete).toBe(false);
  });

  it("refuses other values of week_start and granularity", () => {
    const bad = (pairs: QueryPairs) => answerStats(recordings, pairs, { nowMs });
    expect(bad([["week_start", "saturday"]])).toEqual({ status: 400, parameter: "week_start" });
    expect(bad([["week_start", "Sunday"]])).toEqual({ status: 400, parameter: "week_start" });
    expect(bad([["granularity", "Quarter"]])).toEqual({ status: 400, parameter: "granularity" });
  });
});
