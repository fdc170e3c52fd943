const DAY_MS = 86_400_000;
/** Days remembered per zone before the memory starts over: a bound on each zone's tables (docs/decisions/0009). */
const MAX_DAYS = 5_000;

/** Shared by every day without a change (almost all of them): no array of its own each. */
const NO_CHANGES: DayOffsets["changes"] = [];

/** One UTC day of a zone: its offset at the day's start and every change within the day, in order. */
interface DayOffsets {
  start: number;
  changes: ReadonlyArray<readonly [at: number, offset: number]>;
}

/**
 * A zone's offset transitions, found once per UTC day and then looked up, instead of asking the
 * zone (luxon through `Intl.DateTimeFormat#formatToParts`, the planner's largest cost per bucket)
 * about every bucket edge and label. A day costs one question at each of its two ends; a day whose
 * ends differ is bisected to the millisecond for each change (about 27 questions), so a week by
 * hour asks 8 questions instead of 169, and never again while the day is remembered.
 *
 * Exact under one assumption, which the tests check against the zone database: within one UTC day
 * a zone's offset never changes and then changes back (A → B → A). Any other sequence of changes
 * within a day is found.
 */
export class OffsetTransitions {
  private readonly days = new Map<number, DayOffsets>();
  private readonly boundaries = new Map<number, number>();

  constructor(private readonly offsetAt: (atMs: number) => number) {}

  /** The offset at `atMs`, in minutes, as `offsetAt` gives it. */
  offset(atMs: number): number {
    const day = Math.floor(atMs / DAY_MS);
    let known = this.days.get(day);
    if (known === undefined) {
      known = this.scan(day);
      if (this.days.size >= MAX_DAYS) {
        this.days.clear();
        this.boundaries.clear();
      }
      this.days.set(day, known);
    }
    let offset = known.start;
    for (const [at, next] of known.changes) {
      if (atMs < at) break;
      offset = next;
    }
    return offset;
  }

  /** The offset at the start of UTC day `day`, asked once: each day start is the end of the day before. */
  private boundary(day: number): number {
    let offset = this.boundaries.get(day);
    if (offset === undefined) {
      offset = this.offsetAt(day * DAY_MS);
      this.boundaries.set(day, offset);
    }
    return offset;
  }

  private scan(day: number): DayOffsets {
    const end = (day + 1) * DAY_MS;
    const start = this.boundary(day);
    const last = this.boundary(day + 1);
    let changes: Array<readonly [number, number]> | undefined;
    let from = day * DAY_MS;
    let current = start;
    while (current !== last) {
      // The first instant in (from, end] whose offset is not `current`: there is one, at `end` if
      // nowhere sooner, and before it every instant still has `current` (no change and back).
      let lo = from;
      let hi = end;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (this.offsetAt(mid) === current) lo = mid;
        else hi = mid;
      }
      // A change at the next day's start belongs to that day.
      if (hi === end) break;
      current = this.offsetAt(hi);
      changes ??= [];
      changes.push([hi, current]);
      from = hi;
    }
    return { start, changes: changes ?? NO_CHANGES };
  }
}
