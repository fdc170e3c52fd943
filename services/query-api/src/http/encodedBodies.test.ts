import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodeBody, keepEncodings } from "./encodedBodies";

describe("kept encodings", () => {
  const body = () => Buffer.from(JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ i })) }));

  it("compresses a body that was not kept anew each time", async () => {
    const once = body();
    const gzip = encodeBody(once, "gzip");
    expect(encodeBody(once, "gzip")).not.toBe(gzip);
    expect(gunzipSync(await gzip).equals(once)).toBe(true);
  });

  it("compresses a kept body once per coding, into its gzip and brotli forms", async () => {
    const kept = body();
    keepEncodings(kept);
    const gzip = encodeBody(kept, "gzip");
    expect(encodeBody(kept, "gzip")).toBe(gzip);
    expect(gunzipSync(await gzip).equals(kept)).toBe(true);
    const br = await encodeBody(kept, "br");
    expect(brotliDecompressSync(br).equals(kept)).toBe(true);
    expect(br.length).toBeLessThan(kept.length / 4);
    // Marking it again keeps what was compressed.
    keepEncodings(kept);
    expect(encodeBody(kept, "gzip")).toBe(gzip);
  });
});
