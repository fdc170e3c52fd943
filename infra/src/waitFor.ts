export interface WaitForOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Names the condition in the timeout error, e.g. "consumer joined the group". */
  message?: string;
}

type Truthy<T> = Exclude<T, false | null | undefined | 0 | "">;

/**
 * Polls `fn` until it returns a truthy value and resolves with that value. A throw counts as "not yet"
 * (brokers and servers refuse connections while they start), and the last error is kept as the cause
 * of the timeout so a failure says why, not only that it took too long. Each attempt is also bounded
 * by the deadline, so a call that hangs cannot hang the wait.
 */
export async function waitFor<T>(fn: () => T | Promise<T>, options: WaitForOptions = {}): Promise<Truthy<T>> {
  const { timeoutMs = 10_000, intervalMs = 100, message = "condition" } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    const remaining = deadline - Date.now();
    try {
      const value = await withDeadline(Promise.resolve().then(fn), Math.max(remaining, 1));
      if (value) return value as Truthy<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() + intervalMs > deadline) break;
    await sleep(intervalMs);
  }
  const detail = lastError instanceof Error ? `: last error: ${lastError.message}` : "";
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${message}${detail}`, { cause: lastError });
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`attempt still running after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
