import { waitFor } from "@vu/infra";
import { recording } from "@vu/testkit";
import { type RecordedSpan, startTracedApi } from "@vu/testkit/tracedProcess";
import { describe, expect, it, onTestFinished } from "vitest";
import { LARGE_READ_VIA } from "./http/largeReadForwarding";

// The API's spans as main.ts starts tracing (tracing.ts, http/serverSpanPrivacy.ts), recorded by
// the SDK's in-memory exporter in a child process (test/kit/src/tracedProcess.ts).

const SERVER = 1;
/** A caller's span the request continues (W3C `traceparent`). */
const CALLER = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7" };
const TRACEPARENT = `00-${CALLER.traceId}-${CALLER.spanId}-01`;

/** Whether `span` descends from the span `ancestorId` within `spans`. */
function descendsFrom(span: RecordedSpan, ancestorId: string, spans: readonly RecordedSpan[]): boolean {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  for (let parent = span.parentSpanId; parent !== undefined; parent = byId.get(parent)?.parentSpanId) {
    if (parent === ancestorId) return true;
  }
  return false;
}

describe("the API's traces", () => {
  it("a request is a server span continuing its caller's trace, its Redis commands below it, nothing of its values", async () => {
    const api = await startTracedApi({ nowMs: Date.now(), orgs: ["acme"] });
    onTestFinished(() => api.stop());
    const health = await fetch(`${api.ready.opsUrl}/healthz`);
    expect(health.status).toBe(200);

    const query = "start_date=2026-01-01&end_date=2026-02-01&filter[member_email]=bob@example.com";
    const res = await fetch(`${api.ready.baseUrl}/api/v1/stats/summary?${query}`, {
      headers: {
        authorization: `Bearer ${api.ready.tokens.acme}`,
        traceparent: TRACEPARENT,
        "user-agent": "tracing-test-agent",
      },
    });
    expect(res.status).toBe(200);

    const spans = await waitFor(
      async () => {
        const all = await api.spans();
        return all.some((s) => s.kind === SERVER && s.traceId === CALLER.traceId) && all;
      },
      { message: "the request's server span" },
    );
    const servers = spans.filter((s) => s.kind === SERVER);
    // Probes make no span: /healthz was answered before the request.
    expect(servers.map((s) => s.name)).toEqual(["GET /api/v1/stats/summary"]);
    const [server] = servers;
    if (server === undefined) throw new Error("no server span");
    expect(server).toMatchObject({
      scope: "@opentelemetry/instrumentation-http",
      parentSpanId: CALLER.spanId,
    });
    expect(server.attributes).toMatchObject({
      "http.route": "/api/v1/stats/summary",
      "http.response.status_code": 200,
      "url.path": "/api/v1/stats/summary",
      "url.query": "start_date&end_date&filter[member_email]",
      "client.address": "[redacted]",
      "network.peer.address": "[redacted]",
      "user_agent.original": "[redacted]",
    });
    const text = JSON.stringify(spans);
    for (const secret of [
      "bob@example.com",
      "bob%40example.com",
      "tracing-test-agent",
      api.ready.tokens.acme,
    ]) {
      expect(text).not.toContain(secret);
    }

    const redis = spans.filter((s) => s.scope === "@opentelemetry/instrumentation-ioredis");
    expect(redis.length).toBeGreaterThan(0);
    for (const command of redis) {
      expect(descendsFrom(command, server.spanId, spans), command.name).toBe(true);
      // The command's name, never its arguments (keys name organizations).
      expect(command.attributes["db.query.text"]).toBe(command.name);
    }
  });

  it("a large read handed to the large-read process is a child of the request that forwarded it", async () => {
    const members = 300;
    const api = await startTracedApi({
      nowMs: Date.parse("2026-11-22T12:00:00Z"),
      orgs: ["wide"],
      largeReadProcess: true,
      recordings: {
        wide: Array.from({ length: members }, (_, i) =>
          recording(`wide-${i}`, "2026-11-20T08:00:00Z", {
            organization_id: "wide",
            member_email: `m${i}@wide.example`,
          }),
        ),
      },
    });
    onTestFinished(() => api.stop());
    const stats = "/api/v1/stats?start_date=2026-11-19&end_date=2026-11-21&group_by=member_email";
    const res = await fetch(`${api.ready.baseUrl}${stats}`, {
      headers: { authorization: `Bearer ${api.ready.tokens.wide}`, traceparent: TRACEPARENT },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("via")).toBe(LARGE_READ_VIA);

    const inTrace = (spans: RecordedSpan[]) =>
      spans.filter((s) => s.kind === SERVER && s.traceId === CALLER.traceId);
    const spans = await waitFor(
      async () => {
        const all = await api.spans();
        return inTrace(all).length === 2 && all;
      },
      { message: "the forwarding request's and the large-read process's server spans" },
    );
    const [front, ...others] = inTrace(spans).filter((s) => s.parentSpanId === CALLER.spanId);
    expect(others).toEqual([]);
    if (front === undefined) throw new Error("no span for the forwarding request");
    const forwarded = inTrace(spans).filter((s) => s !== front);
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0] && descendsFrom(forwarded[0], front.spanId, spans)).toBe(true);
    expect(forwarded[0]?.name).toBe("GET /api/v1/stats");
  });
});
