import type { RecordingCompleted } from "@vu/events";

/**
 * Percentile sketches (docs/contract.md §9 `percentiles`, docs/decisions/0027-percentile-sketches.md,
 * 0029-projection-sketches.md): per stored cell (a combination's, the total's, a dimension value's),
 * how many of its recordings' processing times fall in each log-spaced bucket (the DDSketch idea). Counts add and subtract like the sums, so a question's buckets,
 * groups, filters and signed covers give a row's sketch exactly as they give its sums; only the
 * value a bucket stands for is approximate, within SKETCH_ACCURACY of every value in it.
 *
 * A sketch's **keys** say which time and which bucket: voice times below LLM_KEY_FLAG, LLM times
 * from it; within each, key 0 holds the value 0 and key 1 + i the values in (γ^(i−1), γ^i], i ≥ 0,
 * γ = (1 + a) / (1 − a). Keys sort by time then value, which the nearest-rank walk relies on.
 */

/** Which processing time a sketch's key counts. */
export type SketchedTime = "voice" | "llm";
export const SKETCHED_TIMES: readonly SketchedTime[] = ["voice", "llm"];

/**
 * The relative accuracy a: an estimate is within a × value of every value in its bucket. A little
 * below the 1 % the contract promises, so that rounding the estimate (to 1 µs) and a float's last
 * bit at a bucket's edge never take it past 1 %.
 */
export const SKETCH_ACCURACY = 0.0099;
export const SKETCH_GAMMA = (1 + SKETCH_ACCURACY) / (1 - SKETCH_ACCURACY);
const LOG_GAMMA = Math.log(SKETCH_GAMMA);

/** The flag an LLM time's key carries (the high bit of a stored key's u16). */
export const LLM_KEY_FLAG = 0x8000;
/**
 * How many bucket keys each time has: key 1 + i holds times up to γ^i, and γ^2046 is beyond any
 * time below 2^53 ms (whose key is about 1,860). Readers count a group's keys in arrays this long.
 */
export const SKETCH_SPAN = 2048;
const MAX_BUCKET_KEY = SKETCH_SPAN - 1;

/** γ^i, the upper edge of bucket i (one function, so indexing and estimating agree to the bit). */
function edge(i: number): number {
  return SKETCH_GAMMA ** i;
}

/** The bucket key (without the time's flag) of a value ≥ 0: 0 for 0, else 1 + ⌈log_γ v⌉. */
export function bucketKey(value: number): number {
  if (!(value >= 0) || !Number.isFinite(value)) throw new RangeError(`no sketch bucket for ${value}`);
  if (value === 0) return 0;
  if (value < 1) throw new RangeError(`sketches count whole milliseconds, not ${value}`);
  let i = Math.max(0, Math.ceil(Math.log(value) / LOG_GAMMA));
  // The logarithm may miss by one at an edge: settle on the edges themselves.
  while (edge(i) < value) i++;
  while (i > 0 && edge(i - 1) >= value) i--;
  if (1 + i > MAX_BUCKET_KEY) throw new RangeError(`${value} is beyond the sketch's buckets`);
  return 1 + i;
}

/** The key a recording's time of kind `time` counts under. */
export function sketchKey(time: SketchedTime, value: number): number {
  return time === "llm" ? LLM_KEY_FLAG | bucketKey(value) : bucketKey(value);
}

/**
 * What a bucket key stands for: 0 for key 0; else the one whole number in (γ^(i−1), γ^i] when there
 * is exactly one (times are whole milliseconds, so below about 1/a ms every value comes back
 * exact), or 2γ^i / (γ + 1), within a of every value in the bucket.
 */
export function bucketEstimate(key: number): number {
  let estimate = ESTIMATES[key];
  if (estimate === undefined || Number.isNaN(estimate)) {
    estimate = estimateOf(key);
    if (key < ESTIMATES.length) ESTIMATES[key] = estimate;
  }
  return estimate;
}

/** bucketEstimate's values, computed once per key (two powers each). */
const ESTIMATES = new Float64Array(SKETCH_SPAN).fill(Number.NaN);

