import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger, listen } from "@vu/service-runtime";
import { ReadKeptMovingError, StoreError } from "@vu/store";
import express from "express";
import { afterEach, expect, it } from "vitest";
import { LargeReadsBusyError } from "../query/largeReads";
import { OrganizationBusyError } from "../query/organizationGate";
import { createErrorHandler } from "./errorHandler";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** What a route that throws `error` answers, through the one error middleware. */
async function answerTo(error: unknown) {
  const app = express();
  app.get("/x", () => {
    throw error;
  });
  app.use(createErrorHandler(createLogger("test", "silent")));
  const server = createServer(app);
  await listen(server, 0, "127.0.0.1");
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`);
  const body = (await res.json()) as { status: number; detail?: string };
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    retryAfter: res.headers.get("retry-after"),
    body,
  };
}

it("answers heavy work it turns away with Retry-After and a problem body saying why", async () => {
  const cases = [
    {
      error: new OrganizationBusyError("acme", 3),
      status: 429,
      retryAfter: "3",
      says: /organization's questions/,
    },
    { error: new LargeReadsBusyError(30_000, 4), status: 503, retryAfter: "4", says: /large questions/ },
    {
      error: new ReadKeptMovingError(30_000, 3),
      status: 503,
      retryAfter: "5",
      says: /changed during every attempt/,
    },
    {
      error: new StoreError("down", { retriable: true }),
      status: 503,
      retryAfter: "5",
      says: /store is unavailable/,
    },
  ];
  for (const { error, status, retryAfter, says } of cases) {
    const answer = await answerTo(error);
    expect(answer.status).toBe(status);
    expect(answer.retryAfter).toBe(retryAfter);
    expect(answer.type).toContain("application/problem+json");
    expect(answer.body.status).toBe(status);
    expect(answer.body.detail).toMatch(says);
  }
});

it("reveals nothing of an unexpected error", async () => {
  const answer = await answerTo(new Error("secret internals"));
  expect(answer.status).toBe(500);
  expect(JSON.stringify(answer.body)).not.toContain("secret");
});
