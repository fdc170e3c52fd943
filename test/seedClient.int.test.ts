import { demoDataset, produceEvents } from "@vu/demo-data";
import { redisUrl } from "@vu/testkit";
import { type ApiServer, startApiServer } from "@vu/testkit/api";
import { waitUntilCaughtUp } from "@vu/testkit/caughtUp";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { startInProcessWorker } from "@vu/testkit/worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StatsParams, UsageStatsClient } from "./support/seedClient";

// "A client written for the seed's API, using only what the seed says, works unchanged": the
// demo data set goes through Kafka and the worker, then a client that knows only the seed document
// calls all three operations and checks every answer has exactly the seed's fields and types.
// Fields docs/contract.md adds (meta.timezone, the group field of grouped rows) are the only extras allowed.
type FieldType = "string" | "number" | "string[]" | "string|null" | "object" | "array";
const is: Record<FieldType, (v: unknown) => boolean> = {
  string: (v) => typeof v === "string",
  number: (v) => typeof v === "number" && Number.isFinite(v),
  "string[]": (v) => Array.isArray(v) && v.every((x) => typeof x === "string"),
  "string|null": (v) => v === null || typeof v === "string",
  object: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
  array: Array.isArray,
};

function expectShape(value: unknown, fields: Record<string, FieldType>, allowedExtras: string[] = []): void {
  expect(is.object(value), `an object: ${JSON.stringify(value)}`).toBe(true);
  const record = value as Record<string, unknown>;
  for (const [field, type] of Object.entries(fields)) {
    expect(field in record, `required field ${field}`).toBe(true);
    expect(is[type](record[field]), `${field} is ${type}: ${JSON.stringify(record[field])}`).toBe(true);
  }
  const extras = Object.keys(record).filter((k) => !(k in fields) && !allowedExtras.includes(k));
  expect(extras, "fields the seed does not name").toEqual([]);
}

/** The seed's objects whose every field is a number. */
const numbers = (...fields: string[]): Record<string, FieldType> =>
  Object.fromEntries(fields.map((field) => [field, "number"]));

const DIMENSIONS = { voice_models: "string[]", language_models: "string[]", app_names: "string[]" } as const;
const SUMMARY = numbers(
  "total_recordings",
  "total_duration_minutes",
  "total_words",
  "avg_llm_processing_seconds",
  "avg_voice_processing_seconds",
);
const PAGE = { data: "array", pagination: "object", meta: "object" } as const;
const ROW = {
  time_bucket: "string",
  ...numbers(
    "recording_count",
    "total_words",
    "total_duration",
    "avg_llm_processing_time",
    "avg_voice_processing_time",
    "avg_wpm",
  ),
} as const;
const PAGINATION = numbers("page", "page_size", "total_rows", "total_pages", "count");
const META = {
  start_date: "string",
  end_date: "string",
  granularity: "string",
  group_by: "string|null",
} as const;

let api: ApiServer;
let client: UsageStatsClient;
let token: string;
let nowMs: number;
const org = demoDataset(Date.now())[0];

beforeAll(async () => {
  if (!org) throw new Error("the demo data set has no organization");
  const names = await isolatedTopics("seed");
  const kafka = testKafka();
  const worker = await startInProcessWorker({ kafka, redisUrl: redisUrl(), names });
  try {
    await produceEvents({ kafka, topic: names.topic, events: org.events });
    await waitUntilCaughtUp(kafka, names.topic, names.groupId, 120_000);
  } finally {
    await worker.stop();
  }
  nowMs = Date.now();
  api = await startApiServer({
    redisUrl: redisUrl(),
    prefix: names.prefix,
    nowMs,
    orgs: [org.profile.organizationId],
  });
  token = api.tokenFor(org.profile.organizationId);
  client = new UsageStatsClient(api.baseUrl, token);
});
afterAll(() => api.close());

async function statsPage(params: StatsParams) {
  const reply = await client.stats(params);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.contentType).toMatch(/^application\/json/);
  const page = reply.body;
  expectShape(page, PAGE);
  expectShape(page.pagination, PAGINATION);
  expectShape(page.meta, META, ["timezone"]);
  for (const row of page.data) expectShape(row, ROW, params.group_by ? [params.group_by] : []);
  // Seed rules 2–4.
  expect(page.meta.group_by).toBe(params.group_by ?? null);
  expect(page.meta.granularity).toBe(params.granularity ?? "day");
  expect(page.pagination.count).toBe(page.data.length);
  expect(page.pagination.total_pages).toBe(Math.ceil(page.pagination.total_rows / page.pagination.page_size));
  return page;
}

