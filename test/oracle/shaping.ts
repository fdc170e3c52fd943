import { compareCodePoints } from "./byteOrder";
import { emptySums, type RowMetric, rowMetrics, type Sums } from "./metrics";
import { DIMENSIONS, type Dimension, readActiveMembers } from "./params";
import { ExpectedBadRequest } from "./range";

// docs/contract.md §7's parameters of /stats that shape the rows (several group_by dimensions,
// sort, limit, other, fill), read and applied the plain way, written from the contract alone.

const METRICS: readonly RowMetric[] = [
  "recording_count",
  "total_words",
  "total_duration",
  "avg_llm_processing_time",
  "avg_voice_processing_time",
  "avg_wpm",
];
/** docs/contract.md §7: `limit` keeps at most this many groups per bucket. */
const MAX_LIMIT = 1000;
/** docs/contract.md §7: a zero fill that would make more rows than this is a 400 naming `fill`. */
export const MAX_FILLED_ROWS = 500_000;
export const OTHER = "(other)";
/** docs/contract.md §9: the field `include=active_members` adds, which `sort` may name then. */
export const ACTIVE_MEMBERS = "active_members";

export interface SortKey {
  field: string;
  descending: boolean;
}

export interface Shape {
  groupBy: Dimension[];
  sort: SortKey[];
  limit: number | undefined;
  other: boolean;
  fill: boolean;
  /** docs/contract.md §9 `include=active_members`. */
  activeMembers: boolean;
}

const items = (text: string) => text.split(",").map((item) => item.trim());

/** `group_by`: 1 to 4 distinct dimensions, comma-separated, blanks around items allowed. */
function readGroupBy(text: string | undefined): Dimension[] {
  if (text === undefined) return [];
  const list = items(text);
  if (list.some((d) => !DIMENSIONS.includes(d as Dimension)) || new Set(list).size !== list.length)
    throw new ExpectedBadRequest("group_by");
  return list as Dimension[];
}

function readSort(text: string | undefined): SortKey[] {
  if (text === undefined) return [];
  const keys = items(text).map((item) => ({
    field: item.startsWith("-") ? item.slice(1) : item,
    descending: item.startsWith("-"),
  }));
  const known = (field: string) =>
    METRICS.includes(field as RowMetric) ||
    DIMENSIONS.includes(field as Dimension) ||
    field === ACTIVE_MEMBERS;
  if (keys.some((k) => !known(k.field)) || new Set(keys.map((k) => k.field)).size !== keys.length)
    throw new ExpectedBadRequest("sort");
  return keys;
}

/**
 * The shaping parameters, or a 400 naming the one at fault. Each value is checked first; then what
 * one needs of another (a group field to sort by must be grouped; other=true needs limit and group_by).
 */
export function readShape(params: Map<string, string>): Shape {
  const groupBy = readGroupBy(params.get("group_by"));
  const sort = readSort(params.get("sort"));
  const limitText = params.get("limit");
  let limit: number | undefined;
  if (limitText !== undefined) {
    if (!/^\d+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > MAX_LIMIT)
      throw new ExpectedBadRequest("limit");
    limit = Number(limitText);
  }
  const otherText = params.get("other");
  if (otherText !== undefined && otherText !== "true" && otherText !== "false")
    throw new ExpectedBadRequest("other");
  const fillText = params.get("fill");
  if (fillText !== undefined && fillText !== "zero") throw new ExpectedBadRequest("fill");
  const activeMembers = readActiveMembers(params);
  return { groupBy, sort, limit, other: otherText === "true", fill: fillText === "zero", activeMembers };
}

/** The checks between parameters, which come after every value is read and before the range. */
export function checkShape(shape: Shape): void {
  const hasField = (field: string) =>
    METRICS.includes(field as RowMetric) ||
    shape.groupBy.includes(field as Dimension) ||
    (field === ACTIVE_MEMBERS && shape.activeMembers);
  if (shape.sort.some((k) => !hasField(k.field))) throw new ExpectedBadRequest("sort");
  if (shape.other && (shape.limit === undefined || shape.groupBy.length === 0))
    throw new ExpectedBadRequest("other");
}

/**
 * What a row holds of its recordings: their sums, who recorded them, and their processing times
 * that are not null (docs/contract.md §9).
 */
export interface Tally {
  sums: Sums;
  members: Set<string>;
  voice: number[];
  llm: number[];
}

export const emptyTally = (): Tally => ({ sums: emptySums(), members: new Set(), voice: [], llm: [] });

