import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { LATER_PAGES, pageKeptAlive, retryAfterMs } from "./keptAlivePages";

describe("retryAfterMs", () => {
  it("reads seconds, capped at ten", () => {
    expect(retryAfterMs("2")).toBe(2_000);
    expect(retryAfterMs("0")).toBe(0);
    expect(retryAfterMs("600")).toBe(10_000);
  });

  it("waits a second when the header is missing, a date, or nonsense", () => {
    expect(retryAfterMs(undefined)).toBe(1_000);
    expect(retryAfterMs("")).toBe(1_000);
    expect(retryAfterMs("Wed, 21 Oct 2026 07:28:00 GMT")).toBe(1_000);
    expect(retryAfterMs("-3")).toBe(1_000);
  });
});

describe("pageKeptAlive", () => {
  it("asks every page over one connection, waiting out a refusal of page 1", async () => {
    const connections: number[] = [];
    const asked: string[] = [];
    let refuse = true;
    const server = createServer((req, res) => {
      asked.push(`${req.url} ${req.headers["cache-control"] ?? ""}`);
      if (refuse) {
        refuse = false;
        res.writeHead(429, { "retry-after": "0" }).end("{}");
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ pagination: { total_rows: 100_000 } }));
    });
    server.on("connection", () => connections.push(1));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const paging = await pageKeptAlive({
        baseUrl: `http://127.0.0.1:${port}`,
        path: "/stats?group_by=member_email",
        token: "t",
        uncached: { "cache-control": "no-cache" },
      });
      expect(paging).toMatchObject({ totalRows: 100_000, connections: 1, refused: 1 });
      expect(paging.laterPages.samples).toBe(LATER_PAGES);
      expect(connections).toHaveLength(1);
      expect(asked.slice(0, 3)).toEqual([
        "/stats?group_by=member_email&page=1 no-cache",
        "/stats?group_by=member_email&page=1 no-cache",
        "/stats?group_by=member_email&page=2 ",
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
