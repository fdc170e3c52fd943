import { compareByteOrder, DIMENSION_INDEX, DIMENSIONS, type Dimension } from "@vu/events";
import { DIMENSIONS_FIELD, DIMENSIONS_FROM_COMBOS } from "../format/organizationExtent";
import type { RedisClient } from "../redis/redisClient";
import { WRITE_STAMP_FIELD } from "./atomicRead";
import { combinationValuesOf } from "./combinationTables";
import type { ReadContext } from "./readContext";
import { execute } from "./redisReplies";

export interface DimensionsAtStamp<D extends Dimension> {
  values: Record<D, string[]>;
  /** As `writeStamp`, in the state the values were read in. */
  stamp: string | null;
}

/** Surrogate code units: only strings holding one may sort differently by UTF-16 unit and by code point. */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * `values` in byte (code point) order. Without surrogate pairs, UTF-16 unit order is that order,
 * and Array#sort's own comparison (native, no callback) gives it; a member set can be large.
 */
function sortByteOrder(values: string[]): string[] {
  return values.some((v) => SURROGATE.test(v)) ? values.sort(compareByteOrder) : values.sort();
}

/** The distinct values of `which` dimensions (default all), each sorted in byte order. */
export async function readDimensions<D extends Dimension>(
  context: ReadContext,
  generation: number,
  org: string,
  which?: readonly D[],
): Promise<Record<D, string[]>> {
  const dimensions = which ?? (DIMENSIONS as readonly Dimension[] as readonly D[]);
  return (await readDimensionsAtStamp(context, generation, org, dimensions)).values;
}

/**
 * As `readDimensions`, with the organization's write stamp read in the same MULTI. The values are
 * in its dimension sets, or, while its extent says so (organizationExtent.ts DIMENSIONS_FIELD: a
 * small organization), in its combination table. The table names every value whatever the sets
 * hold (combinations are never removed), so it answers even when the sets were built after the
 * mark was seen. A listing that finds the mark reads the table in a second MULTI and leaves a hint,
 * so the organization's next listing reads the table and the mark in one; once the mark is gone
 * (the sets built: it never comes back), that listing reads the sets after all.
 */
export async function readDimensionsAtStamp<D extends Dimension>(
  context: ReadContext,
  generation: number,
  org: string,
  which: readonly D[],
): Promise<DimensionsAtStamp<D>> {
  const { hints } = context;
  if (hints.valuesFromCombos(generation, org)) {
    const fromTable = await readTable(context, generation, org, which);
    if (fromTable.marked) return fromTable.answer;
    hints.forgetValuesFromCombos(generation, org);
  }
  const fromSets = await readSets(context, generation, org, which);
  if (!fromSets.marked) return fromSets.answer;
  const fromTable = await readTable(context, generation, org, which);
  if (fromTable.marked) hints.rememberValuesFromCombos(generation, org);
  return fromTable.answer;
}

/** A listing's read, and whether the extent still said DIMENSIONS_FROM_COMBOS in its state. */
interface Listing<D extends Dimension> {
  answer: DimensionsAtStamp<D>;
  marked: boolean;
}

/** The dimension sets, the stamp and the mark: the sets' values are the answer only when unmarked. */
async function readSets<D extends Dimension>(
  context: ReadContext,
  generation: number,
  org: string,
  which: readonly D[],
): Promise<Listing<D>> {
  const { replies, stamp, marked } = await withStampAndMark(context, generation, org, (multi) => {
    for (const d of which) multi.smembers(context.keyspace.dimension(generation, org, d));
  });
  const values = {} as Record<D, string[]>;
  which.forEach((d, i) => {
    values[d] = sortByteOrder((replies[i] as string[] | undefined) ?? []);
  });
  return { answer: { values, stamp }, marked };
}

/** The values the combination table names (whatever the mark), the stamp and the mark. */
async function readTable<D extends Dimension>(
  context: ReadContext,
  generation: number,
  org: string,
  which: readonly D[],
): Promise<Listing<D>> {
  const { replies, stamp, marked } = await withStampAndMark(context, generation, org, (multi) => {
    multi.hkeys(context.keyspace.combos(generation, org));
  });
  return { answer: { values: valuesOf(replies[0] as string[], which), stamp }, marked };
}

/** `reads` and, in the same MULTI, the extent's write stamp and whether it has the DIMENSIONS_FROM_COMBOS mark. */
async function withStampAndMark(
  { redis, keyspace }: ReadContext,
  generation: number,
  org: string,
  reads: (multi: ReturnType<RedisClient["multi"]>) => void,
): Promise<{ replies: unknown[]; stamp: string | null; marked: boolean }> {
  const multi = redis.multi();
  reads(multi);
  multi.hmget(keyspace.extent(generation, org), WRITE_STAMP_FIELD, DIMENSIONS_FIELD);
  const replies = await execute(multi, org);
  const [stamp, kept] = replies.pop() as [string | null, string | null];
  return { replies, stamp, marked: kept === DIMENSIONS_FROM_COMBOS };
}

/** The distinct values of `which` the combinations name (their table's fields: values as JSON). */
function valuesOf<D extends Dimension>(combos: readonly string[], which: readonly D[]): Record<D, string[]> {
  const distinct = which.map(() => new Set<string>());
  for (const field of combos) {
    const values = combinationValuesOf(field);
    which.forEach((d, i) => {
      const value = values[DIMENSION_INDEX[d]];
      if (value !== null && value !== undefined) distinct[i]?.add(value);
    });
  }
  const out = {} as Record<D, string[]>;
  which.forEach((d, i) => {
    out[d] = sortByteOrder([...(distinct[i] ?? [])]);
  });
  return out;
}