/** A bucket's row before it is rendered: its group's values (one per group_by dimension) and tally. */
export interface ShapedRow extends Tally {
  group: Array<string | null>;
  /** docs/contract.md §7 `compare`: the same group's tally in the paired previous bucket. */
  previous?: Tally;
  /** The (other) row's: its folded groups' member counts added up (more than its members when they overlap). */
  summedMembers?: number;
}

/** A bucket's (by index) group's previous tally (docs/contract.md §7 `compare`). */
export type PreviousOf = (bucket: number, group: Array<string | null>) => Tally;

const groupOrder = (a: ShapedRow, b: ShapedRow) => {
  for (let i = 0; i < a.group.length; i++) {
    const order = compareCodePoints(a.group[i] ?? null, b.group[i] ?? null);
    if (order !== 0) return order;
  }
  return 0;
};

function sortRows(rows: ShapedRow[], shape: Shape): ShapedRow[] {
  const byDefault = [...rows].sort(groupOrder);
  if (shape.sort.length === 0) return byDefault;
  const metrics = new Map(rows.map((row) => [row, rowMetrics(row.sums)]));
  const shown = (row: ShapedRow, field: string) =>
    field === ACTIVE_MEMBERS ? row.members.size : (metrics.get(row)?.[field as RowMetric].value ?? 0);
  const compare = (a: ShapedRow, b: ShapedRow) => {
    for (const { field, descending } of shape.sort) {
      let order: number;
      if (METRICS.includes(field as RowMetric) || field === ACTIVE_MEMBERS) {
        order = shown(a, field) - shown(b, field);
      } else {
        const i = shape.groupBy.indexOf(field as Dimension);
        order = compareCodePoints(a.group[i] ?? null, b.group[i] ?? null);
      }
      if (order !== 0) return descending ? -order : order;
    }
    return 0;
  };
  // Array#sort is stable: rows equal on every key keep the default order.
  return byDefault.sort(compare);
}

/** Adds a tally's recordings to another: the sums added, the members united. */
function addTally(into: Tally, t: Tally): void {
  for (const key of Object.keys(into.sums) as Array<keyof Sums>) into.sums[key] += t.sums[key];
  for (const member of t.members) into.members.add(member);
  for (const v of t.voice) into.voice.push(v);
  for (const v of t.llm) into.llm.push(v);
}

/**
 * docs/contract.md §7, bucket by bucket: zero rows for the groups of the answer the bucket lacks
 * (fill), the bucket's rows in sort order, the first `limit` of them, and the rest summed into one
 * "(other)" row. `buckets` holds every bucket's rows (in the default order); the buckets with
 * rows when not filling, all of them when filling.
 */
export function shapeBuckets(buckets: ShapedRow[][], shape: Shape, previousOf?: PreviousOf): ShapedRow[][] {
  const present = new Map<string, Array<string | null>>();
  for (const rows of buckets) for (const row of rows) present.set(JSON.stringify(row.group), row.group);
  if (shape.fill) {
    const groups = shape.groupBy.length === 0 ? 1 : present.size;
    const perBucket = Math.min(groups, shape.limit ?? groups) + (shape.other ? 1 : 0);
    if (buckets.length * perBucket > MAX_FILLED_ROWS) throw new ExpectedBadRequest("fill");
  }
  return buckets.map((bucketRows, b) => {
    let rows = bucketRows;
    if (shape.fill) {
      const has = new Set(rows.map((r) => JSON.stringify(r.group)));
      const wanted = shape.groupBy.length === 0 ? [[]] : [...present.values()];
      const zeros = wanted
        .filter((g) => !has.has(JSON.stringify(g)))
        .map((group) => ({ group, ...emptyTally() }));
      rows = [...rows, ...zeros];
    }
    if (previousOf) rows = rows.map((row) => ({ ...row, previous: previousOf(b, row.group) }));
    rows = sortRows(rows, shape);
    if (shape.limit === undefined || rows.length <= shape.limit) return rows;
    const kept = rows.slice(0, shape.limit);
    if (!shape.other) return kept;
    const rest: ShapedRow = { group: shape.groupBy.map(() => OTHER), ...emptyTally(), summedMembers: 0 };
    // The (other) row's previous tally is that of the groups it folds.
    if (previousOf) rest.previous = emptyTally();
    for (const row of rows.slice(shape.limit)) {
      addTally(rest, row);
      rest.summedMembers = (rest.summedMembers ?? 0) + row.members.size;
      if (rest.previous && row.previous) addTally(rest.previous, row.previous);
    }
    return [...kept, rest];
  });
}
