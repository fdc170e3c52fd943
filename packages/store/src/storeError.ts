/**
 * A failure of the store. `retriable` tells the caller whether trying again later can succeed
 * (Redis unreachable, a failover) or not (a reply this code does not understand).
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
 * The partition's checkpoint in Redis is not the one the worker resumed from: Redis lost its state
 * or went back to an older one, or another consumer moved on. Nothing was written; the worker
 * resumes from where Redis stands.
 */
export class CheckpointMovedError extends StoreError {
  constructor(readonly checkpoint: string | null) {
    super(`the partition's checkpoint in Redis is ${checkpoint ?? "gone"}, not where this worker resumed`, {
      retriable: false,
    });
    this.name = "CheckpointMovedError";
  }
}
