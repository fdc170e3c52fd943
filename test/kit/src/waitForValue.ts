import { inspect, isDeepStrictEqual } from "node:util";
import { waitFor } from "@vu/infra";
import { counterTotal } from "./metrics";

export interface WaitForValueOptions {
  /** Names what is read, for the timeout error, e.g. "the worker's applied counter". */
  message: string;
  /** Default 30 s. */
  timeoutMs?: number;
}

/**
 * Waits until `read()` gives exactly `expected` (deep equality) and fails naming the last value
 * read, so an overshoot or a value that never came shows as such. For what moves after the event a
 * test can see: the worker moves its counters only once the Redis reply and the dead-letter send
 * have both returned, so a test that has seen the store or the dead-letter topic change waits for
 * the counters here instead of reading them at once.
 */
export async function waitForValue<T>(
  read: () => T | Promise<T>,
  expected: T,
  { message, timeoutMs = 30_000 }: WaitForValueOptions,
): Promise<void> {
  let last: { value: T } | undefined;
  try {
    await waitFor(
      async () => {
        last = { value: await read() };
        return isDeepStrictEqual(last.value, expected);
      },
      { timeoutMs, intervalMs: 50, message },
    );
  } catch (error) {
    const seen = last === undefined ? "nothing read" : `last read ${inspect(last.value, { depth: 4 })}`;
    throw new Error(`${message}: expected ${inspect(expected, { depth: 4 })}, ${seen}`, { cause: error });
  }
}

/** Waits until `counter`'s total over all its labels is exactly `expected` (see `waitForValue`). */
export function waitForCounterTotal(
  counter: Parameters<typeof counterTotal>[0],
  expected: number,
  options: WaitForValueOptions,
): Promise<void> {
  return waitForValue(() => counterTotal(counter), expected, options);
}
