import type { ReadView, RollupReader } from "@vu/store";
import { type StampAtStart, stampIn } from "../cache/stampAtStart";
import { cutRange, type PlanContext, previousRange, resolveRange } from "../planner";
import { answerState, framesOf } from "./answerState";
import type { BucketEnds } from "./bucketCompleteness";
import { checkShapeParameters, type StatsRequest, type SummaryRequest } from "./statsQuery";

/**
 * The state now, as the result cache checks a kept answer: the view (cached for a moment) and one
 * `HGET` of the stamp (the one read as the request started, when given). An answer computed in
 * this state has exactly this state.
 */
export async function stateNow(
  reader: Pick<RollupReader, "writeStamp">,
  view: ReadView,
  org: string,
  atStart?: StampAtStart,
) {
  return answerState(view, await stampIn(reader, view, org, atStart));
}

/** The frame of a `/stats` answer planned at `context`, and its buckets' ends, without reading anything. */
export function statsFrame(request: StatsRequest, context: PlanContext): { frame: string; ends: BucketEnds } {
  // A question refused before anything is read is refused here too: no tag can stand for it.
  checkShapeParameters(request);
  const bucketing = { granularity: request.granularity, weekStart: request.weekStart };
  const resolved = resolveRange(request, context);
  const cut = cutRange(resolved, bucketing, context);
  if (request.compare === undefined) return { frame: cut.frame, ends: { buckets: cut.rangeBuckets } };
  const before = cutRange(previousRange(request.compare, resolved, context).range, bucketing, context);
  return { frame: framesOf(cut.frame, before.frame), ends: { buckets: cut.rangeBuckets } };
}

/** The frame of a `/stats/summary` answer planned at `context`. */
export function summaryFrame(request: SummaryRequest, context: PlanContext): string {
  const resolved = resolveRange(request, context);
  const cut = cutRange(resolved, { granularity: "all" }, context);
  if (request.compare === undefined) return cut.frame;
  const before = previousRange(request.compare, resolved, context).range;
  return framesOf(cut.frame, cutRange(before, { granularity: "all" }, context).frame);
}
