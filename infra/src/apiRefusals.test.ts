import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { notReadyReasons, refusalOf } from "./apiRefusals";

/** A server answering every request with `status` and `body` (JSON) until the test ends; its base URL. */
async function answering(status: number, body: unknown): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The worker's reason for a topic that is not the one the view counts (ingest-worker topicIdentity.ts). */
const ANOTHER_TOPIC =
  "the store is not live (incomplete): topic recordings.completed is not the topic the view counts: its id is " +
  "9Rlj4B0VRAKJp4ki72p73A, the view's 0__oICoFSz-y9jYtYqnPPw (deleted and created again, or another cluster's); " +
  "its offsets are another topic's: the view cannot be made whole; see the README's operations section";

describe("refusalOf", () => {
  it("names the status and the problem's detail", async () => {
    const base = await answering(503, { title: "Service Unavailable", detail: ANOTHER_TOPIC });
    expect(await refusalOf(await fetch(base))).toBe(`the API answered 503: ${ANOTHER_TOPIC}`);
  });

  it("falls back to the title, then the status text", async () => {
    expect(await refusalOf(await fetch(await answering(429, { title: "Too Many Requests" })))).toBe(
      "the API answered 429: Too Many Requests",
    );
    expect(await refusalOf(await fetch(await answering(500, "not a problem document")))).toBe(
      "the API answered 500: Internal Server Error",
    );
  });
});

describe("notReadyReasons", () => {
  it("gives /readyz's reasons, and the rebuild when the view is another topic's", async () => {
    const base = await answering(503, { status: "unavailable", reasons: [ANOTHER_TOPIC] });
    const said = await notReadyReasons(base, "npm run rebuild");
    expect(said).toContain(`/readyz: ${ANOTHER_TOPIC}`);
    expect(said).toMatch(/another Kafka .* To count this stack's topic instead: npm run rebuild$/s);
  });

  it("suggests no rebuild for other reasons (a replay under way is waited for)", async () => {
    const replaying = "the store is not live (replaying): replaying the topic";
    const base = await answering(503, { status: "unavailable", reasons: [replaying] });
    expect(await notReadyReasons(base, "npm run rebuild")).toBe(`/readyz: ${replaying}`);
  });

  it("says nothing when the API is ready or cannot be reached", async () => {
    expect(await notReadyReasons(await answering(200, { status: "ready", reasons: [] }), "x")).toBe("");
    expect(await notReadyReasons("http://127.0.0.1:1", "x")).toBe("");
  });
});
