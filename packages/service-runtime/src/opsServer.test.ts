import type { AddressInfo } from "node:net";
import { Counter, Registry } from "prom-client";
import { describe, expect, it, onTestFinished } from "vitest";
import { listen } from "./listen";
import { createOpsServer, type OpsServerOptions, type Readiness } from "./opsServer";

async function readyz(ready: () => Promise<boolean | Readiness>) {
  const server = createOpsServer({ registry: new Registry(), ready });
  await listen(server, 0, "127.0.0.1");
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`);
  return { status: res.status, body: (await res.json()) as { status: string; reasons: string[] } };
}

describe("the ops server's /readyz", () => {
  it("takes a plain verdict", async () => {
    expect(await readyz(async () => true)).toEqual({ status: 200, body: { status: "ready", reasons: [] } });
    expect((await readyz(async () => false)).status).toBe(503);
  });

  it("passes on the reasons a check gives", async () => {
    const reasons = ["Redis 127.0.0.1:6379 has maxmemory-policy allkeys-lru; it must be noeviction"];
    expect(await readyz(async () => ({ ok: false, reasons }))).toEqual({
      status: 503,
      body: { status: "unavailable", reasons },
    });
  });

  it("is unavailable when the check throws", async () => {
    const { status, body } = await readyz(async () => {
      throw new Error("boom");
    });
    expect(status).toBe(503);
    expect(body.reasons).toEqual(["Error: boom"]);
  });
});

async function metrics(options: Partial<OpsServerOptions>) {
  const registry = new Registry();
  new Counter({ name: "probe_total", help: "a probe", registers: [registry] }).inc();
  const server = createOpsServer({ registry, ready: async () => true, ...options });
  await listen(server, 0, "127.0.0.1");
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`);
  return { type: res.headers.get("content-type"), text: await res.text() };
}

describe("the ops server's /metrics", () => {
  it("answers the registry's text", async () => {
    const { type, text } = await metrics({});
    expect(type).toBe(new Registry().contentType);
    expect(text).toContain("probe_total 1");
  });

  it("or the text it is given (the API's, summed over its processes)", async () => {
    expect((await metrics({ metricsText: async () => "summed_total 2\n" })).text).toBe("summed_total 2\n");
  });
});