function estimateOf(key: number): number {
  if (key === 0) return 0;
  const i = key - 1;
  const upper = edge(i);
  const lowest = i === 0 ? 1 : Math.floor(edge(i - 1)) + 1;
  if (lowest === Math.floor(upper)) return lowest;
  return (2 * upper) / (SKETCH_GAMMA + 1);
}

/** The keys one recording adds one to: a key per time it has (a null time adds to no bucket). */
export function recordingSketchKeys(event: RecordingCompleted, into: number[]): number[] {
  into.length = 0;
  if (event.voice_processing_ms !== null) into.push(sketchKey("voice", event.voice_processing_ms));
  if (event.llm_processing_ms !== null) into.push(sketchKey("llm", event.llm_processing_ms));
  return into;
}

/**
 * The nearest rank of percentile q among n values: ⌈q/100 × n⌉, in integers (q × n / 100 as a
 * float would round 7 × 100 / 100 up to 8 at times).
 */
export function nearestRank(q: number, n: number): number {
  return Math.floor((q * n + 99) / 100);
}

/**
 * A row's sketch: its keys in ascending order with their counts (every count > 0). What the query
 * API turns into percentiles (`percentile`) and merges for rows it folds (`mergeSketches`).
 */
export class PercentileSketch {
  /** Where the LLM keys start (keys.length: none), and each time's count: one walk, on first use. */
  #llmFrom = -1;
  #voiceCount = 0;
  #llmCount = 0;

  constructor(
    readonly keys: Int32Array,
    readonly counts: Float64Array,
  ) {}

  #tally(): void {
    if (this.#llmFrom >= 0) return;
    const { keys, counts } = this;
    let llmFrom = keys.length;
    let voice = 0;
    let llm = 0;
    for (let k = 0; k < keys.length; k++) {
      if ((keys[k] as number) < LLM_KEY_FLAG) voice += counts[k] as number;
      else {
        if (llmFrom === keys.length) llmFrom = k;
        llm += counts[k] as number;
      }
    }
    this.#llmFrom = llmFrom;
    this.#voiceCount = voice;
    this.#llmCount = llm;
  }

  /** How many of the row's recordings have the time. */
  count(time: SketchedTime): number {
    this.#tally();
    return time === "llm" ? this.#llmCount : this.#voiceCount;
  }

  /**
   * The nearest-rank percentiles `asked` (ascending, 1-99) of the time (ms); NaN where no
   * recording has the time. The time's keys are one run (voice keys sort before LLM keys): ranks
   * up to half its count are found walking up from its first key, the others walking down from
   * its last, so p95 and p99 cost a few keys, not the whole run.
   */
  percentiles(time: SketchedTime, asked: readonly number[]): number[] {
    const n = this.count(time);
    if (n === 0) return asked.map(() => Number.NaN);
    const { keys, counts } = this;
    const first = time === "llm" ? this.#llmFrom : 0;
    const last = (time === "llm" ? keys.length : this.#llmFrom) - 1;
    const out = new Array<number>(asked.length);
    let i = 0;
    // Up: `below` counts the recordings of the keys before k.
    for (let k = first, below = 0; i < asked.length; i++) {
      const rank = nearestRank(asked[i] as number, n);
      if (2 * rank > n) break;
      while (below + (counts[k] as number) < rank) below += counts[k++] as number;
      out[i] = estimateAt(keys, k, last);
    }
    // Down: `above` counts the recordings of the keys after k.
    for (let q = asked.length - 1, k = last, above = 0; q >= i; q--) {
      const rank = nearestRank(asked[q] as number, n);
      while (n - above - (counts[k] as number) >= rank) above += counts[k--] as number;
      out[q] = estimateAt(keys, k, last, first);
    }
    return out;
  }

  /**
   * The nearest-rank percentile q (1-99) of the time (ms), within SKETCH_ACCURACY of the exact
   * one; null when no recording has the time.
   */
  percentile(time: SketchedTime, q: number): number | null {
    const n = this.count(time);
    if (n === 0) return null;
    const rank = nearestRank(q, n);
    let seen = 0;
    for (let k = 0; k < this.keys.length; k++) {
      const key = this.keys[k] as number;
      if (!isOf(time, key)) continue;
      seen += this.counts[k] as number;
      if (seen >= rank) return bucketEstimate(key & ~LLM_KEY_FLAG);
    }
    throw new Error("sketch: the ranks ran out before the percentile's");
  }
}

const isOf = (time: SketchedTime, key: number) => (time === "llm") === key >= LLM_KEY_FLAG;

/** The estimate of key k of a time's run [first, last]; a walk past it is a sketch whose counts lie. */
function estimateAt(keys: Int32Array, k: number, last: number, first = 0): number {
  if (k > last || k < first) throw new Error("sketch: the ranks ran out before the percentile's");
  return bucketEstimate((keys[k] as number) & ~LLM_KEY_FLAG);
}

export const EMPTY_SKETCH = new PercentileSketch(new Int32Array(0), new Float64Array(0));

/** Counts per key, added and subtracted in any order (exact integers), then sorted into a sketch. */
export class SketchCounts {
  private readonly counts = new Map<number, number>();

