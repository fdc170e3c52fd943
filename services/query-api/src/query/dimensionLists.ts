import type { Dimension } from "@vu/events";

/** Which values of one dimension a request asks for (docs/contract.md §7: `q`, `limit`). */
export interface ValueSelection {
  /** Only values containing it, ignoring case; empty or absent selects every value. */
  q?: string | undefined;
  /** At most this many values, the first in order. */
  limit?: number | undefined;
}

/**
 * An organization's distinct values of some dimensions, sorted once (the store's byte order),
 * kept by the result cache for as long as the write stamp they were read at holds. Each list's
 * lower-cased copy, which `q` is matched against, is made once too, at the first `q`.
 */
export class DimensionLists<D extends Dimension = Dimension> {
  private readonly lowered = new Map<D, string[]>();

  constructor(private readonly lists: Readonly<Record<D, readonly string[]>>) {}

  /** How many values are held in all (what keeping them weighs). */
  get size(): number {
    let size = 0;
    for (const list of Object.values<readonly string[]>(this.lists)) size += list.length;
    return size;
  }

  /** The values of `dimension` that `selection` asks for, in order. */
  select(dimension: D, { q, limit }: ValueSelection): readonly string[] {
    const list = this.lists[dimension];
    const max = limit ?? list.length;
    if (q === undefined || q === "") return max >= list.length ? list : list.slice(0, max);
    const needle = q.toLowerCase();
    const lowered = this.loweredOf(dimension);
    const selected: string[] = [];
    for (let i = 0; i < list.length && selected.length < max; i++) {
      if ((lowered[i] as string).includes(needle)) selected.push(list[i] as string);
    }
    return selected;
  }

  private loweredOf(dimension: D): string[] {
    let lowered = this.lowered.get(dimension);
    if (lowered === undefined) {
      lowered = this.lists[dimension].map((value) => value.toLowerCase());
      this.lowered.set(dimension, lowered);
    }
    return lowered;
  }
}
