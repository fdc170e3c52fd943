import type { RedisClient } from "../redis/redisClient";
import { ReadKeptMovingError } from "../storeError";

/**
 * One state of many keys without holding Redis for long. A MULTI is atomic because Redis runs it
 * whole, with every other client waiting: one request reading a high-cardinality organization's
 * blocks would stall ingest and every other organization for as long as it takes. So a read of
 * more fields than a budget goes in slices (MULTIs of at most the budget, HSCAN pages for a key
 * larger than it), each with the organization's write stamp. The apply script moves the stamp with
 * every batch it counts, atomically with the cells; when every slice saw the same stamp, no batch
 * landed between them and the slices are one state. Otherwise the read starts again; after a few
 * tries one that is not large (`largeAt`) takes one MULTI, as a small read does, and a large one
 * is refused (`ReadKeptMovingError`): exact always, and never one long MULTI.
 */

/** One key's read: every field (HGETALL) or the ones named (HMGET). */
export interface KeyRead {
  key: string;
  fields?: readonly string[];
}

/** HGETALL's flat `[field, value, …]`, or HMGET's values in the order asked. */
export type KeyReply = Array<Buffer | null>;

type Multi = ReturnType<RedisClient["multi"]>;

export interface ConsistentReadOptions {
  /** Where the stamp every slice reads is. */
  stamp: { key: string; field: string };
  /** Adds commands to the (last) MULTI, whose replies come back as `tail`. */
  addTail(multi: Multi): void;
  /** Runs a MULTI; any failed command fails the read. */
  exec(multi: Multi): Promise<unknown[]>;
  /** Fields one MULTI may read. */
  budget: number;
  /**
   * Fields past which a read is large (`beforeLargeRead`); default the budget. Apart from it
   * because what makes Redis wait (one MULTI's size) and what makes the caller wait (a whole
   * read's summing) are different costs: small slices keep Redis' longest command short without
   * sending more reads to the large-read queue.
   */
  largeAt?: number;
  /**
   * What the caller knows of the fields there are to read, at most: at or under both the budget
   * and `largeAt`, one MULTI reads everything at once, without asking the keys' sizes first.
   */
  atMost?: number;
  /**
   * How many sliced reads may see the stamp move before one MULTI reads everything (or, past
   * `largeAt`, the read is refused).
   */
  attempts?: number;
  /**
   * Called with the number of fields once their sizes show more than `largeAt`, before anything is
   * read: the caller may hold a large read back (queue it, or refuse it by throwing).
   */
  beforeLargeRead?: (fields: number) => Promise<void>;
  /** Called after each slice (tests use it to land a write between slices). */
  afterSlice?: () => Promise<void>;
}

export interface ConsistentRead {
  replies: KeyReply[];
  tail: unknown[];
  /**
   * MULTIs and HSCAN pages of the try that answered (1: one atomic read), without the round trip
   * that asked the keys' sizes or tries abandoned when the stamp moved.
   */
  calls: number;
}

/** A part of one read that a slice carries. */
export type SlicePart =
  | { read: number; whole: true }
  | { read: number; from: number; to: number }
  /** `size`: the key's HLEN when the read was planned. */
  | { read: number; scan: true; size: number };

/**
 * Packs reads into slices of at most `budget` fields, in order: a whole key whose size (HLEN) is
 * known, a key larger than the budget paged by HSCAN alone, a long list of named fields in chunks.
 */
export function planSlices(
  reads: readonly KeyRead[],
  sizes: readonly number[],
  budget: number,
): SlicePart[][] {
  const slices: SlicePart[][] = [];
  let current: SlicePart[] = [];
  let used = 0;
  const flush = () => {
    if (current.length > 0) slices.push(current);
    current = [];
    used = 0;
  };
  const add = (part: SlicePart, cost: number) => {
    if (used + cost > budget) flush();
    current.push(part);
    used += cost;
  };
  reads.forEach((read, i) => {
    const fields = read.fields;
    if (fields === undefined) {
      const size = sizes[i] ?? 0;
      if (size <= budget) add({ read: i, whole: true }, size);
      else {
        flush();
        slices.push([{ read: i, scan: true, size }]);
      }
      return;
    }
    // No field asked: nothing to send (HMGET needs one), the reply stays empty.
    for (let from = 0; from < fields.length; from += budget) {
      const to = Math.min(fields.length, from + budget);
      add({ read: i, from, to }, to - from);
    }
  });
  flush();
  return slices;
}

/** Every read as one state of the store; see the module comment. */
export async function readConsistently(
  redis: RedisClient,
  reads: readonly KeyRead[],
  options: ConsistentReadOptions,
): Promise<ConsistentRead> {
  const { budget, attempts = 3 } = options;
  const largeAt = options.largeAt ?? budget;
  if (options.atMost !== undefined && options.atMost <= Math.min(budget, largeAt)) {
    return atOnce(redis, reads, options);
  }
  const sizes = spread(reads, await keySizes(redis, reads, options));
  const total = reads.reduce((n, r, i) => n + (r.fields?.length ?? sizes[i] ?? 0), 0);
  if (total > largeAt) await options.beforeLargeRead?.(total);
  if (total <= budget) return atOnce(redis, reads, options);
  const slices = planSlices(reads, sizes, budget);
  for (let attempt = 0; attempt < attempts; attempt++) {
    const read = await inSlices(redis, reads, slices, options);
    if (read !== undefined) return read;
  }
  if (total > largeAt) throw new ReadKeptMovingError(total, attempts);
  return atOnce(redis, reads, options);
}

