import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalTokenRecord, createTokenRecordSigner, tokenSigningKeyId } from "./tokenRecordSignature";
import type { DurableTokenRecord } from "./tokenRecords";

const hash = createHash("sha256").update("sk-vu-example", "utf8").digest("hex");
const otherHash = createHash("sha256").update("sk-vu-other", "utf8").digest("hex");
const record: DurableTokenRecord = {
  id: "7b0f4a52-9a53-4a3e-8d2f-5f0c1e0f6a11",
  org: "acme",
  label: "ci",
  createdAt: "2026-01-02T03:04:05.678Z",
  revokedAt: null,
};
const KEY = "3f1c9a0b7e2d4c6a8b0e1f2a3b4c5d6e";
const OLD_KEY = "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b";
const signer = createTokenRecordSigner({ current: KEY });

describe("token record signatures", () => {
  it("signs as v1.<key id>.<HMAC-SHA256 of the canonical record>, and verifies its own", () => {
    const signature = signer.sign(hash, record);
    const mac = createHmac("sha256", KEY).update(canonicalTokenRecord(hash, record)).digest("base64url");
    expect(signature).toBe(`v1.${tokenSigningKeyId(KEY)}.${mac}`);
    expect(tokenSigningKeyId(KEY)).toBe(createHash("sha256").update(KEY).digest("hex").slice(0, 8));
    expect(signer.keyId).toBe(tokenSigningKeyId(KEY));
    expect(signer.verify(hash, record, signature)).toEqual({ ok: true, keyId: signer.keyId });
    expect(signer.verify(hash, { ...record, revokedAt: "2026-02-03T00:00:00.000Z" }, signature).ok).toBe(
      false,
    );
  });

  it("refuses a record with any field changed, or under another key", () => {
    const signature = signer.sign(hash, record);
    const tampered: DurableTokenRecord[] = [
      { ...record, id: "another-id" },
      { ...record, org: "victim" },
      { ...record, label: "ci " },
      { ...record, createdAt: "2026-01-02T03:04:05.679Z" },
      { ...record, revokedAt: "2026-01-02T03:04:05.678Z" },
    ];
    for (const changed of tampered) {
      expect(signer.verify(hash, changed, signature)).toMatchObject({ ok: false, refusal: "bad_signature" });
    }
    expect(signer.verify(otherHash, record, signature)).toMatchObject({
      ok: false,
      refusal: "bad_signature",
    });
  });

  it("cannot be confused by fields that run into each other", () => {
    const a = { ...record, org: "ac", label: "me" };
    const b = { ...record, org: "acm", label: "e" };
    expect(canonicalTokenRecord(hash, a)).not.toBe(canonicalTokenRecord(hash, b));
    expect(signer.verify(hash, b, signer.sign(hash, a)).ok).toBe(false);
  });

  it("refuses a record signed with another key, as an unknown key", () => {
    const forger = createTokenRecordSigner({ current: OLD_KEY });
    expect(signer.verify(hash, record, forger.sign(hash, record))).toMatchObject({
      ok: false,
      refusal: "unknown_key",
      reason: expect.stringMatching(/TOKENS_SIGNING_KEYS_PREVIOUS/),
    });
    // A forger who copies the current key's id still needs the key.
    const [, , mac] = forger.sign(hash, record).split(".");
    expect(signer.verify(hash, record, `v1.${signer.keyId}.${mac}`)).toMatchObject({
      ok: false,
      refusal: "bad_signature",
    });
  });

  it("accepts records signed with a previous key, and signs only with the current one", () => {
    const before = createTokenRecordSigner({ current: OLD_KEY });
    const rotated = createTokenRecordSigner({ current: KEY, previous: [OLD_KEY] });
    expect(rotated.keyIds).toEqual([tokenSigningKeyId(KEY), tokenSigningKeyId(OLD_KEY)]);
    expect(rotated.verify(hash, record, before.sign(hash, record))).toEqual({
      ok: true,
      keyId: tokenSigningKeyId(OLD_KEY),
    });
    expect(rotated.sign(hash, record)).toBe(signer.sign(hash, record));
    // Once the old key is dropped from the list, its records are refused.
    expect(signer.verify(hash, record, before.sign(hash, record)).ok).toBe(false);
  });

  it("refuses a missing or malformed signature without throwing", () => {
    expect(signer.verify(hash, record, null)).toMatchObject({ ok: false, refusal: "unsigned" });
    expect(signer.verify(hash, record, undefined)).toMatchObject({ ok: false, refusal: "unsigned" });
    const good = signer.sign(hash, record);
    for (const bad of [
      "",
      "v1",
      good.replace(/^v1/, "v2"),
      `${good}=`,
      good.slice(0, -1),
      `${good}A`,
      good.replace(/\.[^.]+$/, `.${"A".repeat(43)}`),
      "v1.ZZZZZZZZ.".padEnd(55, "A"),
    ]) {
      expect(() => signer.verify(hash, record, bad)).not.toThrow();
      expect(signer.verify(hash, record, bad).ok, bad).toBe(false);
    }
  });

  it("keeps its keys out of what it shows", () => {
    const rotated = createTokenRecordSigner({ current: KEY, previous: [OLD_KEY] });
    const shown = JSON.stringify(rotated);
    expect(shown).not.toContain(KEY);
    expect(shown).not.toContain(OLD_KEY);
    expect(() => createTokenRecordSigner({ current: "" })).toThrow(/must not be empty/);
  });
});
