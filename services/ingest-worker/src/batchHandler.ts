import type { Span } from "@opentelemetry/api";
import { type UndecodableBatch, undecodableBatchOf } from "@vu/events";
import { type Logger, retryWithBackoff } from "@vu/service-runtime";
import {
  type BatchOrigin,
  type GenerationSource,
  PartitionFencedError,
  type PreparedBatch,
  partitionKey,
  type RollupWriter,
  ShardBehindError,
  ViewMovedError,
} from "@vu/store";
import type { Batch, EachBatchPayload, KafkaMessage } from "kafkajs";
import { chunkEnd } from "./chunking";
import { CHUNK_ATTRIBUTES, inChunkSpan } from "./chunkSpan";
import { type DeadLetter, reasonKind } from "./deadLetter";
import type { DeadLetterSender } from "./deadLetterSender";
import type { IngestMetrics } from "./metrics";
import {
  applyGroup,
  applyRecordings,
  type OrganizationApplyDeps,
  type OrganizationOutcome,
} from "./organizationApply";
import type { PartitionPositions, Position } from "./positions/partitionPositions";
import { isRetriable } from "./retryRule";
import { type GroupedBatch, type SourcedRecording, validateAndGroup } from "./validateAndGroup";

type Sourced = SourcedRecording<KafkaMessage>;

/** What the batch handler needs from the worker around it. */
export interface BatchContext {
  writer: RollupWriter;
  generation: GenerationSource;
  positions: PartitionPositions;
  seek(partition: number, offset: string): void;
  /** A later writer has claimed the partition: stop fetching it until the group assigns it again. */
  release(partition: number): void;
  /** Called once for each record batch that could not be decoded (not again when a replay meets it). */
  onUndecodable(topic: string, partition: number, batch: UndecodableBatch): void;
  /** Called with each transient failure of a step, and with undefined once the step went through. */
  onTransientFailure(step: string, error: unknown): void;
  metrics: IngestMetrics;
  logger: Logger;
  /** Undefined: dead letters are only counted (a rebuild: the live worker has sent them). */
  sendDeadLetters: DeadLetterSender | undefined;
  futureToleranceMs: number;
  now: () => number;
}

/** The view moved under the worker (see PartitionPositions.advance): the batch in hand stops. */
export class PositionMovedError extends Error {
  constructor() {
    super("the view moved under this worker; the partition was sought to its checkpoint");
    this.name = "PositionMovedError";
  }
}

/** One chunk, decoded, validated and grouped; each organization prepared for the apply script where it could be. */
interface PreparedChunk {
  messages: KafkaMessage[];
  grouped: GroupedBatch<KafkaMessage>;
  work: Array<{ org: string; recordings: Sourced[]; batch: PreparedBatch<Sourced> | undefined }>;
  origin: BatchOrigin;
}

type Retrying = <T>(
  step: string,
  fn: () => Promise<T>,
  isRetriable: (error: unknown) => boolean,
) => Promise<T>;

/**
 * Handles one partition batch: each chunk is validated, dead-lettered where bad, pre-aggregated
 * per organization and applied atomically with the offset it covers; then the partition's
 * checkpoint moves past it, and its Kafka offset is resolved. A crash in between replays the chunk
 * from the checkpoint, and the offsets kept with the sums make that harmless. Preparing chunk k+1
 * (CPU in this process) overlaps applying chunk k (CPU in Redis); one apply is in flight at a time
 * and checkpoints move in order.
 *
 * A batch that does not start where the view's checkpoint is (Kafka's committed offset is behind
 * or ahead of Redis) is not applied: the partition is sought to the checkpoint instead.
 */
