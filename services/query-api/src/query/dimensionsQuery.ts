import { DIMENSIONS, type Dimension } from "@vu/events";
import type { ComputedAnswer } from "../cache/resultCache";
import { answerOf } from "./answers";
import { DimensionLists } from "./dimensionLists";
import type { QueryDeps } from "./statsQuery";

/** The dimensions `/stats/dimensions` always lists, in the seed's order (voice, language, app). */
export const LISTED_DIMENSIONS = DIMENSIONS.filter((d) => d !== "member_email");

/**
 * What keeping one value costs, in the result cache's rows (about 150 bytes each): an address-sized
 * value, its lower-cased copy and its share of the bodies rendered from the lists
 * (http/renderedPages.ts) take about one.
 */
const ROWS_PER_VALUE = 1;

/**
 * The dimensions' distinct values and the write stamp, read in one state of the store and sorted
 * once; only the sets asked for are read (an organization's members can be many).
 */
async function readLists(
  org: string,
  which: readonly Dimension[],
  deps: Pick<QueryDeps, "reader">,
): Promise<ComputedAnswer<DimensionLists>> {
  const view = await deps.reader.view();
  const { values, stamp } = await deps.reader.dimensionsAtStamp(view.generation, org, which);
  await deps.reader.confirm(view);
  const lists = new DimensionLists(values);
  return { value: lists, view, stamp, rows: 1 + lists.size * ROWS_PER_VALUE };
}

/**
 * The sorted values of `which` dimensions, kept by the organization's write stamp (a repeated
 * request costs the stamp's HGET), or read now with `noCache`.
 */
export async function queryDimensionLists(
  org: string,
  which: readonly Dimension[],
  noCache: boolean,
  deps: Pick<QueryDeps, "reader" | "results" | "bounds" | "stampAtStart">,
): Promise<DimensionLists> {
  return answerOf(deps, org, JSON.stringify(["dimensions", which]), noCache, () =>
    readLists(org, which, deps),
  );
}
