/** A prom-client counter's value summed over all its labels. */
export async function counterTotal(counter: {
  get(): Promise<{ values: ReadonlyArray<{ value: number }> }>;
}): Promise<number> {
  return (await counter.get()).values.reduce((sum, v) => sum + v.value, 0);
}
