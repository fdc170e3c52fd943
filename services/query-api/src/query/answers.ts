import type { ComputedAnswer, ResultCache } from "../cache/resultCache";
import type { StampAtStart } from "../cache/stampAtStart";
import { type ComputationBounds, UNBOUNDED_COMPUTATIONS } from "./computationBounds";
import type { Admission } from "./largeReads";

/** Where the operations get their answers: kept ones, and the bounds new ones are computed within. */
export interface AnswerDeps {
  /** Answers kept by the organization's write stamp; without it every request computes. */
  results?: ResultCache;
  /** What every computation passes through (computationBounds.ts); without it, none. */
  bounds?: ComputationBounds;
  /** The request's write stamp read as it started, for the result cache to check a kept answer by. */
  stampAtStart?: StampAtStart | undefined;
}

/**
 * The answer to `key` for `org`: kept by the result cache (see ResultCache.answer for when it
 * computes anyway), or computed by `compute` within the bounds.
 */
export async function answerOf<T>(
  deps: AnswerDeps,
  org: string,
  key: string | undefined,
  noCache: boolean,
  compute: (admission: Admission) => Promise<ComputedAnswer<T>>,
): Promise<T> {
  const bounded = () => (deps.bounds ?? UNBOUNDED_COMPUTATIONS)(org, compute);
  if (deps.results === undefined) return (await bounded()).value;
  return deps.results.answer(org, key, noCache, bounded, deps.stampAtStart);
}
