import { StoreError } from "@vu/store";

/**
 * Whether a step of the worker that failed (finding its position, applying a chunk, moving a
 * checkpoint) is tried again: the one rule the batch handler and the organizations' applies read.
 *
 * A failure of the store carries the store's own verdict, `StoreError.retriable`, and it is read
 * here, never decided again: Redis away, loading or refusing writes for a while is tried again; a
 * reply the same call would get again (a key of the wrong type, a script's error) is not, and
 * neither is the view having moved under the worker (ViewMovedError), which the worker answers by
 * repositioning. Any other failure is tried again unless it is a fault of this code (a TypeError or
 * RangeError, met again by the same call, or by the encoder on the same recording): Kafka's admin
 * or the token restore failing are outages the worker waits out.
 */
export function isRetriable(error: unknown): boolean {
  if (error instanceof StoreError) return error.retriable;
  return !(error instanceof TypeError) && !(error instanceof RangeError);
}