export async function handleBatch(ctx: BatchContext, payload: EachBatchPayload): Promise<void> {
  // The partition held no message beyond the batch's high watermark before its fetch request left
  // (the batch's "as of" once it is applied to the end); on the worker's clock.
  const fetchedAtMs = fetchRequestedAt(payload.batch, ctx.now());
  const { partition } = payload.batch;
  const retrying = retrierFor(ctx, payload);
  const generation = await retrying("position", () => ctx.generation.current(), isRetriable);
  // The batch's own position: its guard and its checkpoints, moved chunk by chunk, never looked up
  // again (a batch of one epoch must not write into the next).
  const at = await retrying("position", () => ctx.positions.resumeAt(generation, partition), isRetriable);
  const first = payload.batch.firstOffset();
  const position = { current: at };
  if (first !== null && ctx.positions.mustSeek(partition, first, at.next)) {
    ctx.logger.debug({ partition, first, next: at.next }, "a batch began off the view's checkpoint; seeking");
    ctx.seek(partition, at.next);
    return;
  }
  const seen = new Set<string>();
  let inFlight: Promise<void> = Promise.resolve();
  try {
    const all = payload.batch.messages;
    for (let from = 0, to = 0; from < all.length; from = to) {
      to = chunkEnd(all, from);
      const messages = all.slice(from, to);
      const chunk = prepareChunk(ctx, payload.batch, messages, seen);
      if (chunk === undefined) break;
      const asOfMs = chunkAsOf({
        throughOffset: chunk.origin.throughOffset,
        highWatermark: payload.batch.highWatermark,
        fetchedAtMs,
        firstNotApplied: all[to],
        lastApplied: messages.at(-1),
      });
      await inFlight;
      inFlight = applyChunk(ctx, payload, retrying, position, chunk, asOfMs);
    }
    await inFlight;
  } catch (error) {
    // Redis holds another checkpoint than the one this worker resumed from: nothing of the chunk was
    // written; every partition resumes from where Redis stands (a new epoch if it went back).
    // On a cluster, a shard found behind what the checkpoints recorded: the view is replayed whole.
    if (!(error instanceof ViewMovedError)) throw error;
    await inFlight.catch(() => undefined);
    // On a cluster, a later writer of the partition reached a shard first: this worker stops
    // writing it, and the view stays as it is (the later writer goes on from the checkpoints).
    if (error instanceof PartitionFencedError) {
      const fence = error.fence;
      const lost = await retrying(
        "position",
        () => ctx.positions.fenced(partition, position.current, fence),
        isRetriable,
      );
      if (lost) {
        ctx.release(partition);
        throw new PositionMovedError();
      }
    }
    if (error instanceof ShardBehindError) {
      const { shard } = error;
      // A generation a rebuild has left (and is deleting) is nobody's view to replay.
      const current = await retrying("position", () => ctx.generation.current(), isRetriable);
      if (position.current.generation === current)
        await retrying("position", () => ctx.positions.shardBehind(position.current, [shard]), isRetriable);
    }
    await retrying("position", () => ctx.positions.watch(() => ctx.generation.current(), true), isRetriable);
    throw new PositionMovedError();
  }
  await payload.commitOffsetsIfNecessary();
  await payload.heartbeat();
}

/**
 * When the fetch that brought `batch` was sent, on the clock `nowMs` reads (the worker's, which a
 * test may set): the patched kafkajs stamps each batch with it (patches/kafkajs@2.2.4.patch).
 * Batches can wait in the consumer long after their fetch; the high watermark is the fetch's.
 */
export function fetchRequestedAt(batch: Batch, nowMs: number, wallNowMs = Date.now()): number {
  const stamp: unknown = (batch as { fetchRequestedAt?: unknown }).fetchRequestedAt;
  if (typeof stamp !== "number" || !Number.isFinite(stamp)) return nowMs;
  return nowMs - Math.max(0, wallNowMs - stamp);
}

/**
 * The instant up to which a partition is complete once a chunk through `throughOffset` is applied
 * (docs/contract.md §7 `X-Data-As-Of`): when the chunk reaches the high watermark Kafka reported
 * with the batch, the instant the batch was taken up (`fetchedAtMs`); otherwise the Kafka
 * timestamp of the first message not yet applied minus 1 ms, or, when that message is not in the
 * batch, the last applied message's timestamp. Never later than `fetchedAtMs` (a producer's clock
 * ahead does not move it past what the worker has seen). Undefined when no timestamp is usable.
 */
