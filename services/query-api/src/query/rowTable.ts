import { PERCENTILE_TIMES } from "@vu/api-responses";
import type { Dimension } from "@vu/events";
import { mergeSketches, type PercentileSketch, SUM_FIELDS, type Sums, sumsFromSlots } from "@vu/store";
import type { GroupValues } from "./groupTable";
import { type RowMembers, RowMembersBuilder } from "./rowMembers";

/** Numbers per row: the seven sums, in SUM_FIELDS order. */
export const WIDTH = SUM_FIELDS.length;

const NO_MEMBERS = new Int32Array(0);
/** A row pushed without a sketch (a zero row of `fill`): no recording has a time. */
const EMPTY_SKETCH = mergeSketches([]);

/** What a row table needs of a bucket. */
export interface TableBucket {
  label: string;
  startMs: number;
}

export interface AggregatedRow {
  label: string;
  startMs: number;
  /** Present when grouped: a value per `group_by` dimension, `null` for "no language model". */
  group?: GroupValues;
  sums: Sums;
  /** docs/contract.md §7 `compare`: the sums of the same group in the paired previous bucket. */
  previous?: Sums;
  /** docs/contract.md §9 `include=active_members`: the row's distinct members. */
  activeMembers?: number;
  /** With `compare` too: the paired previous row's. */
  previousActiveMembers?: number;
  /** docs/contract.md §9 `percentiles`: the row's recordings' percentile sketch. */
  sketch?: PercentileSketch;
  /** docs/contract.md §9 `percentiles`, once resolved (RowTable.withPercentilesOf): the values asked. */
  percentiles?: RowPercentiles;
}

/**
 * docs/contract.md §9 `percentiles` of one row, as an answer keeps them: per percentile asked (in
 * `asked`'s order), the voice time's then the LLM time's, in ms; NaN where no recording has it.
 */
export interface RowPercentiles {
  asked: readonly number[];
  values: Float64Array;
}

/** docs/contract.md §7 `compare`: a row's previous sums (WIDTH values from `at`) and members. */
export interface PreviousPart {
  values: Float64Array;
  at: number;
  members?: ArrayLike<number> | undefined;
}

/** What a row may carry beside its sums. */
export interface RowExtras {
  previous?: PreviousPart | undefined;
  /** docs/contract.md §9 `include=active_members`: the row's members' ids (rowMembers.ts). */
  members?: ArrayLike<number> | undefined;
  /** docs/contract.md §9 `percentiles`: the row's percentile sketch (the store's). */
  sketch?: PercentileSketch | undefined;
}

/**
 * A query's rows, in order (bucket by bucket, groups in byte order within a bucket), held in
 * numeric arrays: seven sums, a bucket and a group index per row, no object per row. A page
 * (or a kept answer's next page) turns into objects only the rows it shows.
 */
export class RowTable {
  constructor(
    readonly buckets: readonly TableBucket[],
    readonly groupValues: readonly GroupValues[],
    /** The `group_by` dimensions, in the order asked; empty when not grouped. */
    readonly dimensions: readonly Dimension[],
    /** Per row: its bucket's index in `buckets`, its group's in `groupValues`. */
    readonly bucketOf: Int32Array,
    readonly groupOf: Int32Array,
    /** Per row, its seven sums from WIDTH × row. */
    readonly sumsOf: Float64Array,
    readonly length: number,
    /** Each group's place in the default order (docs/contract.md §2 "Rows"), by group index. */
    readonly ranks: Int32Array,
    /** docs/contract.md §7 `compare`: per row, the previous sums from WIDTH × row. */
    readonly previousOf?: Float64Array,
    /** docs/contract.md §9 `include=active_members`: per row, its distinct members. */
    readonly members?: RowMembers,
    /** docs/contract.md §9 `percentiles`: per row, its percentile sketch (until resolved). */
    readonly sketches?: readonly PercentileSketch[],
    /** docs/contract.md §9 `percentiles` resolved: the values asked, row after row (RowPercentiles). */
    readonly percentiles?: { asked: readonly number[]; values: Float64Array },
  ) {}

  sums(i: number): Sums {
    return sumsFromSlots(this.sumsOf, WIDTH * i);
  }

