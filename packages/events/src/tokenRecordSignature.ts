import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { DurableTokenRecord } from "./tokenRecords";

/**
 * Token records are signed, so that only the holder of the signing key (the tokens CLI) can make a
 * record that a restore accepts: a producer of the tokens topic without the key can neither mint a
 * token nor change one. The signature is the record value's `sig` field:
 *
 *   v1.<key id>.<HMAC-SHA256, base64url without padding>
 *
 * over `canonicalTokenRecord` (the key, i.e. the token's hash, and every durable field). The key id
 * is the first 8 hex digits of the key's SHA-256: it names which key signed, so a rotation
 * (`TOKENS_SIGNING_KEYS_PREVIOUS`) keeps accepting records signed with a previous key while new ones
 * are signed with the current key.
 *
 * What a signature cannot do: a tombstone (a null value) carries no signature, and a signed record
 * can be appended again later. The restore refuses tombstones and keeps a revocation once it read
 * one; only the topic's write ACL keeps a producer from appending at all.
 */
export const TOKEN_SIGNATURE_VERSION = "v1";

export interface TokenSigningKeys {
  /** The key new records are signed with (`TOKENS_SIGNING_KEY`). */
  current: string;
  /** Keys whose records are still accepted, not used to sign (`TOKENS_SIGNING_KEYS_PREVIOUS`). */
  previous?: readonly string[];
}

/** Why a record is refused, as the restore counts it. */
export type TokenSignatureRefusal = "unsigned" | "unknown_key" | "bad_signature";

export type TokenSignatureCheck =
  | { ok: true; keyId: string }
  | { ok: false; refusal: TokenSignatureRefusal; reason: string };

export interface TokenRecordSigner {
  /** The current key's id (never the key). */
  readonly keyId: string;
  /** The ids of every key whose signatures are accepted, the current one first. */
  readonly keyIds: readonly string[];
  sign(hash: string, record: DurableTokenRecord): string;
  verify(hash: string, record: DurableTokenRecord, signature: string | null | undefined): TokenSignatureCheck;
}

/** The bytes a signature covers: every durable field and the key, in a fixed order. */
export function canonicalTokenRecord(hash: string, record: DurableTokenRecord): string {
  return JSON.stringify([
    `vu-token-record/${TOKEN_SIGNATURE_VERSION}`,
    hash,
    record.id,
    record.org,
    record.label,
    record.createdAt,
    record.revokedAt,
  ]);
}

/** A key's public name: the first 8 hex digits of its SHA-256. */
export function tokenSigningKeyId(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex").slice(0, 8);
}

const SIGNATURE = /^v1\.([0-9a-f]{8})\.([A-Za-z0-9_-]{43})$/;

/**
 * Signs with `keys.current` and accepts the current and the previous keys. The keys stay inside
 * the closure: the signer can be logged or serialised without them.
 */
export function createTokenRecordSigner(keys: TokenSigningKeys): TokenRecordSigner {
  const byId = new Map<string, Buffer>();
  for (const key of [keys.current, ...(keys.previous ?? [])]) {
    if (key.length === 0) throw new TypeError("a token signing key must not be empty");
    const id = tokenSigningKeyId(key);
    if (!byId.has(id)) byId.set(id, Buffer.from(key, "utf8"));
  }
  const keyId = tokenSigningKeyId(keys.current);
  const mac = (key: Buffer, hash: string, record: DurableTokenRecord) =>
    createHmac("sha256", key).update(canonicalTokenRecord(hash, record), "utf8").digest();

  return {
    keyId,
    keyIds: [...byId.keys()],
    sign(hash, record) {
      const key = byId.get(keyId) as Buffer;
      return `${TOKEN_SIGNATURE_VERSION}.${keyId}.${mac(key, hash, record).toString("base64url")}`;
    },
    verify(hash, record, signature) {
      if (signature === null || signature === undefined) {
        return { ok: false, refusal: "unsigned", reason: "unsigned: the record has no signature" };
      }
      const parts = SIGNATURE.exec(signature);
      if (parts === null) {
        return { ok: false, refusal: "bad_signature", reason: "bad signature: not v1.<key id>.<HMAC>" };
      }
      const [, id = "", given = ""] = parts;
      const key = byId.get(id);
      if (key === undefined) {
        return {
          ok: false,
          refusal: "unknown_key",
          reason: `unknown key: signed with key ${id}, which is neither TOKENS_SIGNING_KEY nor one of TOKENS_SIGNING_KEYS_PREVIOUS`,
        };
      }
      const expected = mac(key, hash, record);
      const actual = Buffer.from(given, "base64url");
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
        return {
          ok: false,
          refusal: "bad_signature",
          reason:
            "bad signature: the record or its key was changed after signing, or signed with another key",
        };
      }
      return { ok: true, keyId: id };
    },
  };
}
