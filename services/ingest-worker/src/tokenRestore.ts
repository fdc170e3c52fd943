// Restores the API tokens into Redis from the compacted tokens topic (@vu/events `TOKENS_TOPIC`),
// the durable record the tokens CLI writes besides Redis. Redis is a view that can be lost; after a
// loss (or at any time: it is idempotent) this reads the topic from its beginning up to where it
// ended when the restore started and writes each token's latest record back. Only records signed
// with a key the worker holds (`TOKENS_SIGNING_KEY`, `TOKENS_SIGNING_KEYS_PREVIOUS`) are taken:
// whoever can produce to the topic without the key can neither mint a token nor change one.
import { latestTokenRecords, type RefusedTokenRecord, type TokenRecordSigner } from "@vu/events";
import type { Logger } from "@vu/service-runtime";
import { type TokenAdminStore, TokenConflictError } from "@vu/store";
import type { Kafka } from "kafkajs";
import type { Counter } from "prom-client";

export interface RestoreTokensOptions {
  kafka: Kafka;
  topic: string;
  /** Verifies each record's signature (`createTokenRecordSigner`). */
  signer: TokenRecordSigner;
  /** The store (`createTokenStore`) of the Redis prefix to restore into. */
  tokens: Pick<TokenAdminStore, "restore">;
  logger: Logger;
  /** Counts refused records by reason, and records that would move a token as `conflict`. */
  refusals?: Counter<"reason">;
  /** How long reading the topic may take before the restore fails. Default 120 s. */
  timeoutMs?: number;
}

export interface RestoreTokensResult {
  /** Tokens written to Redis (active and revoked), one per token. */
  restored: number;
  /** Messages not taken: malformed, tombstones, unsigned or signed with a key the worker lacks. */
  refused: number;
  /** Verified records not written because Redis holds their hash for another organization or id. */
  conflicts: number;
}

/** At most this many refused records are logged one by one per read; the rest are counted. */
const REFUSALS_LOGGED = 20;

/**
 * Logs a refused record with where it is and why (never its value: it may be anyone's bytes), the
 * first `REFUSALS_LOGGED` of a read, and counts every one.
 */
export function refusalReporter(logger: Logger, refusals: Counter<"reason"> | undefined) {
  let count = 0;
  return {
    report(refused: RefusedTokenRecord): void {
      count += 1;
      refusals?.inc({ reason: refused.refusal });
      if (count <= REFUSALS_LOGGED) {
        logger.warn(
          { partition: refused.partition, offset: refused.offset, reason: refused.reason },
          "refusing a token record that is not the tokens CLI's",
        );
      }
    },
    get count() {
      return count;
    },
  };
}

/**
 * Reads `topic` from the earliest offset to the high watermarks taken at the start (records written
 * later are in Redis already: the CLI writes both), keeps each token's latest verified record (a
 * revocation, once read, is kept), and writes them with `tokens.restore`, which never un-revokes a
 * token, never moves one to another organization and keeps its `last_used_at`. A missing topic
 * restores nothing (with a warning).
 */
export async function restoreTokens(options: RestoreTokensOptions): Promise<RestoreTokensResult> {
  const { kafka, topic, signer, tokens, timeoutMs = 120_000 } = options;
  const logger = options.logger.child({ component: "token-restore", topic });
  const refusals = refusalReporter(logger, options.refusals);
  const { latest, exists } = await latestTokenRecords({
    kafka,
    topic,
    signer,
    timeoutMs,
    onRefused: refusals.report,
  });
  if (!exists) {
    logger.warn("the tokens topic does not exist: no token restored");
    return { restored: 0, refused: 0, conflicts: 0 };
  }
  let restored = 0;
  let revoked = 0;
  let conflicts = 0;
  for (const [hash, record] of latest) {
    try {
      await tokens.restore(hash, record);
    } catch (error) {
      if (!(error instanceof TokenConflictError)) throw error;
      conflicts += 1;
      options.refusals?.inc({ reason: "conflict" });
      logger.error(
        { id: record.id, org: record.org, held: error.held },
        "refusing a signed token record whose hash Redis holds for another organization or id",
      );
      continue;
    }
    restored += 1;
    if (record.revokedAt !== null) revoked += 1;
  }
  const refused = refusals.count;
  if (refused > 0) logger.warn({ refused }, "token records refused");
  logger.info({ restored, revoked, refused, conflicts }, "tokens restored from the tokens topic");
  return { restored, refused, conflicts };
}
