import { request } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { recording } from "@vu/testkit";
import { type ApiServer, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Answers are compressed by Accept-Encoding; fetch would decompress them unseen, so these requests
// read the bytes on the wire.
const now = Date.parse("2026-11-22T12:00:00Z");
const ORG = "compressed";
let api: ApiServer;
let token: string;

beforeAll(async () => {
  api = await startApiServer({ nowMs: now, orgs: [ORG] });
  token = api.tokenFor(ORG);
  await api.write(
    ORG,
    Array.from({ length: 40 }, (_, i) =>
      recording(`r${i}`, new Date(Date.parse("2026-11-20T08:00:00Z") + i * 600_000).toISOString(), {
        organization_id: ORG,
        app_name: `app-${i}`,
      }),
    ),
  );
});
afterAll(() => api.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function raw(path: string, acceptEncoding?: string, method = "GET"): Promise<Raw> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (acceptEncoding !== undefined) headers["accept-encoding"] = acceptEncoding;
  return new Promise((resolve, reject) => {
    request(`${api.baseUrl}${path}`, { headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

const decode = (res: Raw): Buffer => {
  const coding = res.headers["content-encoding"];
  if (coding === "br") return brotliDecompressSync(res.body);
  if (coding === "gzip") return gunzipSync(res.body);
  if (coding === "deflate") return inflateSync(res.body);
  return res.body;
};

const STATS = "/api/v1/stats?start_date=2026-11-19&end_date=2026-11-21&group_by=app_name";

describe("compressed answers", () => {
  it("says Vary: Accept-Encoding to a HEAD as to the GET it stands for", async () => {
    const head = await raw(STATS, "gzip", "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers.vary).toMatch(/Accept-Encoding/i);
  });

  it("sends JSON as brotli or gzip when accepted, and as it is otherwise", async () => {
    const plain = await raw(STATS);
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    for (const [accept, coding] of [
      ["br", "br"],
      ["gzip", "gzip"],
      ["gzip;q=0.5, br", "br"],
      ["br;q=0, gzip", "gzip"],
      ["deflate", "deflate"],
      ["compress", undefined],
      ["identity", undefined],
    ] as const) {
      const res = await raw(STATS, accept);
      expect(res.headers["content-encoding"], accept).toBe(coding);
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(decode(res).equals(plain.body), accept).toBe(true);
      if (coding) expect(res.body.length).toBeLessThan(plain.body.length / 2);
    }
  });

  it("sends a compressed answer whole, with its length, the same bytes again for a kept page", async () => {
    const first = await raw(STATS, "br");
    const again = await raw(STATS, "br");
    expect(again.headers["content-encoding"]).toBe("br");
    expect(again.headers["content-length"]).toBe(String(again.body.length));
    expect(again.body.equals(first.body)).toBe(true);
  });

  it("compresses CSV, an answer computed now, and leaves small answers alone", async () => {
    const csv = await raw(`${STATS}&format=csv`, "gzip");
    expect(csv.headers["content-type"]).toMatch(/^text\/csv/);
    expect(csv.headers["content-encoding"]).toBe("gzip");
    expect(decode(csv).toString()).toMatch(/^time_bucket,app_name,recording_count/);
    const open = await raw("/api/v1/stats?start_date=2026-11-19&group_by=app_name", "gzip");
    expect(open.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(decode(open).toString()).pagination.total_rows).toBe(40);
    const small = await raw("/api/v1/stats/summary?start_date=2026-11-19&end_date=2026-11-21", "gzip");
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(small.body.toString()).total_recordings).toBe(40);
  });
});
