import type { ReadView } from "@vu/store";
import type { Response } from "express";
import type { RouteDeps } from "./routeDeps";

/** docs/contract.md §7: the header naming the instant up to which the answer holds every event. */
export const DATA_AS_OF_HEADER = "X-Data-As-Of";

/**
 * The instant to send as `X-Data-As-Of` with an answer (docs/contract.md §7). `before` is the
 * store's view taken before the answer was read or found kept (the reader's view, cached for a
 * moment, so a request costs no round trip for it): its "as of" was read from the log hash before
 * the answer's data, so the answer holds every event produced before it. A kept answer is exact
 * for the current state, so it gets the current instant. Undefined when none is known, or when
 * the epoch changed under the request (the instant described another state).
 */
export async function confirmedAsOf(
  deps: Pick<RouteDeps, "reader">,
  before: ReadView,
): Promise<number | undefined> {
  const asOfMs = before.asOfMs;
  if (asOfMs === undefined || asOfMs === null) return undefined;
  // The answer was confirmed already; a store that stopped being live since only loses the header.
  const after = await deps.reader.view().catch(() => undefined);
  return after?.epoch === before.epoch ? asOfMs : undefined;
}

/** Sends `X-Data-As-Of`, when an instant is known. */
export function setDataAsOf(res: Response, asOfMs: number | null | undefined): void {
  if (asOfMs !== undefined && asOfMs !== null) res.set(DATA_AS_OF_HEADER, new Date(asOfMs).toISOString());
}
