/**
 * Picks an index with probability proportional to its weight, from one uniform draw in [0, 1).
 * Cumulative sums with a binary search: O(log n) per pick and no allocation, which matters at
 * millions of events.
 */
export type WeightedPicker = (uniform: number) => number;

export function createWeightedPicker(weights: readonly number[]): WeightedPicker {
  const cumulative = new Float64Array(weights.length);
  let total = 0;
  weights.forEach((weight, index) => {
    if (!(weight >= 0)) throw new RangeError(`weight ${index} must be a number >= 0, got ${weight}`);
    total += weight;
    cumulative[index] = total;
  });
  if (!(total > 0)) throw new RangeError("at least one weight must be positive");
  const last = weights.length - 1;
  return (uniform) => {
    const target = uniform * total;
    let low = 0;
    let high = last;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] ?? total) > target) high = middle;
      else low = middle + 1;
    }
    return low;
  };
}

/** Zipf-like weights 1/rankᵉ: a few items take most of the use, as with real adoption. */
export function zipfWeights(count: number, exponent: number): number[] {
  return Array.from({ length: count }, (_, index) => 1 / (index + 1) ** exponent);
}