  add(key: number, count: number): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + count);
  }

  addSketch(sketch: PercentileSketch): void {
    for (let k = 0; k < sketch.keys.length; k++)
      this.add(sketch.keys[k] as number, sketch.counts[k] as number);
  }

  get size(): number {
    return this.counts.size;
  }

  /** The sketch of the counts above zero (a key whose count nets to 0 had no recording). */
  sketch(): PercentileSketch {
    const keys = [...this.counts.keys()].filter((key) => (this.counts.get(key) as number) > 0);
    if (keys.length === 0) return EMPTY_SKETCH;
    const sorted = Int32Array.from(keys).sort();
    return new PercentileSketch(
      sorted,
      Float64Array.from(sorted, (key) => this.counts.get(key) as number),
    );
  }
}

/** Rows' sketches added up (the "(other)" row's, a summary's). */
export function mergeSketches(sketches: ReadonlyArray<PercentileSketch | undefined>): PercentileSketch {
  const counts = new SketchCounts();
  for (const sketch of sketches) if (sketch) counts.addSketch(sketch);
  return counts.sketch();
}

// How a sketch is stored: a cell of a sketch key is its pairs in ascending key order, each a
// little-endian u16 key and u32 count (SKETCH_PAIR_BYTES), no key twice, no count 0. Fixed width,
// so the apply script merges two cells with `struct` in C. A count stays below 2^32: one cell's
// recordings (the total's: all of the organization's) in one block (a month at most) in one bucket.

export const SKETCH_PAIR_BYTES = 6;
/** The `struct` formats of one pair's key, and of the pair (its key first). */
export const SKETCH_KEY_FORMAT = "H";
export const SKETCH_PAIR_FORMAT = `${SKETCH_KEY_FORMAT}I4`;
export const SKETCH_COUNT_MAX = 0xffff_ffff;

/**
 * A batch's sketch cell from the keys its recordings added one to (any order, a key once per
 * recording), as pairs `[key, count, key, count, ...]` in ascending key order: what the batch
 * encoding writes after the pairs' number (batchEncoding.ts).
 */
export function sketchPairs(keys: number[]): number[] {
  keys.sort((a, b) => a - b);
  const pairs: number[] = [];
  for (let at = 0; at < keys.length; ) {
    const key = keys[at] as number;
    let end = at + 1;
    while (end < keys.length && keys[end] === key) end++;
    pairs.push(key, end - at);
    at = end;
  }
  return pairs;
}

/** Adds a stored sketch cell `sign` times into `into`; a cell whose length is not whole pairs is refused. */
export function addSketchCell(into: SketchCounts, cell: Buffer, sign: number): void {
  if (cell.length % SKETCH_PAIR_BYTES !== 0) throw new Error(`malformed sketch cell: ${cell.length} bytes`);
  for (let at = 0; at < cell.length; at += SKETCH_PAIR_BYTES) {
    const key = (cell[at] as number) | ((cell[at + 1] as number) << 8);
    const count =
      ((cell[at + 2] as number) | ((cell[at + 3] as number) << 8) | ((cell[at + 4] as number) << 16)) +
      (cell[at + 5] as number) * 0x1000000;
    into.add(key, sign * count);
  }
}
