import { addSketchCell, EMPTY_SKETCH, type PercentileSketch, SketchCounts } from "../format/sketches";

/**
 * docs/contract.md §9 `percentiles`: one bucket's sketches per group, from the sketch cells beside
 * its combination cells, each added with its block's sign (format/sketches.ts). A key whose count
 * nets to zero had no recording, exactly as a sum that nets to zero.
 */
export class SketchAccumulator {
  private readonly groups = new Map<number, SketchCounts>();

  /** Adds a stored sketch cell `sign` times to `group`'s sketch. */
  add(group: number, cell: Buffer, sign: number): void {
    let counts = this.groups.get(group);
    if (counts === undefined) {
      counts = new SketchCounts();
      this.groups.set(group, counts);
    }
    addSketchCell(counts, cell, sign);
  }

  /** `group`'s sketch in this bucket (empty when none of its recordings had a time). */
  take(group: number): PercentileSketch {
    return this.groups.get(group)?.sketch() ?? EMPTY_SKETCH;
  }

  /** Starts the next bucket empty. */
  clear(): void {
    this.groups.clear();
  }
}
