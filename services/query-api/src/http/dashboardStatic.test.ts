import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "@vu/service-runtime";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createDashboardRouter, DASHBOARD_CSP } from "./dashboardStatic";
import { createErrorHandler, notFound } from "./errorHandler";

let server: Server | undefined;
afterEach(() => {
  server?.close();
});

async function serve(distDir: string): Promise<string> {
  const app = express();
  app.use(createDashboardRouter(distDir));
  app.use(notFound);
  app.use(createErrorHandler(createLogger("test", "silent")));
  const listening = app.listen(0, "127.0.0.1");
  server = listening;
  await new Promise((resolve) => listening.once("listening", resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
}

function builtDashboard(): string {
  const dir = mkdtempSync(join(tmpdir(), "dashboard-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>dashboard</title>");
  writeFileSync(join(dir, "assets", "index-abc123.js"), "export {};");
  return dir;
}

describe("the dashboard's static files", () => {
  it("redirects / to /dashboard/ and serves the page under its CSP, never cached stale", async () => {
    const base = await serve(builtDashboard());
    const root = await fetch(`${base}/`, { redirect: "manual" });
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/dashboard/");

    const page = await fetch(`${base}/dashboard/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<title>dashboard</title>");
    expect(page.headers.get("content-security-policy")).toBe(DASHBOARD_CSP);
    expect(page.headers.get("cache-control")).toBe("no-cache");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await fetch(`${base}/dashboard`, { redirect: "manual" })).headers.get("location")).toBe(
      "/dashboard/",
    );
  });

  it("compresses its files by Accept-Encoding", async () => {
    const dir = builtDashboard();
    const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i}`))};`;
    writeFileSync(join(dir, "assets", "large-abc123.js"), script);
    const base = await serve(dir);
    // fetch decompresses, so the coding is read from the headers and the text compared whole.
    const asset = await fetch(`${base}/dashboard/assets/large-abc123.js`, {
      headers: { "accept-encoding": "gzip" },
    });
    expect(asset.headers.get("content-encoding")).toBe("gzip");
    expect(await asset.text()).toBe(script);
  });

  it("lets hashed assets be cached for good", async () => {
    const base = await serve(builtDashboard());
    const asset = await fetch(`${base}/dashboard/assets/index-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await fetch(`${base}/dashboard/assets/missing.js`)).status).toBe(404);
  });

  it("forbids inline scripts and every other origin", () => {
    expect(DASHBOARD_CSP).toContain("default-src 'none'");
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).not.toContain("unsafe-inline");
    expect(DASHBOARD_CSP).toContain("connect-src 'self'");
    expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
  });

  it("answers a 503 naming the build command when there is no build, and the API lives on", async () => {
    const base = await serve(join(tmpdir(), "no-such-dashboard-build"));
    const res = await fetch(`${base}/dashboard/`);
    expect(res.status).toBe(503);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(((await res.json()) as { detail: string }).detail).toContain("pnpm --filter @vu/dashboard build");
  });
});
