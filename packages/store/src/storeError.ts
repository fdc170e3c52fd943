/**
 * A failure of the store. `retriable` tells the caller whether trying the same call again later can
 * succeed (Redis unreachable, a failover) or not (a reply this code does not understand): the one
 * verdict callers act on (the worker's retry rule, services/ingest-worker/src/retryRule.ts).
 */
export class StoreError extends Error {
  readonly retriable: boolean;
  readonly context: Readonly<Record<string, unknown>>;

  constructor(
    message: string,
    options: { retriable: boolean; cause?: unknown; context?: Record<string, unknown> },
  ) {
    super(message, { cause: options.cause });
    this.name = "StoreError";
    this.retriable = options.retriable;
    this.context = options.context ?? {};
  }
}

/**
 * Redis is not where the worker resumed from (a checkpoint elsewhere, a shard behind): nothing of
 * the call was written, and nothing is the batch's fault. Never retriable: the same call meets the
 * same view again. The worker stops the batch and resumes from where the view stands.
 */
export class ViewMovedError extends StoreError {
  constructor(message: string, options: { cause?: unknown; context?: Record<string, unknown> } = {}) {
    super(message, { ...options, retriable: false });
    this.name = "ViewMovedError";
  }
}

/**
 * The partition's checkpoint in Redis is not the one the worker resumed from: Redis lost its state
 * or went back to an older one, or another consumer moved on. Nothing was written; the worker
 * resumes from where Redis stands.
 */
export class CheckpointMovedError extends ViewMovedError {
  constructor(readonly checkpoint: string | null) {
    super(`the partition's checkpoint in Redis is ${checkpoint ?? "gone"}, not where this worker resumed`);
    this.name = "CheckpointMovedError";
  }
}

/**
 * On a cluster: a shard holds fewer apply calls than the view's checkpoints recorded (or than this
 * worker made): its node lost writes the checkpoints say are applied. Nothing was written; the
 * worker has the view replayed.
 */
export class ShardBehindError extends ViewMovedError {
  constructor(
    readonly shard: number,
    readonly count: number,
    readonly least: number,
  ) {
    super(
      `shard ${shard} holds ${count} apply calls, fewer than the ${least} the view recorded: its node lost writes`,
    );
    this.name = "ShardBehindError";
  }
}

/**
 * On a cluster: a later writer has claimed the partition (the shard holds its higher `fence`): this
 * one outlived its group assignment, or is a rebuild still running beside the live worker. Nothing
 * was written; the writer stops writing the partition, and the view stays as it is.
 */
export class PartitionFencedError extends ViewMovedError {
  constructor(
    readonly shard: number,
    readonly fence: string,
  ) {
    super(`shard ${shard} has seen the fence ${fence} of a later writer of the partition`);
    this.name = "PartitionFencedError";
  }
}

/**
 * A large read whose slices never saw one state: the organization's batches kept landing between
 * them, try after try. One MULTI would make it one state, but a read this large would hold Redis,
 * and every other organization and ingest with it, for as long as it takes; so it is refused
 * instead. Trying again later, when fewer of the organization's batches are landing, can succeed.
 */
export class ReadKeptMovingError extends StoreError {
  constructor(
    readonly fields: number,
    readonly attempts: number,
  ) {
    super(`the organization's data moved during each of ${attempts} reads of ${fields} fields in slices`, {
      retriable: true,
    });
    this.name = "ReadKeptMovingError";
  }
}