/** HLEN of every whole-key read, in their order. */
async function keySizes(
  redis: RedisClient,
  reads: readonly KeyRead[],
  options: ConsistentReadOptions,
): Promise<number[]> {
  if (reads.every((read) => read.fields !== undefined)) return [];
  const multi = redis.multi();
  for (const read of reads) if (read.fields === undefined) multi.hlen(read.key);
  return (await options.exec(multi)).map(Number);
}

/** Sizes per read (0 for named-field reads) from the sizes of the whole-key reads. */
function spread(reads: readonly KeyRead[], wholeSizes: readonly number[]): number[] {
  let next = 0;
  return reads.map((read) => (read.fields === undefined ? (wholeSizes[next++] ?? 0) : 0));
}

/** Adds a read to a MULTI; false when there is nothing to send (no field named). */
function addRead(multi: Multi, read: KeyRead, from = 0, to = read.fields?.length ?? 0): boolean {
  if (read.fields === undefined) multi.callBuffer("HGETALL", read.key);
  else if (to > from) multi.callBuffer("HMGET", read.key, ...read.fields.slice(from, to));
  else return false;
  return true;
}

async function atOnce(
  redis: RedisClient,
  reads: readonly KeyRead[],
  options: ConsistentReadOptions,
): Promise<ConsistentRead> {
  const multi = redis.multi();
  const sent = reads.map((read) => addRead(multi, read));
  options.addTail(multi);
  const replies = await options.exec(multi);
  const count = sent.filter(Boolean).length;
  const answered = replies.slice(0, count) as KeyReply[];
  let next = 0;
  return {
    replies: sent.map((wasSent) => (wasSent ? (answered[next++] ?? []) : [])),
    tail: replies.slice(count),
    calls: 1,
  };
}

/** A slice saw another stamp than the ones before it: the try is over (see `inSlices`). */
class StampMoved extends Error {}

/**
 * One sliced read, or undefined when the stamp moved between its slices. A try ends at the first
 * slice that sees the stamp move: the slices after it could not make it one state, and the next
 * try starts just after a batch landed, when the next one is furthest away.
 */
async function inSlices(
  redis: RedisClient,
  reads: readonly KeyRead[],
  slices: readonly SlicePart[][],
  options: ConsistentReadOptions,
): Promise<ConsistentRead | undefined> {
  const stamps = new Set<string>();
  let calls = 0;
  const slice: Slice = async (fill, withTail) => {
    const multi = redis.multi();
    fill(multi);
    if (withTail) options.addTail(multi);
    multi.hget(options.stamp.key, options.stamp.field);
    const result = await options.exec(multi);
    stamps.add(String(result.pop()));
    calls++;
    await options.afterSlice?.();
    if (stamps.size > 1) throw new StampMoved();
    return result;
  };
  try {
    return { ...(await readSlices(reads, slices, slice, options.budget)), calls };
  } catch (error) {
    if (error instanceof StampMoved) return undefined;
    throw error;
  }
}

/** One MULTI of a try, with the stamp: throws StampMoved when it differs from the try's first. */
type Slice = (fill: (multi: Multi) => void, withTail: boolean) => Promise<unknown[]>;

/** The slices of one try, in order. */
async function readSlices(
  reads: readonly KeyRead[],
  slices: readonly SlicePart[][],
  slice: Slice,
  budget: number,
): Promise<Omit<ConsistentRead, "calls">> {
  const replies: KeyReply[] = reads.map(() => []);
  const lastIsScan = slices.at(-1)?.some((part) => "scan" in part) ?? true;
  for (const [s, parts] of slices.entries()) {
    const [first] = parts;
    if (first !== undefined && "scan" in first) {
      replies[first.read] = await scanned(reads[first.read] as KeyRead, first.size, budget, slice);
      continue;
    }
    const withTail = !lastIsScan && s === slices.length - 1;
    const result = await slice((multi) => {
      for (const part of parts) {
        const read = reads[part.read] as KeyRead;
        if ("whole" in part) addRead(multi, read);
        else if ("from" in part) addRead(multi, read, part.from, part.to);
      }
    }, withTail);
    parts.forEach((part, j) => {
      const into = replies[part.read] as KeyReply;
      for (const value of result[j] as KeyReply) into.push(value);
    });
    if (withTail) return { replies, tail: result.slice(parts.length) };
  }
  return { replies, tail: await slice(() => undefined, true) };
}

/**
 * Every field of a key larger than the budget, by HSCAN pages. HSCAN returns every field at least
 * once and may return one twice (while the hash is rehashed). Rollup hashes only gain fields, and
 * no batch lands while a try's slices see one stamp, so the key holds at least the `size` it had
 * when the read was planned: pages that hold exactly that many fields hold each once, and are used
 * as they are. Only more than that is a field met twice, and then each counts once.
 */
async function scanned(read: KeyRead, size: number, budget: number, slice: Slice): Promise<KeyReply> {
  const pages: Buffer[][] = [];
  let count = 0;
  let cursor = "0";
  do {
    const [page] = (await slice((multi) => multi.hscanBuffer(read.key, cursor, "COUNT", budget), false)) as [
      [Buffer, Buffer[]],
    ];
    cursor = page[0].toString();
    pages.push(page[1]);
    count += page[1].length / 2;
  } while (cursor !== "0");
  return count === size ? pages.flat() : onceEach(pages);
}

/** HSCAN pages' fields with each field once, in the order first met. */
export function onceEach(pages: readonly Buffer[][]): KeyReply {
  const fields = new Map<string, [Buffer, Buffer]>();
  for (const flat of pages) {
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const field = flat[i] as Buffer;
      fields.set(field.toString("latin1"), [field, flat[i + 1] as Buffer]);
    }
  }
  return [...fields.values()].flat();
}
