import { type ApiServer, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { statsQuerySchema } from "./v1Stats";
import { dimensionsQuerySchema } from "./v1StatsDimensions";
import { summaryQuerySchema } from "./v1StatsSummary";

let api: ApiServer;
beforeAll(async () => {
  api = await startApiServer({ nowMs: Date.parse("2026-11-22T12:00:00Z") });
});
afterAll(() => api.close());

interface OpenApi {
  openapi: string;
  paths: Record<
    string,
    { get: { parameters?: Array<{ name: string; in: string }>; responses: Record<string, unknown> } }
  >;
}

describe("GET /api/v1/openapi.json", () => {
  it("describes the three operations with exactly the parameters the schemas validate", async () => {
    const res = await api.get("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as OpenApi;
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/api/v1/stats",
      "/api/v1/stats/dimensions",
      "/api/v1/stats/summary",
    ]);
    const names = (path: string, where: string) =>
      (doc.paths[path]?.get.parameters ?? [])
        .filter((p) => p.in === where)
        .map((p) => p.name)
        .sort();
    expect(names("/api/v1/stats", "query")).toEqual(Object.keys(statsQuerySchema.shape).sort());
    expect(names("/api/v1/stats/summary", "query")).toEqual(Object.keys(summaryQuerySchema.shape).sort());
    expect(names("/api/v1/stats/dimensions", "query")).toEqual(
      Object.keys(dimensionsQuerySchema.shape).sort(),
    );
    // The headers they read: a client may ask for an answer computed now (the result cache), or
    // name the answer it holds (a 304 when it still is the answer: docs/contract.md §9).
    expect(names("/api/v1/stats", "header")).toEqual(["cache-control", "if-none-match"]);
    expect(names("/api/v1/stats/summary", "header")).toEqual(["cache-control", "if-none-match"]);
  });

  it("documents every error status an operation can answer", async () => {
    const doc = (await (await api.get("/api/v1/openapi.json")).json()) as OpenApi;
    // Dimensions' 400 is for its docs/contract.md §7 parameters only; without them it reads no
    // query string. The statistics answer 304 to an If-None-Match that names their answer (§9).
    const statuses = (path: string) => Object.keys(doc.paths[path]?.get.responses ?? {}).sort();
    for (const path of ["/api/v1/stats", "/api/v1/stats/summary"])
      expect(statuses(path)).toEqual(["200", "304", "400", "401", "429", "503"]);
    expect(statuses("/api/v1/stats/dimensions")).toEqual(["200", "400", "401", "429", "503"]);
  });
});

describe("operational endpoints", () => {
  it("answers health, readiness and Prometheus metrics on the ops port, without a token", async () => {
    expect(await (await api.ops("/healthz")).json()).toEqual({ status: "ok" });
    expect((await api.ops("/readyz")).status).toBe(200);
    await api.get("/api/v1/stats/dimensions");
    const metrics = await (await api.ops("/metrics")).text();
    expect(metrics).toMatch(
      /vu_http_request_duration_seconds_count\{method="GET",route="unmatched",status="401"\} \d+/,
    );
  });

  it("answers none of them on the public port", async () => {
    for (const path of ["/healthz", "/readyz", "/metrics"] as const) {
      const res = await api.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toMatch(/^application\/problem\+json/);
      expect(await res.text(), path).not.toMatch(/vu_|"ready"|"ok"/);
    }
  });

  it("echoes a sane request id and never puts the token in a response", async () => {
    const res = await api.get("/api/v1/stats/dimensions", `sk-vu-${"z".repeat(40)}`, {
      "x-request-id": "req-123",
    });
    expect(res.headers.get("x-request-id")).toBe("req-123");
    expect(await res.text()).not.toContain("zzzz");
  });
});