export function chunkAsOf({
  throughOffset,
  highWatermark,
  fetchedAtMs,
  firstNotApplied,
  lastApplied,
}: {
  throughOffset: string;
  highWatermark: string;
  fetchedAtMs: number;
  firstNotApplied: Pick<KafkaMessage, "timestamp"> | undefined;
  lastApplied: Pick<KafkaMessage, "timestamp"> | undefined;
}): number | undefined {
  if (Number(throughOffset) + 1 >= Number(highWatermark)) return fetchedAtMs;
  const timestamp = (message: Pick<KafkaMessage, "timestamp"> | undefined) => {
    const ms = Number(message?.timestamp ?? Number.NaN);
    return message !== undefined && message.timestamp !== "" && Number.isSafeInteger(ms) && ms >= 0
      ? ms
      : undefined;
  };
  const next = timestamp(firstNotApplied);
  const last = timestamp(lastApplied);
  const asOf = next !== undefined ? next - 1 : last;
  return asOf === undefined ? undefined : Math.min(asOf, fetchedAtMs);
}

function retrierFor(ctx: BatchContext, payload: EachBatchPayload): Retrying {
  const keepTrying = () => payload.isRunning() && !payload.isStale();
  return (step, fn, isRetriable) =>
    retryWithBackoff(fn, {
      shouldContinue: keepTrying,
      isRetriable,
      onRetry: async (error, attempt, delayMs) => {
        ctx.metrics.retries.inc({ step });
        ctx.onTransientFailure(step, error);
        ctx.logger.warn(
          { err: error, step, attempt, delayMs, partition: payload.batch.partition },
          "retrying",
        );
        await payload.heartbeat().catch(() => undefined);
      },
    });
}

function prepareChunk(
  ctx: BatchContext,
  batch: Batch,
  messages: KafkaMessage[],
  seen: Set<string>,
): PreparedChunk | undefined {
  const last = messages.at(-1);
  if (last === undefined) return undefined;
  const grouped = validateAndGroup(messages, { futureToleranceMs: ctx.futureToleranceMs, seen });
  // Every organization of the chunk has had all its messages up to the chunk's last one.
  const origin = { partition: partitionKey(batch.topic, batch.partition), throughOffset: last.offset };
  const work = [...grouped.byOrg].map(([org, recordings]) => {
    try {
      return { org, recordings, batch: ctx.writer.prepare(org, recordings, origin) };
    } catch {
      // Applied recording by recording later (applyRecordings), so the culprit is found and refused.
      return { org, recordings, batch: undefined };
    }
  });
  return { messages, grouped, work, origin };
}

/**
 * Applies one prepared chunk and dead-letters its rejects, then moves the partition's checkpoint
 * past it and resolves its offset, all in the chunk's span (chunkSpan.ts). The script calls are
 * written to Redis before this returns (no await comes first; those past the writer's window of
 * calls in flight follow as earlier ones are answered), so Redis works on this chunk while
 * the caller prepares the next.
 */
function applyChunk(
  ctx: BatchContext,
  payload: EachBatchPayload,
  retrying: Retrying,
  position: { current: Position },
  chunk: PreparedChunk,
  asOfMs: number | undefined,
): Promise<void> {
  const { topic, partition } = payload.batch;
  return inChunkSpan(
    { topic, partition, records: chunk.messages, organizations: chunk.work.length },
    (span) => applyChunkIn(span, { ctx, payload, retrying, position, chunk, asOfMs }),
  );
}

/** One chunk to apply, with what applying it needs. */
interface ChunkWork {
  ctx: BatchContext;
  payload: EachBatchPayload;
  retrying: Retrying;
  position: { current: Position };
  chunk: PreparedChunk;
  asOfMs: number | undefined;
}

