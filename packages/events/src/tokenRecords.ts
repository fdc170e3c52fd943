import { z } from "zod";
import { describeIssues } from "./codec";

/**
 * The message of the tokens topic (`TOKENS_TOPIC`, compacted): one per API token, keyed by the
 * token's SHA-256 in lower-case hex, so compaction keeps each token's latest record. The value is
 * UTF-8 JSON `{ "id", "org", "label", "created_at", "revoked_at", "sig" }` (revoked_at null or
 * ISO 8601).
 *
 * Never the token itself: the secret is shown once when it is created and is stored nowhere, not
 * in Redis and not in Kafka. `last_used_at` is not durable either: it changes on every request, is
 * informational only, and a Redis restored from this topic starts it again from "never".
 *
 * `sig` authenticates the key and the other fields (tokenRecordSignature.ts): a restore accepts only
 * records signed with a key it holds. Optional here, so that an unsigned record decodes and is
 * refused by the signature check with its own reason.
 *
 * Unknown fields are stripped, not rejected, so a newer writer can add fields before an older
 * restorer knows them (and whatever else a caller passes, e.g. a `token`, never reaches the topic).
 */
export const tokenRecordSchema = z.object({
  id: z.string().min(1).max(128),
  org: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9._:-]+$/, "must contain only letters, digits and . _ : -"),
  label: z.string().max(1_000),
  created_at: z.iso.datetime({ offset: true }),
  revoked_at: z.iso.datetime({ offset: true }).nullable(),
  sig: z.string().max(200).optional(),
});

/** The message value as it travels (snake_case, as the event contract writes its fields). */
export type TokenRecordMessage = z.output<typeof tokenRecordSchema>;

/** A token's durable fields, named as the token store names them (no secret, no last use). */
export interface DurableTokenRecord {
  id: string;
  org: string;
  label: string;
  createdAt: string;
  revokedAt: string | null;
}

/** A token's SHA-256 as the store keys it: 64 lower-case hex digits. */
export const TOKEN_HASH_PATTERN = /^[0-9a-f]{64}$/;

export type TokenRecordDecodeResult =
  /**
   * `record` is null for a tombstone (a null value): the key has no record any more. `signature`
   * is the `sig` field, null when there is none (always for a tombstone).
   */
  | { ok: true; hash: string; record: DurableTokenRecord | null; signature: string | null }
  | { ok: false; reason: string };

/** Refuses bytes that are not UTF-8 instead of replacing them with U+FFFD, as `toString` would. */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function toMessage(record: DurableTokenRecord, signature: string): Record<string, unknown> {
  return {
    id: record.id,
    org: record.org,
    label: record.label,
    created_at: record.createdAt,
    revoked_at: record.revokedAt,
    sig: signature,
  };
}

/** Validates a token hash (the message key); throws a TypeError naming the problem. */
export function checkTokenHash(hash: string): string {
  if (!TOKEN_HASH_PATTERN.test(hash)) {
    throw new TypeError("invalid token record key: must be a SHA-256 in 64 lower-case hex digits");
  }
  return hash;
}

/**
 * Validates and serialises a token record with its signature (`TokenRecordSigner.sign` over the
 * record's key and this record) for the tokens topic; throws with the fields named.
 */
export function encodeTokenRecord(record: DurableTokenRecord, signature: string): string {
  const parsed = tokenRecordSchema.safeParse(toMessage(record, signature));
  if (!parsed.success) throw new TypeError(`invalid token record: ${describeIssues(parsed.error.issues)}`);
  return JSON.stringify(parsed.data);
}

function utf8(bytes: Buffer | string): string | null {
  if (typeof bytes === "string") return bytes;
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Decodes one message of the tokens topic (its key and value). Never throws: anything that is not
 * a well-formed record (a key that is not a SHA-256, bytes that are not UTF-8, text that is not
 * JSON, fields of the wrong type) yields a reason instead.
 */
export function decodeTokenRecord(
  key: Buffer | string | null,
  value: Buffer | string | null,
): TokenRecordDecodeResult {
  if (key === null) return { ok: false, reason: "no key: a token record is keyed by the token's SHA-256" };
  const hash = utf8(key);
  if (hash === null) return { ok: false, reason: "invalid_unicode: the key is not valid UTF-8" };
  if (!TOKEN_HASH_PATTERN.test(hash)) {
    return { ok: false, reason: "invalid key: must be a SHA-256 in 64 lower-case hex digits" };
  }
  if (value === null) return { ok: true, hash, record: null, signature: null };
  const text = utf8(value);
  if (text === null) return { ok: false, reason: "invalid_unicode: the value is not valid UTF-8" };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Not the parser's message: it quotes the text, and a refused record's value is never logged.
    return { ok: false, reason: "not valid JSON" };
  }
  const parsed = tokenRecordSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error.issues) };
  const { id, org, label, created_at, revoked_at, sig } = parsed.data;
  return {
    ok: true,
    hash,
    record: { id, org, label, createdAt: created_at, revokedAt: revoked_at },
    signature: sig ?? null,
  };
}
