import { compareByteOrder } from "@vu/events";

/** A group's values, one per `group_by` dimension in the order asked (empty when not grouped). */
export type GroupValues = ReadonlyArray<string | null>;

/** Ascending byte order with `null` last (docs/contract.md §2 "Rows"). */
export function compareGroups(a: string | null | undefined, b: string | null | undefined): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  return compareByteOrder(a, b);
}

/** The rows' order within a bucket: by the first dimension asked, then the next (§7 `group_by=a,b`). */
export function compareGroupValues(a: GroupValues, b: GroupValues): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const order = compareGroups(a[i], b[i]);
    if (order !== 0) return order;
  }
  return 0;
}

/** The groups a query's rows fall into, numbered as first seen (one empty group when not grouped). */
export class GroupTable {
  readonly values: GroupValues[] = [];
  private readonly index = new Map<string, number>();

  /** The index of a group; its values are compared as a whole (JSON keeps null apart from "null"). */
  indexOf(values: GroupValues): number {
    const key =
      values.length === 1 ? (values[0] === null ? "\u0000null" : `s${values[0]}`) : JSON.stringify(values);
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(values);
      this.index.set(key, i);
    }
    return i;
  }

  /** Each group's place in the rows' default order, by group index. */
  ranks(): Int32Array {
    const order = this.values
      .map((_, i) => i)
      .sort((a, b) => compareGroupValues(this.values[a] ?? [], this.values[b] ?? []));
    const ranks = new Int32Array(order.length);
    order.forEach((group, rank) => {
      ranks[group] = rank;
    });
    return ranks;
  }
}
