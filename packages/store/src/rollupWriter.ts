import type { Dimension } from "@vu/events";
import { DEFAULT_RETENTION, type Retention } from "@vu/time-buckets";
import { aggregateBatch, type CountableRecording } from "./batchAggregate";
import { encodeBatch } from "./batchEncoding";
import type { Keyspace } from "./keyspace";
import type { RedisClient } from "./redisClient";
import { registerScripts } from "./scripts";
import { StoreError } from "./storeError";

const DIMENSION_KEYS: readonly Dimension[] = ["member_email", "voice_model", "language_model", "app_name"];

export interface RollupWriterOptions {
  redis: RedisClient;
  keyspace: Keyspace;
  retention?: Retention;
  /** How long a counted recording id blocks later copies (CONTRACT §1: 7 days by default). */
  dedupeWindowMs: number;
  now?: () => number;
}

export interface ApplyResult {
  counted: number;
  duplicates: number;
}

export interface RollupWriter {
  /**
   * Counts one organization's recordings (ids unique within the call) into generation
   * `generation`, atomically and exactly once: ids already counted within the dedupe window are
   * dropped, whatever their other fields say.
   */
  apply(generation: number, org: string, recordings: readonly CountableRecording[]): Promise<ApplyResult>;
}

export function createRollupWriter(options: RollupWriterOptions): RollupWriter {
  const { redis, keyspace, dedupeWindowMs } = options;
  const retention = options.retention ?? DEFAULT_RETENTION;
  const now = options.now ?? Date.now;
  registerScripts(redis);

  return {
    async apply(generation, org, recordings) {
      const keys = [
        keyspace.orgBase(generation, org),
        keyspace.combos(generation, org),
        ...DIMENSION_KEYS.map((d) => keyspace.dimension(generation, org, d)),
      ];
      let pending = recordings;
      let duplicates = 0;
      // A reply of duplicates wrote nothing; dropping them and calling again converges because
      // ids only ever become counted, never uncounted, within the window.
      while (pending.length > 0) {
        const payload = aggregateBatch(pending, { keyspace, retention, dedupeWindowMs, nowMs: now() });
        let reply: Awaited<ReturnType<RedisClient["vuApplyBatchV2"]>>;
        try {
          const [currentSet, previousSet, expireAtMs] = payload.seen;
          reply = await redis.vuApplyBatchV2(
            ...keys,
            currentSet,
            previousSet,
            String(expireAtMs),
            encodeBatch(payload),
          );
        } catch (cause) {
          throw new StoreError("applying a batch to Redis failed", {
            retriable: true,
            cause,
            context: { org },
          });
        }
        if (reply[0] === 1) return { counted: reply[1], duplicates };
        const counted = new Set(reply[1]);
        duplicates += counted.size;
        pending = pending.filter((_, i) => !counted.has(i + 1));
      }
      return { counted: 0, duplicates };
    },
  };
}