async function applyChunkIn(
  span: Span,
  { ctx, payload, retrying, position, chunk, asOfMs }: ChunkWork,
): Promise<void> {
  const started = performance.now();
  // Taken once the previous chunk moved the checkpoint; every call of this chunk, retries
  // included, is guarded by it.
  const { generation, stored } = position.current;
  const shards = ctx.positions.shardWrites(position.current);
  const guard = { checkpoint: stored, shards };
  const deps: OrganizationApplyDeps<Sourced> = {
    prepare: (org, recordings, origin) => ctx.writer.prepare(org, recordings, origin),
    apply: (batch) => ctx.writer.applyPrepared(generation, batch, guard),
    retrying: (fn, isRetriable) => retrying("apply", fn, isRetriable),
  };
  // Organizations share script calls where their keys allow (RollupWriter.groups); those whose
  // batch could not be prepared go alone, to find the culprit. Settled one by one before a failure
  // is thrown: no apply of this chunk is left running behind.
  const batches = chunk.work.flatMap(({ batch }) => (batch === undefined ? [] : [batch]));
  const applying = settleAll([
    ...ctx.writer
      .groups(batches)
      .map((group) => applyGroup(deps, ctx.writer.applyGroup(generation, group, guard))),
    ...chunk.work
      .filter(({ batch }) => batch === undefined)
      .map(({ org, recordings }) => applyRecordings(deps, org, recordings, chunk.origin).then((o) => [o])),
  ]).then((outcomes) => {
    span.setAttribute(CHUNK_ATTRIBUTES.scriptMs, performance.now() - started);
    return outcomes.flat();
  });
  const rejecting = deadLetter(ctx, payload.batch, retrying, chunk.grouped.rejected);
  const [outcomes] = await Promise.all([applying, rejecting]);
  await deadLetter(ctx, payload.batch, retrying, refusedLetters(ctx, outcomes));
  ctx.onTransientFailure("apply", undefined);

  let countedInChunk = 0;
  for (const { counted, duplicates, replayed } of outcomes) {
    ctx.metrics.applied.inc(counted);
    ctx.metrics.duplicates.inc(duplicates);
    ctx.metrics.replayed.inc(replayed);
    countedInChunk += counted;
  }
  span.setAttribute(CHUNK_ATTRIBUTES.counted, countedInChunk);
  ctx.metrics.duplicates.inc(chunk.grouped.repeatedInBatch);
  ctx.metrics.batchSeconds.observe((performance.now() - started) / 1000);
  const { partition } = payload.batch;
  const lastOffset = chunk.origin.throughOffset;
  const next = String(Number(lastOffset) + 1);
  const moved = await retrying(
    "checkpoint",
    () => ctx.positions.advance(partition, position.current, next, asOfMs, shards.written),
    isRetriable,
  );
  if (moved === undefined) throw new PositionMovedError();
  position.current = moved;
  payload.resolveOffset(lastOffset);
  ctx.metrics.lag.set(
    { partition: String(partition) },
    Math.max(0, Number(payload.batch.highWatermark) - Number(lastOffset) - 1),
  );
}

function refusedLetters(
  ctx: BatchContext,
  outcomes: ReadonlyArray<OrganizationOutcome<Sourced>>,
): DeadLetter[] {
  return outcomes.flatMap(({ refused }) =>
    refused.map(({ recording, error }) => {
      const { organization_id, recording_id } = recording.event;
      ctx.logger.error({ err: error, organization_id, recording_id }, "the store refused a recording");
      return { message: recording.source, reason: `apply_failed: ${describeError(error)}` };
    }),
  );
}

/** An error's message with its causes' ("applying a batch to Redis failed: WRONGTYPE ..."). */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  for (
    let e: unknown = error;
    e !== undefined && parts.length < 4;
    e = e instanceof Error ? e.cause : undefined
  ) {
    parts.push(e instanceof Error ? e.message : String(e));
  }
  return parts.join(": ");
}

/** Sends dead letters, except those a replay meets again (sent when their message was first met). */
async function deadLetter(
  ctx: BatchContext,
  batch: Batch,
  retrying: Retrying,
  all: readonly DeadLetter[],
): Promise<void> {
  const sentBelow = ctx.positions.deadLettersSentBelow(batch.partition);
  const letters = all.filter(({ message }) => Number(message.offset) >= sentBelow);
  ctx.metrics.replayed.inc(all.length - letters.length);
  if (letters.length === 0) return;
  for (const { message } of letters) {
    const undecodable = undecodableBatchOf(message);
    if (undecodable !== undefined) ctx.onUndecodable(batch.topic, batch.partition, undecodable);
  }
  const source = { topic: batch.topic, partition: batch.partition };
  await ctx.sendDeadLetters?.(source, letters, (fn, isRetriable) => retrying("dead-letter", fn, isRetriable));
  for (const { reason } of letters) ctx.metrics.deadLettered.inc({ reason: reasonKind(reason) });
}

/** `Promise.all` that waits for every promise to settle before it rejects with the first failure. */
async function settleAll<T>(promises: ReadonlyArray<Promise<T>>): Promise<T[]> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}
