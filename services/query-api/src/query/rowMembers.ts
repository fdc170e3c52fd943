/**
 * docs/contract.md §9 `include=active_members`: each row's distinct members, as numbers one
 * aggregation gives its members (the store's, `BucketSumsSink`). A row's members are the ids at
 * `ids[start[i]..start[i + 1])`, so its count is `start[i + 1] − start[i]` whether or not the ids
 * are still held: an answer drops them once shaped (compacted), since only the "(other)" row and
 * a compared row's counterpart ever need to know who, not how many.
 */
export class RowMembers {
  constructor(
    /** Per row i, where its members start in `ids`; one more entry than rows. */
    readonly start: Int32Array,
    /** The members' ids, row after row; undefined once compacted. */
    readonly ids: Int32Array | undefined,
    /** docs/contract.md §7 `compare`: per row, the previous row's count. */
    readonly previousCounts?: Int32Array,
  ) {}

  count(i: number): number {
    return (this.start[i + 1] as number) - (this.start[i] as number);
  }

  /** Row i's members' ids (a view, not a copy). */
  of(i: number): Int32Array {
    if (this.ids === undefined)
      throw new Error("RowMembers: the ids were dropped when the answer was shaped");
    return this.ids.subarray(this.start[i] as number, this.start[i + 1] as number);
  }

  /** The members of every row together, counted once each: the whole range's (a summary). */
  distinct(): number {
    if (this.ids === undefined)
      throw new Error("RowMembers: the ids were dropped when the answer was shaped");
    return new Set(this.ids).size;
  }

  /** The counts alone: what an answer keeps once shaped. */
  compacted(): RowMembers {
    return this.ids === undefined ? this : new RowMembers(this.start, undefined, this.previousCounts);
  }
}

/** The ids in any of `lists`, once each: the members of the rows an "(other)" row folds. */
export function unionOf(lists: ReadonlyArray<ArrayLike<number> | undefined>): Int32Array {
  const seen = new Set<number>();
  for (const list of lists) {
    if (list === undefined) continue;
    for (let k = 0; k < list.length; k++) seen.add(list[k] as number);
  }
  return Int32Array.from(seen);
}

/** Collects rows' members as rows are pushed (RowTableBuilder), then orders them with the rows. */
export class RowMembersBuilder {
  private start = new Int32Array(257);
  private ids = new Int32Array(256);
  private previousCounts: Int32Array | undefined;
  private rows = 0;

  constructor(withPrevious: boolean) {
    if (withPrevious) this.previousCounts = new Int32Array(256);
  }

  /** Row `rows`' members (and with compare, its previous row's count). */
  push(members: ArrayLike<number>, previousCount: number): void {
    const row = this.rows++;
    if (row + 1 >= this.start.length) this.start = grown(this.start, 2 * this.start.length);
    const from = this.start[row] as number;
    if (from + members.length > this.ids.length)
      this.ids = grown(this.ids, Math.max(2 * this.ids.length, from + members.length));
    for (let k = 0; k < members.length; k++) this.ids[from + k] = members[k] as number;
    this.start[row + 1] = from + members.length;
    if (this.previousCounts) {
      if (row >= this.previousCounts.length)
        this.previousCounts = grown(this.previousCounts, 2 * this.previousCounts.length);
      this.previousCounts[row] = previousCount;
    }
  }

  /** The rows as pushed. */
  build(): RowMembers {
    const n = this.rows;
    const start = this.start.slice(0, n + 1);
    return new RowMembers(start, this.ids.slice(0, start[n]), this.previousCounts?.slice(0, n));
  }

  /** The rows in another order: row i of the result is row `order[i]` as pushed. */
  buildInOrder(order: Int32Array): RowMembers {
    const pushed = this.build();
    const start = new Int32Array(order.length + 1);
    const ids = new Int32Array(pushed.ids?.length ?? 0);
    const previousCounts = pushed.previousCounts && new Int32Array(order.length);
    order.forEach((from, to) => {
      const members = pushed.of(from);
      ids.set(members, start[to] as number);
      start[to + 1] = (start[to] as number) + members.length;
      if (previousCounts) previousCounts[to] = pushed.previousCounts?.[from] as number;
    });
    return new RowMembers(start, ids, previousCounts);
  }
}

function grown(array: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(size);
  bigger.set(array);
  return bigger;
}
