import { nextUtc } from "@vu/time-buckets";
import { DERIVED_FROM, type OrgLayout, type StoredTier } from "../format/blockPlacement";
import type { StoredCells } from "./containerCells";
import type { BlockRef } from "./readPlan";

/**
 * The blocks a read fetches for the blocks asked for: each block of a derived tier
 * (blockPlacement.ts), or one that started before its tier stopped being derived, is fetched as
 * the blocks of its source tier that it spans (a week's or a month's UTC days), every other block
 * as itself. `from[i]` .. `from[i + 1]` are the fetched blocks of the i-th block asked for.
 */
export interface DerivedRead {
  fetched: BlockRef[];
  from: Int32Array;
}

export function derivedRead(blocks: readonly BlockRef[], layout: OrgLayout): DerivedRead {
  const fetched: BlockRef[] = [];
  const from = new Int32Array(blocks.length + 1);
  blocks.forEach((block, i) => {
    from[i] = fetched.length;
    const source = sourceOf(block, layout);
    if (source === undefined) {
      fetched.push(block);
      return;
    }
    const end = nextUtc(block.tier, block.startMs);
    for (let start = block.startMs; start < end; start = nextUtc(source, start)) {
      fetched.push({ tier: source, startMs: start });
    }
  });
  from[blocks.length] = fetched.length;
  return { fetched, from };
}

/** The tier a block is read from instead of its own, if any. */
function sourceOf(block: BlockRef, layout: OrgLayout): StoredTier | undefined {
  const tier = block.tier as StoredTier;
  const source = DERIVED_FROM[tier];
  if (source === undefined) return undefined;
  if (layout.placement[tier] === "derived") return source;
  const until = layout.derivedUntil[tier];
  return until !== null && until !== undefined && block.startMs <= until ? source : undefined;
}

/**
 * Per block asked for, the cells of its fetched blocks as one list (`cells` has one entry per
 * fetched block): readers sum repeated fields, as they sum a block's cells from several places.
 * A list that is one fetched block's is that block's own array, so identical reads stay shared.
 */
export function cellsAsked(read: DerivedRead, cells: readonly StoredCells[]): StoredCells[] {
  const asked: StoredCells[] = [];
  for (let i = 0; i + 1 < read.from.length; i++) {
    const parts: StoredCells[] = [];
    for (let k = read.from[i] as number; k < (read.from[i + 1] as number); k++) {
      const part = cells[k];
      if (part !== undefined && part.length > 0) parts.push(part);
    }
    asked.push(parts.length === 1 ? (parts[0] as StoredCells) : parts.flat());
  }
  return asked;
}
