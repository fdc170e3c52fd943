import type { ReadView, RollupReader } from "@vu/store";

/**
 * The organization's write stamp read as a request started, in `view` (http/stampAtStart.ts sends
 * its read beside the rate limit's count, so both take one round trip). Whatever checks a kept
 * answer at the request's start (the result cache, a conditional request) may use it instead of
 * reading the stamp again: read after the request arrived, it is the state a kept answer must
 * match, as one read now would be.
 */
export interface StampAtStart {
  view: ReadView;
  stamp: Promise<string | null>;
}

/** The stamp read at the request's start when it was read in `view`, else one read now. */
export function stampIn(
  reader: Pick<RollupReader, "writeStamp">,
  view: ReadView,
  org: string,
  atStart?: StampAtStart,
): Promise<string | null> {
  const same =
    atStart !== undefined && atStart.view.generation === view.generation && atStart.view.epoch === view.epoch;
  return same ? atStart.stamp : reader.writeStamp(view.generation, org);
}
