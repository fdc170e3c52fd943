import { hash } from "node:crypto";

/** Bytes of a recording's digest: what the dedupe tables keep of its id (lua/includes/seenTables.lua). */
export const RECORDING_DIGEST_BYTES = 16;

/**
 * What the dedupe tables keep of a recording id: the first 16 bytes of its SHA-256. A fixed
 * size keeps every id, however long (up to 128 characters), within a listpack entry of ~18 bytes
 * in a small table, and within one allocation size class in a large table's set. 128 bits of a
 * cryptographic hash: two different ids of one organization share a digest with a chance of
 * about n² / 2¹²⁹ (10¹² ids: 10⁻¹⁵), and no producer can make one on purpose, so no message can
 * have another counted as its duplicate.
 */
export function recordingDigest(id: string): Buffer {
  return hash("sha256", id, "buffer").subarray(0, RECORDING_DIGEST_BYTES);
}
