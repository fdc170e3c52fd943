import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { notReadyReasons, refusalOf } from "./apiRefusals";

let server: Server | undefined;
afterEach(() => server?.close());

/** A server answering every request with `status` and `body` (JSON); its base URL. */
async function answering(status: number, body: unknown): Promise<string> {
  const listening = createServer((_req, res) => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
}

describe("refusalOf", () => {
  it("names the status and the problem's detail", async () => {
    const base = await answering(503, { title: "Service Unavailable", detail: "the store is not live" });
    expect(await refusalOf(await fetch(base))).toBe("the API answered 503: the store is not live");
  });

  it("falls back to the title, then the status text", async () => {
    expect(await refusalOf(await fetch(await answering(429, { title: "Too Many Requests" })))).toBe(
      "the API answered 429: Too Many Requests",
    );
    server?.close();
    expect(await refusalOf(await fetch(await answering(500, "not a problem document")))).toBe(
      "the API answered 500: Internal Server Error",
    );
  });
});

describe("notReadyReasons", () => {
  it("gives /readyz's reasons and the rebuild that resolves another stack's view", async () => {
    const reason =
      "the store is not live (incomplete): topic usage.recordings has id B, the view counts id A";
    const base = await answering(503, { status: "unavailable", reasons: [reason] });
    const said = await notReadyReasons(base, "KEY=k npm run rebuild");
    expect(said).toContain(`/readyz: ${reason}`);
    expect(said).toContain("`KEY=k npm run rebuild` counts this stack's topic");
  });

  it("says nothing when the API is ready or cannot be reached", async () => {
    expect(await notReadyReasons(await answering(200, { status: "ready", reasons: [] }))).toBe("");
    server?.close();
    expect(await notReadyReasons("http://127.0.0.1:1")).toBe("");
  });
});
