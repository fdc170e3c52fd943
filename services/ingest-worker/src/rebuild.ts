import { type Logger, sleep } from "@vu/service-runtime";
import {
  compareFences,
  createLogPosition,
  currentGeneration,
  type Keyspace,
  type LogPosition,
  partitionKey,
  type RedisClient,
  switchGeneration,
  unlinkKeys,
} from "@vu/store";
import type { Admin, Kafka } from "kafkajs";
import { createIngestWorker, type IngestWorkerConfig } from "./app";
import { createIngestMetrics } from "./metrics";

export interface RebuildOptions {
  kafka: Kafka;
  redis: RedisClient;
  keyspace: Keyspace;
  logger: Logger;
  /** The live worker's settings; the rebuild uses its own group and the next generation. */
  config: Omit<IngestWorkerConfig, "generation">;
  /**
   * After the switch, keep consuming beside the live worker until it has claimed every partition
   * of the new generation (it notices the switch within a second or two: the generation cache and
   * its view check), for at most this long (no live worker may be running).
   */
  overlapMs?: number;
  /** Rebuild even when the topic no longer holds its earliest events (the result is partial). */
  allowPartial?: boolean;
  /** Keep the old generation's keys (a switch back stays possible); default: they are deleted. */
  keepOld?: boolean;
  pollMs?: number;
}

export interface RebuildResult {
  from: number;
  to: number;
  events: number;
  /** Messages refused again; not re-sent: the live worker dead-lettered them when it met them. */
  deadLettered: number;
  /** Keys of the old generation deleted after the switch (0 with `keepOld`). */
  deletedKeys: number;
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

/**
 * Whether the new generation is live and its checkpoints have passed the live generation's (or,
 * where that has none, the topic's high watermark): from then on, the live worker may write into
 * it, since everything before its position is there already. Against the live worker's position,
 * not the moving end of the topic, so that steady traffic cannot keep the switch waiting. The live
 * generation's checkpoints count only where they are this topic's offsets: not where it recorded
 * another topic id (the topic was deleted and created again), and never past the topic's end.
 */
async function passedLive(
  admin: Admin,
  log: LogPosition,
  topic: string,
  generations: { from: number; to: number },
): Promise<boolean> {
  const [offsets, live, rebuilt] = await Promise.all([
    admin.fetchTopicOffsets(topic),
    log.read(generations.from),
    log.read(generations.to),
  ]);
  if (rebuilt.state !== "live") return false;
  const liveTopicId = live.topicIds?.get(topic);
  const sameTopic = liveTopicId === undefined || liveTopicId === rebuilt.topicIds?.get(topic);
  return offsets.every((p) => {
    const key = partitionKey(topic, p.partition);
    const checkpoint = sameTopic ? live.checkpoints.get(key) : undefined;
    const target = Math.min(Number(checkpoint ?? p.high), Number(p.high));
    return target <= Number(p.low) || Number(rebuilt.checkpoints.get(key) ?? -1) >= target;
  });
}

/**
 * The fences of the partitions' latest claims in `generation` now (LogPosition.fenceOf): the
 * rebuild's own, at the switch.
 */
async function claimsOf(admin: Admin, log: LogPosition, topic: string, generation: number) {
  const offsets = await admin.fetchTopicOffsets(topic);
  const keys = offsets.map((p) => partitionKey(topic, p.partition));
  return new Map(
    await Promise.all(keys.map(async (key) => [key, await log.fenceOf(generation, key)] as const)),
  );
}

/** Whether a later writer (the live worker, moved to the new generation) claimed every partition. */
async function takenOver(
  admin: Admin,
  log: LogPosition,
  topic: string,
  generation: number,
  own: Map<string, string | null>,
) {
  const now = await claimsOf(admin, log, topic, generation);
  return [...now].every(([key, fence]) => {
    const before = own.get(key) ?? null;
    return fence !== null && (before === null || compareFences(fence, before) > 0);
  });
}

/**
 * Replays the whole topic into a fresh keyspace generation with a consumer group of its own; once
 * it has passed the live high-water marks, points readers and the live worker at it with one SET,
 * keeps consuming beside the live worker until that has claimed every partition there (the
 * offsets kept with the sums make writing twice harmless, and on a cluster a shard refuses the
 * rebuild's calls once the live worker's reached it), then deletes the old generation in the background of Redis (UNLINK),
 * unless asked to keep it (then a switch back is `SET` of `keyspace.generation()` to the old number).
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
      config: {
        ...config,
        groupId,
        generation: to,
        deadLetters: "count",
        acceptTrimmedTopic: options.allowPartial === true,
      },
    });
    const log = createLogPosition({ redis, keyspace });
    await worker.start();
    try {
      logger.info({ from, to, groupId }, "rebuilding: replaying the topic into a new generation");
      while (!(await passedLive(admin, log, config.topic, { from, to }))) await sleep(options.pollMs ?? 500);
      const own = await claimsOf(admin, log, config.topic, to);
      await switchGeneration(redis, keyspace, to);
      logger.info({ to }, "rebuild caught up; readers switched");
      const until = Date.now() + (options.overlapMs ?? 30_000);
      while (Date.now() < until && !(await takenOver(admin, log, config.topic, to, own)))
        await sleep(options.pollMs ?? 500);
    } finally {
      await worker.stop();
    }
    const deletedKeys = options.keepOld ? 0 : await unlinkKeys(redis, keyspace.generationPattern(from));
    if (!options.keepOld) logger.info({ from, deletedKeys }, "old generation deleted");
    const events = (await metrics.applied.get()).values[0]?.value ?? 0;
    const deadLettered = (await metrics.deadLettered.get()).values.reduce((sum, v) => sum + v.value, 0);
    return { from, to, events, deadLettered, deletedKeys };
  } finally {
    await admin.disconnect();
  }
}