describe("a client that knows only the seed document", () => {
  it("is issued a bearer token of the documented form sk-<service>-", () => {
    expect(token).toMatch(/^sk-[a-z]+-\S+$/);
  });

  it("lists the dimensions with exactly the seed's fields", async () => {
    const reply = await client.dimensions();
    expect(reply.status).toBe(200);
    expectShape(reply.body, DIMENSIONS);
    expect(reply.body.app_names.length).toBeGreaterThan(0);
  });

  it("gets summaries with exactly the seed's fields, with and without range and filters", async () => {
    const dims = (await client.dimensions()).body;
    for (const params of [
      {},
      { start_date: "2025-01-01", end_date: "2030-12-31" },
      {
        start_date: "2025-01-01",
        filter: { app_name: dims.app_names.slice(0, 2), language_model: dims.language_models },
      },
    ]) {
      const reply = await client.summary(params);
      expect(reply.status).toBe(200);
      expectShape(reply.body, SUMMARY);
    }
    expect(
      (await client.summary({ start_date: "2000-01-01", end_date: "2099-12-31" })).body.total_recordings,
    ).toBe(org?.count);
  });

  it("defaults to day buckets, no grouping, page 1 of 200 rows, the last 7 days", async () => {
    const page = await statsPage({});
    expect(page.pagination).toMatchObject({ page: 1, page_size: 200 });
    const window = Date.parse(page.meta.end_date) - Date.parse(page.meta.start_date);
    expect(window).toBeGreaterThanOrEqual(7 * 86_400_000);
    expect(window).toBeLessThanOrEqual(7 * 86_400_000 + 120_000);
  });

  it.each(["hour", "day", "week", "month"] as const)(
    "cuts %s buckets whose time_bucket is the bucket start",
    async (granularity) => {
      const start = new Date(nowMs - 20 * 86_400_000).toISOString().slice(0, 10);
      const page = await statsPage({ granularity, start_date: start, page_size: 1000 });
      expect(page.data.length).toBeGreaterThan(0);
      for (const { time_bucket } of page.data) {
        const t = new Date(time_bucket);
        expect(Number.isNaN(t.getTime()), time_bucket).toBe(false);
        expect(t.getUTCMinutes() + t.getUTCSeconds() + t.getUTCMilliseconds()).toBe(0);
        if (granularity !== "hour") expect(t.getUTCHours()).toBe(0);
        if (granularity === "week") expect(t.getUTCDay()).toBe(1);
        if (granularity === "month") expect(t.getUTCDate()).toBe(1);
      }
    },
  );

  it.each(["member_email", "voice_model", "language_model", "app_name"] as const)(
    "groups by %s",
    async (group_by) => {
      const page = await statsPage({ group_by, granularity: "month", start_date: "2025-01-01" });
      expect(page.data.length).toBeGreaterThan(0);
    },
  );

  it("pages with page and page_size within the seed's bounds, and refuses them outside", async () => {
    const all = await statsPage({ start_date: "2025-01-01", page_size: 1000 });
    const second = await statsPage({ start_date: "2025-01-01", page: 2, page_size: 3 });
    expect(second.data).toEqual(all.data.slice(3, 6));
    expect(second.pagination).toMatchObject({ page: 2, page_size: 3, total_rows: all.pagination.total_rows });
    for (const params of [{ page: 0 }, { page_size: 0 }, { page_size: 1001 }]) {
      expect((await client.stats(params)).status).toBe(400);
    }
  });

  it("accepts every date format the seed lists", async () => {
    for (const start_date of [
      "2026-01-01",
      "2026-01-01T10:00:00",
      "2026-01-01T10:00:00.5",
      "2026-01-01T10:00:00.123456Z",
      "2026-01-01T10:00:00+05:30",
      "2026-01-01T10:00:00-0800",
    ]) {
      expect((await client.stats({ start_date })).status, start_date).toBe(200);
      expect((await client.summary({ start_date })).status, start_date).toBe(200);
    }
  });

  it("downloads a CSV file with format=csv", async () => {
    const reply = await client.statsCsv({
      start_date: "2025-01-01",
      group_by: "app_name",
      granularity: "month",
    });
    expect(reply.status).toBe(200);
    expect(reply.body.split(/\r?\n/)[0]).toContain("time_bucket");
    expect(reply.body.trim().split(/\r?\n/).length).toBeGreaterThan(1);
  });

  it("gets 400 for a value outside an enum, and 401 without a valid bearer token on every operation", async () => {
    expect(
      (await new UsageStatsClient(api.baseUrl, token).stats({ granularity: "minute" as "hour" })).status,
    ).toBe(400);
    for (const anonymous of [
      new UsageStatsClient(api.baseUrl, undefined),
      new UsageStatsClient(api.baseUrl, "sk-vu-nope"),
    ]) {
      expect((await anonymous.dimensions()).status).toBe(401);
      expect((await anonymous.summary()).status).toBe(401);
      expect((await anonymous.stats()).status).toBe(401);
    }
  });
});
