import { type Logger, sleep } from "@vu/service-runtime";
import { currentGeneration, type Keyspace, type RedisClient, switchGeneration } from "@vu/store";
import type { Admin, Kafka } from "kafkajs";
import { createIngestWorker, type IngestWorkerConfig } from "./app";
import { createIngestMetrics } from "./metrics";

export interface RebuildOptions {
  kafka: Kafka;
  redis: RedisClient;
  keyspace: Keyspace;
  logger: Logger;
  /** The live worker's settings; the rebuild uses its own group and the next generation. */
  config: Omit<IngestWorkerConfig, "generation" | "fromBeginning">;
  /** Keep consuming this long after the switch, so batches the live worker applied to the old
   *  generation while switching are in the new one too (dedupe keeps them counted once). */
  overlapMs?: number;
  /** Rebuild even when the topic no longer holds its earliest events (the result is partial). */
  allowPartial?: boolean;
  pollMs?: number;
}

export interface RebuildResult {
  from: number;
  to: number;
  events: number;
  /** Messages refused again; not re-sent: the live worker dead-lettered them when it met them. */
  deadLettered: number;
}

/** Thrown when the topic has already deleted events, so a replay could not be complete. */
export class IncompleteTopicError extends Error {
  constructor(readonly partitions: number[]) {
    super(
      `the topic no longer holds its first events (partitions ${partitions.join(", ")}); a rebuild would lose them`,
    );
    this.name = "IncompleteTopicError";
  }
}

async function caughtUp(admin: Admin, topic: string, groupId: string): Promise<boolean> {
  const [high, committed] = await Promise.all([
    admin.fetchTopicOffsets(topic),
    admin.fetchOffsets({ groupId, topics: [topic] }),
  ]);
  const done = new Map(committed[0]?.partitions.map((p) => [p.partition, Number(p.offset)]) ?? []);
  return high.every((p) => Number(p.high) === 0 || (done.get(p.partition) ?? -1) >= Number(p.high));
}

/**
 * Replays the whole topic into a fresh keyspace generation with a consumer group of its own,
 * then points readers and the live worker at it with one SET once it has caught up. The old
 * generation stays in Redis untouched (a switch back is `SET <prefix>:v2:generation <old>`).
 */
export async function runRebuild(options: RebuildOptions): Promise<RebuildResult> {
  const { kafka, redis, keyspace, logger, config } = options;
  const from = await currentGeneration(redis, keyspace);
  const to = from + 1;
  const admin = kafka.admin();
  await admin.connect();
  try {
    const low = await admin.fetchTopicOffsets(config.topic);
    const trimmed = low.filter((p) => Number(p.low) > 0).map((p) => p.partition);
    if (trimmed.length > 0 && !options.allowPartial) throw new IncompleteTopicError(trimmed);

    const metrics = createIngestMetrics();
    const groupId = `${config.groupId}-rebuild-g${to}`;
    const worker = createIngestWorker({
      kafka,
      redis,
      keyspace,
      logger,
      metrics,
      config: { ...config, groupId, generation: to, fromBeginning: true, deadLetters: "count" },
    });
    await worker.start();
    try {
      logger.info({ from, to, groupId }, "rebuilding: replaying the topic into a new generation");
      while (!(await caughtUp(admin, config.topic, groupId))) await sleep(options.pollMs ?? 500);
      await switchGeneration(redis, keyspace, to);
      logger.info({ to }, "rebuild caught up; readers switched");
      await sleep(options.overlapMs ?? 10_000);
    } finally {
      await worker.stop();
    }
    const events = (await metrics.applied.get()).values[0]?.value ?? 0;
    const deadLettered = (await metrics.deadLettered.get()).values.reduce((sum, v) => sum + v.value, 0);
    return { from, to, events, deadLettered };
  } finally {
    await admin.disconnect();
  }
}
