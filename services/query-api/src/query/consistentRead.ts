import { FUTURE_TOLERANCE_HOURS } from "@vu/events";
import type {
  BlockRef,
  BlockSnapshot,
  OrganizationExtent,
  Projection,
  ReadOptions,
  ReadView,
  RollupReader,
} from "@vu/store";
import { type DataExtent, keptAt, type PlanContext } from "../planner";

const FUTURE_TOLERANCE_MS = FUTURE_TOLERANCE_HOURS * 3_600_000;
/** Plans made from an extent that then changed under them, before the plan ignores the extent. */
const EXTENT_ATTEMPTS = 2;

/**
 * Where the planner must read, from where the organization has data. The end is never before
 * `now` + the future tolerance: no recording can be counted later than that, so live ingest (which
 * moves the last recording forward all the time) does not change the plan.
 */
export function dataExtentOf(extent: OrganizationExtent, nowMs: number): DataExtent {
  if (extent === "unknown") return undefined;
  if (extent === null) return { startMs: 0, endMs: 0 };
  return { startMs: extent.firstMs, endMs: Math.max(extent.lastMs + 1, nowMs + FUTURE_TOLERANCE_MS) };
}

const sameDataExtent = (a: DataExtent, b: DataExtent) =>
  a === b || (a !== undefined && b !== undefined && a.startMs === b.startMs && a.endMs === b.endMs);

export interface ConsistentReadOptions<P> {
  reader: RollupReader;
  context: PlanContext;
  org: string;
  projection: Projection;
  read: ReadOptions;
  /**
   * A plan for the context (with the organization's data extent, and `maxBlocks` for the planner to
   * refuse past) and the blocks it reads.
   */
  plan(context: PlanContext): { plan: P; blocks: readonly BlockRef[] };
}

/**
 * Plans within the organization's data extent and reads the plan's blocks in one MULTI, which
 * returns the extent again in the same state as the blocks, and is confirmed to belong to the
 * view's epoch, live (a store that lost its state meanwhile answers 503, not zeros; on a single
 * Redis the view's status comes in the same MULTI). With the generation cached and the extent
 * from the reader's recent reads, a query is one Redis round trip. When the extent moved in
 * between so that the plan would differ, the plan is made again: the answer is one state of the store.
 */
export async function readConsistently<P>(
  options: ConsistentReadOptions<P>,
): Promise<{ plan: P; snapshot: BlockSnapshot; view: ReadView }> {
  const { reader, context, org } = options;
  const view = await reader.view();
  const { generation } = view;
  // The extent the last read saw, while recent, saves a round trip: the MULTI below returns the
  // extent again in the blocks' own state, so a stale hint only costs a second plan.
  const known = reader.recentExtent(generation, org) ?? (await reader.extent(generation, org));
  let extent = dataExtentOf(known, context.now);
  for (let attempt = 1; ; attempt++) {
    const bounded = attempt <= EXTENT_ATTEMPTS;
    const { plan, blocks } = options.plan({ ...context, dataExtent: bounded ? extent : undefined });
    // The blocks the cover may use are those still kept: the store may read a block as finer ones
    // that are kept too, when fewer stored cells hold them.
    const read = { ...options.read, confirming: view, kept: keptAt(context) };
    const snapshot = await reader.readBlocks(generation, org, blocks, options.projection, read);
    const seen = dataExtentOf(snapshot.extent, context.now);
    if (!bounded || sameDataExtent(seen, extent)) return { plan, snapshot, view };
    extent = seen;
  }
}
