export interface RetryOptions {
  /** Stop retrying (and rethrow) when this turns false, e.g. the consumer is stopping. */
  shouldContinue: () => boolean;
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void | Promise<void>;
  isRetriable?: (error: unknown) => boolean;
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/** Thrown when retrying gave up because the caller asked it to stop. */
export class RetryAbortedError extends Error {
  constructor(cause: unknown) {
    super("retry aborted", { cause });
    this.name = "RetryAbortedError";
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Retries `fn` with exponential backoff and jitter for as long as the caller wants: an outage of
 * Redis or Kafka pauses ingest instead of dropping data or crashing the process.
 */
export async function retryWithBackoff<T>(fn: () => Promise<T>, options: RetryOptions): Promise<T> {
  const {
    shouldContinue,
    onRetry,
    isRetriable = () => true,
    initialDelayMs = 100,
    maxDelayMs = 5_000,
  } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!isRetriable(error)) throw error;
      if (!shouldContinue()) throw new RetryAbortedError(error);
      const ceiling = Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1));
      const delayMs = Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
      await onRetry?.(error, attempt, delayMs);
      await sleep(delayMs);
    }
  }
}
