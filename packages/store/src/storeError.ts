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