  row(i: number): AggregatedRow {
    const bucket = this.buckets[this.bucketOf[i] as number] as TableBucket;
    const row: AggregatedRow = { label: bucket.label, startMs: bucket.startMs, sums: this.sums(i) };
    if (this.dimensions.length > 0) row.group = this.groupValues[this.groupOf[i] as number] ?? [];
    if (this.previousOf) row.previous = sumsFromSlots(this.previousOf, WIDTH * i);
    if (this.members) {
      row.activeMembers = this.members.count(i);
      const previous = this.members.previousCounts;
      if (previous) row.previousActiveMembers = previous[i] as number;
    }
    const sketch = this.sketches?.[i];
    if (sketch) row.sketch = sketch;
    if (this.percentiles) {
      const width = PERCENTILE_TIMES.length * this.percentiles.asked.length;
      row.percentiles = {
        asked: this.percentiles.asked,
        values: this.percentiles.values.subarray(width * i, width * (i + 1)),
      };
    }
    return row;
  }

  /**
   * The table with each row's sketch turned into the percentiles asked (what an answer keeps: a
   * sketch holds up to thousands of counts, the answer needs a few numbers), in ms, NaN for none.
   */
  withPercentilesOf(asked: readonly number[] | undefined): RowTable {
    const sketches = this.sketches;
    if (sketches === undefined || asked === undefined) return this;
    const width = PERCENTILE_TIMES.length * asked.length;
    const values = new Float64Array(width * this.length);
    sketches.forEach((sketch, i) => {
      const byTime = PERCENTILE_TIMES.map((time) => sketch.percentiles(time, asked));
      let at = width * i;
      for (let q = 0; q < asked.length; q++) for (const times of byTime) values[at++] = times[q] as number;
    });
    return this.withParts({ members: this.members, sketches: undefined, percentiles: { asked, values } });
  }

  /** The table with its members counted only (RowMembers.compacted): what an answer keeps. */
  withMembersCompacted(): RowTable {
    if (this.members?.ids === undefined) return this;
    return this.withParts({
      members: this.members.compacted(),
      sketches: this.sketches,
      percentiles: this.percentiles,
    });
  }

  /** The same rows with their §9 parts replaced: everything else is shared, not copied. */
  private withParts(parts: {
    members: RowMembers | undefined;
    sketches: readonly PercentileSketch[] | undefined;
    percentiles: RowTable["percentiles"];
  }): RowTable {
    return new RowTable(
      this.buckets,
      this.groupValues,
      this.dimensions,
      this.bucketOf,
      this.groupOf,
      this.sumsOf,
      this.length,
      this.ranks,
      this.previousOf,
      parts.members,
      parts.sketches,
      parts.percentiles,
    );
  }

  /** Rows [from, to) as objects. */
  rows(from = 0, to = this.length): AggregatedRow[] {
    const rows: AggregatedRow[] = [];
    for (let i = from; i < Math.min(to, this.length); i++) rows.push(this.row(i));
    return rows;
  }

  /** Every row's sums added up. */
  total(): Sums {
    const total = new Float64Array(WIDTH);
    for (let i = 0; i < this.length * WIDTH; i++) {
      total[i % WIDTH] = (total[i % WIDTH] as number) + (this.sumsOf[i] as number);
    }
    return sumsFromSlots(total, 0);
  }
}

/** Collects rows bucket by bucket, then orders each bucket's rows by group rank. */
export class RowTableBuilder {
  private bucketOf = new Int32Array(256);
  private groupOf = new Int32Array(256);
  private sumsOf = new Float64Array(256 * WIDTH);
  private length = 0;
  /** docs/contract.md §7 `compare`: each row's previous sums (zeros where none is pushed). */
  private previousOf: Float64Array | undefined;
  /** docs/contract.md §9 `include=active_members`: each row's members (none where none are pushed). */
  private readonly members: RowMembersBuilder | undefined;
  /** docs/contract.md §9 `percentiles`: each row's sketch (empty where none is pushed). */
  private readonly sketches: PercentileSketch[] | undefined;

  constructor(options: { withPrevious?: boolean; withMembers?: boolean; withSketches?: boolean } = {}) {
    if (options.withPrevious) this.previousOf = new Float64Array(256 * WIDTH);
    if (options.withMembers) this.members = new RowMembersBuilder(options.withPrevious ?? false);
    if (options.withSketches) this.sketches = [];
  }

