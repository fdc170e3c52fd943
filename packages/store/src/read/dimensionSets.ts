import { compareByteOrder, DIMENSIONS, type Dimension } from "@vu/events";
import { WRITE_STAMP_FIELD } from "./atomicRead";
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
  { redis, keyspace }: ReadContext,
  generation: number,
  org: string,
  which?: readonly D[],
): Promise<Record<D, string[]>> {
  const dimensions = which ?? (DIMENSIONS as readonly Dimension[] as readonly D[]);
  const pipeline = redis.pipeline();
  for (const d of dimensions) pipeline.smembers(keyspace.dimension(generation, org, d));
  const replies = (await execute(pipeline, org)) as string[][];
  const result = {} as Record<D, string[]>;
  dimensions.forEach((d, i) => {
    result[d] = [...(replies[i] ?? [])].sort(compareByteOrder);
  });
  return result;
}

/** As `readDimensions`, with the organization's write stamp read in the same MULTI. */
export async function readDimensionsAtStamp<D extends Dimension>(
  { redis, keyspace }: ReadContext,
  generation: number,
  org: string,
  which: readonly D[],
): Promise<DimensionsAtStamp<D>> {
  const multi = redis.multi();
  for (const d of which) multi.smembers(keyspace.dimension(generation, org, d));
  multi.hget(keyspace.extent(generation, org), WRITE_STAMP_FIELD);
  const replies = await execute(multi, org);
  const stamp = (replies.pop() as string | null | undefined) ?? null;
  const values = {} as Record<D, string[]>;
  which.forEach((d, i) => {
    values[d] = sortByteOrder((replies[i] as string[] | undefined) ?? []);
  });
  return { values, stamp };
}
