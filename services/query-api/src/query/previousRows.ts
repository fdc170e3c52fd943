import type { PreviousLookup } from "./bucketShaping";
import { type RowTable, WIDTH } from "./rowTable";

/**
 * docs/contract.md §7 `compare`: finds a row's previous sums: the row of the same group (by its
 * values, as the two tables number groups apart) in the bucket of the previous range that
 * `pairedLabel` pairs with the row's bucket.
 */
export function previousLookup(
  current: RowTable,
  previous: RowTable,
  pairedLabel: ReadonlyMap<string, string>,
): PreviousLookup {
  const rowsByBucket = new Map<string, Map<string, number>>();
  for (let i = 0; i < previous.length; i++) {
    const label = previous.buckets[previous.bucketOf[i] as number]?.label ?? "";
    const rows = rowsByBucket.get(label) ?? new Map<string, number>();
    rowsByBucket.set(label, rows);
    rows.set(JSON.stringify(previous.groupValues[previous.groupOf[i] as number]), i);
  }
  const groupKeys = current.groupValues.map((values) => JSON.stringify(values));
  return (label, group) => {
    const paired = pairedLabel.get(label);
    const row = paired === undefined ? undefined : rowsByBucket.get(paired)?.get(groupKeys[group] ?? "");
    if (row === undefined) return undefined;
    // docs/contract.md §9: the previous row's members, when they are counted.
    const members = previous.members?.of(row);
    return { values: previous.sumsOf, at: WIDTH * row, members };
  };
}
