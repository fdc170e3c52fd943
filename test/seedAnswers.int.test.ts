import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { demoDataset } from "@vu/demo-data";
import { recordingCompletedSchema } from "@vu/events";
import { type ApiServer, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Every request a seed client can send answers byte for byte as recorded below: docs/contract.md
// §7's parameters are optional, and a request without them gets the seed's answer, unchanged
// (VU_RECORD_SEED_ANSWERS=1 records them again; only do so for a deliberate change of a seed
// answer). The data are the demo set at a fixed moment, all of it older than the hour blocks'
// retention at the API's fixed "now", so no answer depends on the real clock or on what Redis
// has expired since: only day, week and month blocks are read, which are kept forever.

const ANCHOR_MS = Date.parse("2024-06-01T12:00:00Z");
/** More than 400 days after the last recording: hour and minute blocks of the data are not kept. */
const NOW_MS = Date.parse("2025-09-01T12:00:00Z");
const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "seedAnswers.json");
const RECORD = process.env.VU_RECORD_SEED_ANSWERS === "1";

const demo = demoDataset(ANCHOR_MS)[0];
if (!demo) throw new Error("the demo data set has no organization");
const org = demo.profile.organizationId;
const events = [...demo.events].map((e) => recordingCompletedSchema.parse(e));
const first = <K extends "member_email" | "app_name" | "voice_model">(key: K, n: number) =>
  [...new Set(events.map((e) => e[key]))].sort().slice(0, n);

const range = "start_date=2023-04-01&end_date=2024-06-30";
const apps = first("app_name", 2).map(encodeURIComponent).join(",");
const [member = ""] = first("member_email", 1);
const [voice = ""] = first("voice_model", 1);

/** Seed requests: the seed's parameters only, every operation, valid and invalid. */
const STATS_QUERIES = [
  "",
  range,
  `${range}&granularity=day`,
  `${range}&granularity=week`,
  `${range}&granularity=month`,
  `${range}&granularity=hour`,
  "start_date=2024-05-01&end_date=2024-05-03&granularity=hour&page_size=1000",
  ...["member_email", "voice_model", "language_model", "app_name"].map(
    (d) => `${range}&granularity=month&group_by=${d}&page_size=1000`,
  ),
  `${range}&granularity=week&group_by=app_name&page=2&page_size=7`,
  `${range}&group_by=member_email&page=3&page_size=50`,
  `${range}&page=9999&page_size=5`,
  `${range}&granularity=month&filter[app_name]=${apps}`,
  `${range}&granularity=month&filter[language_model]=null`,
  `${range}&granularity=week&filter[member_email]=${encodeURIComponent(member.toUpperCase())}&group_by=app_name`,
  `${range}&granularity=month&filter[voice_model]=${encodeURIComponent(voice)}&filter[app_name]=${apps}&group_by=language_model`,
  `${range}&format=csv`,
  `${range}&granularity=month&group_by=app_name&format=csv`,
  `${range}&granularity=week&group_by=member_email&format=csv&page=2&page_size=10`,
  `${range}&format=json&page_size=1`,
  "start_date=2024-01-01T10:00:00+05:30&end_date=2024-03-01T00:00:00-0800&granularity=week",
  "start_date=2023-12-01T10:00:00.123456Z&end_date=2024-02-01T00:00:00.5&granularity=month&group_by=voice_model",
  "start_date=2024-02-01&granularity=month",
  "end_date=2024-01-01",
  // Invalid: each a 400 problem.
  "granularity=minute",
  "group_by=team",
  "page=0",
  "page_size=1001",
  "format=xml",
  "start_date=2024-02-30",
  "start_date=2024-03-01&end_date=2024-02-01",
  "granularty=day",
];
const SUMMARY_QUERIES = [
  "",
  range,
  `${range}&filter[app_name]=${apps}&filter[language_model]=null`,
  "start_date=2024-01-01T10:00:00+05:30",
  "page=1",
];

/**
 * Invalid values of a parameter whose vocabulary §7 extends (granularity=all, group_by lists): the
 * message lists the values accepted now, so these compare as problems (the same status, headers,
 * type, title and parameters named), not byte for byte.
 */
const EXTENDED_VOCABULARY = new Set(["/api/v1/stats?granularity=minute", "/api/v1/stats?group_by=team"]);

interface RecordedAnswer {
  status: number;
  headers: Record<string, string | null>;
  body: string;
}

/** The headers a seed client may read; the rest (dates, request ids) differ by request. */
const HEADERS = [
  "content-type",
  "content-disposition",
  "x-total-rows",
  "x-total-pages",
  "x-page",
  "x-page-size",
  "link",
];

const requests = [
  ...STATS_QUERIES.map((q) => `/api/v1/stats${q ? `?${q}` : ""}`),
  ...SUMMARY_QUERIES.map((q) => `/api/v1/stats/summary${q ? `?${q}` : ""}`),
  "/api/v1/stats/dimensions",
];

let api: ApiServer;

beforeAll(async () => {
  api = await startApiServer({ nowMs: NOW_MS, orgs: [org] });
  await api.write(
    org,
    events.map((event) => ({ event, recordedAtMs: Date.parse(event.recorded_at) })),
  );
});
afterAll(() => api.close());

function problemOf(answer: RecordedAnswer | undefined) {
  if (answer === undefined) return undefined;
  const { type, title, status, errors } = JSON.parse(answer.body) as {
    type: string;
    title: string;
    status: number;
    errors: Array<{ parameter: string }>;
  };
  const parameters = errors.map((e) => e.parameter);
  return { status: answer.status, headers: answer.headers, type, title, problemStatus: status, parameters };
}

async function answer(path: string): Promise<RecordedAnswer> {
  const res = await api.get(path, api.tokenFor(org));
  return {
    status: res.status,
    headers: Object.fromEntries(HEADERS.map((h) => [h, res.headers.get(h)])),
    body: await res.text(),
  };
}

describe("seed requests", () => {
  it("answer byte for byte as before docs/contract.md §7 (JSON, CSV, paging headers, problems)", async () => {
    const answers: Record<string, RecordedAnswer> = {};
    for (const path of requests) answers[path] = await answer(path);
    if (RECORD) {
      mkdirSync(dirname(FIXTURE), { recursive: true });
      writeFileSync(FIXTURE, `${JSON.stringify(answers, null, 1)}\n`);
    }
    const recorded = JSON.parse(readFileSync(FIXTURE, "utf8")) as Record<string, RecordedAnswer>;
    expect(Object.keys(recorded).sort()).toEqual([...requests].sort());
    // The data must reach every kind of answer, or the comparison proves little.
    expect(answers[`/api/v1/stats?${range}&granularity=month`]?.body).toContain('"recording_count"');
    expect(answers[`/api/v1/stats?${range}&format=csv`]?.body.split("\r\n").length).toBeGreaterThan(10);
    for (const path of requests) {
      const [actual, before] = [answers[path], recorded[path]];
      if (EXTENDED_VOCABULARY.has(path)) expect(problemOf(actual), path).toEqual(problemOf(before));
      else expect(actual, path).toEqual(before);
    }
  });
});
