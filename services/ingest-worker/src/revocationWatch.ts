// Keeps every revocation of the tokens topic in Redis. The tokens CLI records a revocation in the
// topic first; Redis can lose it afterwards without anyone noticing: restored from an older snapshot,
// a failover to a replica that lagged, a cluster node come back empty, while nothing is ingested
// (the worker's view may never see it). So the worker keeps the revoked tokens it has read from the
// topic and writes them again on a schedule: a revoked token that Redis shows active is refused again
// within `TOKENS_REVOCATION_CHECK_MS` plus the API's token cache.
import { readTokenTopic, type TokenRecordSigner } from "@vu/events";
import type { Logger } from "@vu/service-runtime";
import type { TokenAdminStore } from "@vu/store";
import type { Kafka } from "kafkajs";
import type { Counter } from "prom-client";
import { refusalReporter } from "./tokenRestore";

export interface RevocationWatchOptions {
  kafka: Kafka;
  topic: string;
  signer: TokenRecordSigner;
  tokens: Pick<TokenAdminStore, "reassertRevocation">;
  logger: Logger;
  intervalMs: number;
  /** Revocations Redis had lost and the watch wrote again. */
  reasserted?: Counter;
  refusals?: Counter<"reason">;
}

export interface RevocationWatch {
  /** Checks now, then every `intervalMs` (each check after the last one ended). */
  start(): void;
  /** One check: reads what the topic holds past the last check, then writes every revocation. */
  check(): Promise<{ revoked: number; reasserted: number }>;
  /** Stops the schedule and waits for a check under way. */
  stop(): Promise<void>;
}

/** Revocations written to Redis at once, as separate commands (their keys are in many slots). */
const WRITES_AT_ONCE = 500;
/** Tokens a log line names (by id and organization) when Redis had lost their revocation. */
const TOKENS_NAMED = 20;
/** How long one check may read the topic (a worker stopping waits for a check under way). */
const READ_TIMEOUT_MS = 30_000;

/**
 * The cost is bounded by what it holds and writes: the topic is read incrementally (only records
 * past the last check; nothing when nothing was appended, after one metadata request), the revoked
 * tokens are kept in memory (hash, id, organization, time: ~250 bytes each), and each check writes
 * one HSETNX per revoked token, `WRITES_AT_ONCE` at a time, which changes nothing while Redis has
 * them. A new worker (or a restarted one) reads the topic once from its beginning.
 */
export function createRevocationWatch(options: RevocationWatchOptions): RevocationWatch {
  const { kafka, topic, signer, tokens, intervalMs } = options;
  const logger = options.logger.child({ component: "revocation-watch", topic });
  /** Hash → the first revocation read for it (a revocation is never taken back). */
  const revoked = new Map<string, { id: string; org: string; revokedAt: string }>();
  let from = new Map<number, bigint>();
  let missingTopicLogged = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;

  async function readNew(): Promise<void> {
    const refusals = refusalReporter(logger, options.refusals);
    const ends = await readTokenTopic({
      kafka,
      topic,
      signer,
      from,
      timeoutMs: READ_TIMEOUT_MS,
      onRefused: refusals.report,
      onRecord(hash, record) {
        if (record.revokedAt !== null && !revoked.has(hash)) {
          revoked.set(hash, { id: record.id, org: record.org, revokedAt: record.revokedAt });
        }
      },
    });
    if (ends === null) {
      if (!missingTopicLogged) logger.warn("the tokens topic does not exist (yet): no revocation to keep");
      missingTopicLogged = true;
      return;
    }
    missingTopicLogged = false;
    from = ends;
  }

  async function check(): Promise<{ revoked: number; reasserted: number }> {
    await readNew();
    let reasserted = 0;
    const named: Array<{ id: string; org: string }> = [];
    const entries = [...revoked];
    for (let i = 0; i < entries.length; i += WRITES_AT_ONCE) {
      const slice = entries.slice(i, i + WRITES_AT_ONCE);
      const written = await Promise.all(
        slice.map(([hash, { revokedAt }]) => tokens.reassertRevocation(hash, revokedAt)),
      );
      slice.forEach(([, { id, org }], j) => {
        if (!written[j]) return;
        reasserted += 1;
        if (named.length < TOKENS_NAMED) named.push({ id, org });
      });
    }
    if (reasserted > 0) {
      options.reasserted?.inc(reasserted);
      logger.warn(
        { reasserted, tokens: named },
        "Redis had lost the revocation of revoked tokens (an older state, or emptied): revoked them again",
      );
    }
    return { revoked: revoked.size, reasserted };
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = check()
        .catch((error: unknown) =>
          logger.warn({ err: error }, "checking token revocations failed; trying again"),
        )
        .finally(() => {
          running = undefined;
          schedule(intervalMs);
        });
    }, delayMs);
    timer.unref();
  }

  return {
    start: () => schedule(0),
    check,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