  /**
   * Adds a row: `bucket`'s sums for `group`, the seven values at `from[at..]`; with
   * `extras.previous` (a builder made withPrevious), the row's previous sums at
   * `previous.values[previous.at..]`; with `extras.members` (a builder made withMembers), its
   * members, and its previous row's count from `previous.members`.
   */
  push(bucket: number, group: number, from: Float64Array, at: number, extras: RowExtras = {}): void {
    const previous = extras.previous;
    if (this.length === this.bucketOf.length) this.grow();
    const i = this.length++;
    this.bucketOf[i] = bucket;
    this.groupOf[i] = group;
    // Seven assignments rather than set(subarray(...)): no view object per row.
    const sums = this.sumsOf;
    for (let k = 0, to = WIDTH * i; k < WIDTH; k++) sums[to + k] = from[at + k] as number;
    if (this.previousOf && previous) {
      const into = this.previousOf;
      for (let k = 0, to = WIDTH * i; k < WIDTH; k++)
        into[to + k] = previous.values[previous.at + k] as number;
    }
    this.members?.push(extras.members ?? NO_MEMBERS, previous?.members?.length ?? 0);
    this.sketches?.push(extras.sketch ?? EMPTY_SKETCH);
  }

  private grow(): void {
    const size = 2 * this.bucketOf.length;
    const bucketOf = new Int32Array(size);
    bucketOf.set(this.bucketOf);
    this.bucketOf = bucketOf;
    const groupOf = new Int32Array(size);
    groupOf.set(this.groupOf);
    this.groupOf = groupOf;
    const sumsOf = new Float64Array(size * WIDTH);
    sumsOf.set(this.sumsOf);
    this.sumsOf = sumsOf;
    if (this.previousOf) {
      const previousOf = new Float64Array(size * WIDTH);
      previousOf.set(this.previousOf);
      this.previousOf = previousOf;
    }
  }

  /** The table with its rows in the order pushed (a shaping step that ordered them itself). */
  buildAsPushed(
    buckets: readonly TableBucket[],
    groupValues: readonly GroupValues[],
    dimensions: readonly Dimension[],
    ranks: Int32Array,
  ): RowTable {
    const n = this.length;
    return new RowTable(
      buckets,
      groupValues,
      dimensions,
      this.bucketOf.slice(0, n),
      this.groupOf.slice(0, n),
      this.sumsOf.slice(0, n * WIDTH),
      n,
      ranks,
      this.previousOf?.slice(0, n * WIDTH),
      this.members?.build(),
      this.sketches?.slice(0, n),
    );
  }

  /** The table, each bucket's rows sorted by `ranks[group]` (rows were pushed bucket by bucket). */
  build(
    buckets: readonly TableBucket[],
    groupValues: readonly GroupValues[],
    dimensions: readonly Dimension[],
    ranks: Int32Array,
  ): RowTable {
    const n = this.length;
    const bucketOf = new Int32Array(n);
    const groupOf = new Int32Array(n);
    const sumsOf = new Float64Array(n * WIDTH);
    // A bucket's rows sorted by (rank, row within the bucket) packed into one number, so the typed
    // array sorts numerically in native code, without a comparator call per comparison.
    const keys = new Float64Array(n);
    // Which pushed row each row of the table is, for the members to follow their rows.
    const order = new Int32Array(n);
    for (let start = 0; start < n; ) {
      let end = start + 1;
      while (end < n && this.bucketOf[end] === this.bucketOf[start]) end++;
      const span = end - start;
      for (let i = start; i < end; i++)
        keys[i] = (ranks[this.groupOf[i] as number] as number) * span + (i - start);
      keys.subarray(start, end).sort();
      for (let to = start; to < end; to++) {
        const from = start + ((keys[to] as number) % span);
        order[to] = from;
        bucketOf[to] = this.bucketOf[from] as number;
        groupOf[to] = this.groupOf[from] as number;
        for (let k = 0; k < WIDTH; k++) sumsOf[WIDTH * to + k] = this.sumsOf[WIDTH * from + k] as number;
      }
      start = end;
    }
    const members = this.members?.buildInOrder(order);
    const pushed = this.sketches;
    const sketches = pushed && Array.from(order, (from) => pushed[from] as PercentileSketch);
    return new RowTable(
      buckets,
      groupValues,
      dimensions,
      bucketOf,
      groupOf,
      sumsOf,
      n,
      ranks,
      undefined,
      members,
      sketches,
    );
  }
}
