import { recording } from "@vu/testkit";
import { type ApiServer, startApiServer } from "@vu/testkit/api";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Real responses of every operation, validated against the OpenAPI document the API serves (3.1:
// its schemas are JSON Schema 2020-12), so the document cannot drift from what the API sends.

const nowMs = Date.parse("2026-11-22T12:00:00Z");
let api: ApiServer;
let token: string;
let validate: (path: string, response: unknown) => string[];

beforeAll(async () => {
  api = await startApiServer({ nowMs, orgs: ["acme"] });
  token = api.tokenFor("acme");
  await api.write("acme", [
    recording("a", "2026-11-20T10:00:00Z"),
    recording("b", "2026-11-21T10:00:00Z", { language_model: null, llm_processing_ms: null }),
  ]);
  const document = (await (await api.get("/api/v1/openapi.json")).json()) as {
    openapi: string;
    paths: Record<string, unknown>;
  };
  expect(document.openapi).toMatch(/^3\.1\./);
  // Unknown OpenAPI keywords (`example`, ...) are annotations, not errors.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(document, "openapi.json");
  validate = (path, response) => {
    const pointer = `openapi.json#/paths/${path.replaceAll("/", "~1")}/get/responses/200/content/application~1json/schema`;
    const check = ajv.compile({ $ref: pointer });
    return check(response) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
});
afterAll(() => api.close());

async function body(path: string, query = ""): Promise<unknown> {
  const res = await api.get(`${path}${query}`, token);
  expect(res.status).toBe(200);
  return res.json();
}

describe("every operation answers as the served OpenAPI document says", () => {
  it.each([
    ["/api/v1/stats", "?start_date=2026-11-20&end_date=2026-11-21"],
    ["/api/v1/stats", "?start_date=2026-11-20&end_date=2026-11-21&granularity=hour&group_by=language_model"],
    ["/api/v1/stats", "?start_date=2026-11-20&end_date=2026-11-21&timezone=Asia/Kathmandu&page=9"],
    [
      "/api/v1/stats",
      "?start_date=2026-01-01&end_date=2026-12-31&granularity=quarter&timezone=America/St_Johns",
    ],
    [
      "/api/v1/stats",
      "?start_date=2026-11-01&end_date=2026-11-21&granularity=week&week_start=sunday&compare=previous_year",
    ],
    [
      "/api/v1/stats",
      "?start_date=2026-11-20&end_date=2026-11-21&group_by=app_name&include=active_members&compare=previous_period",
    ],
    [
      "/api/v1/stats",
      "?start_date=2026-01-01&end_date=2026-12-31&granularity=quarter&include=active_members&compare=previous_year",
    ],
    [
      "/api/v1/stats",
      "?start_date=2026-11-20&end_date=2026-11-21&group_by=app_name&percentiles=50,99&include=active_members",
    ],
    ["/api/v1/stats/summary", "?start_date=2026-11-20&end_date=2026-11-21"],
    [
      "/api/v1/stats/summary",
      "?start_date=2026-11-20&end_date=2026-11-21&percentiles=5,95&compare=previous_period",
    ],
    [
      "/api/v1/stats/summary",
      "?start_date=2026-11-20&end_date=2026-11-21&include=active_members&compare=previous_year",
    ],
    ["/api/v1/stats/summary", ""],
    ["/api/v1/stats/dimensions", ""],
    ["/api/v1/stats/dimensions", "?include=member_emails&q=a&limit=1"],
  ])("%s%s", async (path, query) => {
    expect(validate(path, await body(path, query))).toEqual([]);
  });

  it("and the check has teeth: a percentile of another type, or a field no pattern names, fails it", async () => {
    const query = "?start_date=2026-11-20&end_date=2026-11-21&percentiles=50";
    const summary = (await body("/api/v1/stats/summary", query)) as Record<string, unknown>;
    expect(summary).toHaveProperty("p50_voice_processing_seconds");
    expect(validate("/api/v1/stats/summary", { ...summary, p50_voice_processing_seconds: "1" })).not.toEqual(
      [],
    );
    expect(validate("/api/v1/stats/summary", { ...summary, p100_voice_processing_seconds: 1 })).not.toEqual(
      [],
    );
  });

  it("and the check has teeth: a response missing a field fails it", async () => {
    const summary = (await body("/api/v1/stats/summary")) as Record<string, unknown>;
    const { total_recordings: _, ...missing } = summary;
    expect(missing).not.toEqual(summary);
    expect(validate("/api/v1/stats/summary", missing)).not.toEqual([]);
  });
});
