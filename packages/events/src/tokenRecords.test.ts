import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createTokenRecordSigner } from "./tokenRecordSignature";
import {
  checkTokenHash,
  type DurableTokenRecord,
  decodeTokenRecord,
  encodeTokenRecord as encodeSigned,
} from "./tokenRecords";

const hash = createHash("sha256").update("sk-vu-example", "utf8").digest("hex");
const active: DurableTokenRecord = {
  id: "7b0f4a52-9a53-4a3e-8d2f-5f0c1e0f6a11",
  org: "acme.eu:1",
  label: "ci — Bürö",
  createdAt: "2026-01-02T03:04:05.678Z",
  revokedAt: null,
};
const revoked: DurableTokenRecord = { ...active, revokedAt: "2026-02-03T04:05:06.789Z" };
const signer = createTokenRecordSigner({ current: `${"k".repeat(16)}0123456789abcdef` });
const encodeTokenRecord = (record: DurableTokenRecord) => encodeSigned(record, signer.sign(hash, record));

const reasonOf = (key: Buffer | string | null, value: Buffer | string | null): string => {
  const decoded = decodeTokenRecord(key, value);
  if (decoded.ok) throw new Error("expected a rejection");
  return decoded.reason;
};
const valueWith = (fields: Record<string, unknown>) =>
  JSON.stringify({ ...JSON.parse(encodeTokenRecord(active)), ...fields });

describe("token record codec", () => {
  it("round-trips active and revoked records as snake_case JSON with their signature", () => {
    const text = encodeTokenRecord(revoked);
    expect(JSON.parse(text)).toEqual({
      id: active.id,
      org: active.org,
      label: active.label,
      created_at: active.createdAt,
      revoked_at: revoked.revokedAt,
      sig: signer.sign(hash, revoked),
    });
    for (const record of [active, revoked]) {
      expect(decodeTokenRecord(hash, Buffer.from(encodeTokenRecord(record), "utf8"))).toEqual({
        ok: true,
        hash,
        record,
        signature: signer.sign(hash, record),
      });
    }
    expect(decodeTokenRecord(hash, valueWith({ sig: undefined }))).toMatchObject({
      ok: true,
      signature: null,
    });
    expect(decodeTokenRecord(Buffer.from(hash), encodeTokenRecord(active))).toMatchObject({ ok: true });
  });

  it("never writes a field outside the record, such as the token itself", () => {
    const withSecret = { ...active, token: "sk-vu-secret", lastUsedAt: "2026-01-02T00:00:00Z" };
    const text = encodeTokenRecord(withSecret);
    expect(text).not.toContain("sk-vu-secret");
    expect(Object.keys(JSON.parse(text)).sort()).toEqual([
      "created_at",
      "id",
      "label",
      "org",
      "revoked_at",
      "sig",
    ]);
  });

  it("refuses to encode an invalid record, naming the field", () => {
    expect(() => encodeTokenRecord({ ...active, org: "a b" })).toThrow(/invalid token record: org/);
    expect(() => encodeTokenRecord({ ...active, createdAt: "yesterday" })).toThrow(/created_at/);
    expect(() => encodeTokenRecord({ ...active, label: "x".repeat(1_001) })).toThrow(/label/);
    expect(() => checkTokenHash("ABC")).toThrow(/SHA-256/);
    expect(checkTokenHash(hash)).toBe(hash);
  });

  it("reads a tombstone as no record", () => {
    expect(decodeTokenRecord(hash, null)).toEqual({ ok: true, hash, record: null, signature: null });
  });

  it("rejects keys that are not a token hash", () => {
    expect(reasonOf(null, encodeTokenRecord(active))).toMatch(/no key/);
    expect(reasonOf("sk-vu-example", encodeTokenRecord(active))).toMatch(/invalid key/);
    expect(reasonOf(hash.toUpperCase(), encodeTokenRecord(active))).toMatch(/invalid key/);
    expect(reasonOf(Buffer.from([0xff, 0xfe]), encodeTokenRecord(active))).toMatch(/key is not valid UTF-8/);
  });

  it("rejects hostile values with a reason, never by throwing", () => {
    const hostile: Array<[Buffer | string, RegExp]> = [
      [Buffer.from([0x7b, 0xc3, 0x28, 0x7d]), /invalid_unicode: the value is not valid UTF-8/],
      [Buffer.from([0xed, 0xa0, 0x80]), /invalid_unicode/],
      ["{not json", /not valid JSON/],
      ["", /not valid JSON/],
      ["null", /\(message\)/],
      ["[]", /\(message\)/],
      ['"a string"', /\(message\)/],
      ["42", /\(message\)/],
      ["{}", /id: .*org: .*created_at/],
      [valueWith({ id: 7 }), /^id: /],
      [valueWith({ org: ["acme"] }), /^org: /],
      [valueWith({ org: "acme}{other" }), /^org: /],
      [valueWith({ label: null }), /^label: /],
      [valueWith({ created_at: 1_700_000_000_000 }), /^created_at: /],
      [valueWith({ created_at: "not a time" }), /^created_at: /],
      [valueWith({ revoked_at: false }), /^revoked_at: /],
      [valueWith({ revoked_at: undefined }), /^revoked_at: /],
      [valueWith({ sig: 42 }), /^sig: /],
      [valueWith({ sig: "v1.".repeat(100) }), /^sig: /],
      ["[".repeat(100_000), /not valid JSON/],
    ];
    for (const [value, reason] of hostile) {
      expect(() => decodeTokenRecord(hash, value)).not.toThrow();
      expect(reasonOf(hash, value), String(value).slice(0, 40)).toMatch(reason);
    }
  });

  it("ignores fields it does not know (a newer writer's)", () => {
    expect(decodeTokenRecord(hash, valueWith({ scopes: ["read"] }))).toEqual({
      ok: true,
      hash,
      record: active,
      signature: signer.sign(hash, active),
    });
  });

  it("never quotes the value in a reason (a refused record's value is not logged)", () => {
    const secretish = '{"id":"x","org":"sk-vu-SHOULD-NOT-APPEAR"';
    const decoded = decodeTokenRecord("a".repeat(64), secretish);
    expect(decoded).toEqual({ ok: false, reason: "not valid JSON" });
  });
});
