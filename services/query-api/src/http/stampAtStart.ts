import type { RollupReader } from "@vu/store";
import type { RequestHandler } from "express";
import type { StampAtStart } from "../cache/stampAtStart";
import { authOf } from "./authenticate";

const LOCALS_KEY = "stampAtStart";

/**
 * Sends the read of the organization's write stamp as the request starts, before the rate limit
 * counts it and without waiting for it: both go to Redis at once and take one round trip, and a
 * kept answer (or a conditional request) is then checked without another (query/stampAtStart.ts).
 * A view that cannot be had now is left to the operation, which meets it again and answers for it
 * after the rate limit, as it would without this.
 */
export function readStampAtStart(reader: Pick<RollupReader, "view" | "writeStamp">): RequestHandler {
  return async (_req, res, next) => {
    const view = await reader.view().catch(() => undefined);
    if (view !== undefined) {
      const stamp = reader.writeStamp(view.generation, authOf(res.locals).org);
      // A failure reaches whoever uses the stamp; unused, it is nobody's.
      stamp.catch(() => undefined);
      const atStart: StampAtStart = { view, stamp };
      res.locals[LOCALS_KEY] = atStart;
    }
    next();
  };
}

/** The stamp `readStampAtStart` read for this request, if it did. */
export function stampAtStartOf(locals: Record<string, unknown>): StampAtStart | undefined {
  return locals[LOCALS_KEY] as StampAtStart | undefined;
}
