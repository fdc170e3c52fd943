import type { DimensionValues } from "@vu/events";
import type { RedisClient } from "../redis/redisClient";
import { BoundedMemo } from "./boundedMemo";
import { unavailable } from "./redisReplies";

/** An organization's combination table as loaded: id → its dimension values. */
export interface CombinationTable {
  size: number;
  values: Map<string, DimensionValues>;
}

/** A combination table's field: the combination's values as a JSON array (batchAggregate.ts). */
export function combinationValuesOf(field: string): DimensionValues {
  return JSON.parse(field) as DimensionValues;
}

export interface CombinationTablesOptions {
  redis: RedisClient;
  /** Entries one HGETALL may read; a larger table is read in HSCAN pages of about this many. */
  pageFields: number;
  /** Entries past which loading a table is a large read (`beforeLargeRead`). */
  largeReadFields: number;
}

/**
 * The combination tables a reader has loaded, by key. A table is reloaded only when it has grown:
 * ids are 1..n and never reused, so a table at least as large as the count read names every id.
 */
export class CombinationTables {
  readonly #loaded = new BoundedMemo<CombinationTable>();

  constructor(private readonly options: CombinationTablesOptions) {}

  /**
   * The table under `key`, from memory while it holds at least `knownCount` ids (asked with HLEN
   * when not given). A table larger than `largeReadFields` is a large read: it passes
   * `beforeLargeRead` first, as blocks do.
   */
  async current(
    key: string,
    org: string,
    beforeLargeRead: ((fields: number) => Promise<void>) | undefined,
    knownCount?: number,
  ): Promise<CombinationTable> {
    let count: number;
    try {
      count = knownCount ?? (await this.options.redis.hlen(key));
      const cached = this.#loaded.get(key);
      if (cached !== undefined && cached.size >= count) return cached;
    } catch (cause) {
      throw unavailable(cause, org);
    }
    if (count > this.options.largeReadFields) await beforeLargeRead?.(count);
    try {
      return await this.#load(key, count);
    } catch (cause) {
      throw unavailable(cause, org);
    }
  }

  /** Whether `current` would answer from memory for a table of `count` ids, without reading Redis. */
  holds(key: string, count: number): boolean {
    return (this.#loaded.get(key)?.size ?? -1) >= count;
  }

  /** Forgets every table (they described another state of the store). */
  clear(): void {
    this.#loaded.clear();
  }

  /**
   * The whole table: one HGETALL while it is at most `pageFields` long, else HSCAN pages of about
   * that many, so one organization with a huge table never holds Redis for the others. Entries
   * that exist when the load starts are all returned (HSCAN's guarantee), and ids only ever grow,
   * so a table that grew during the pages is at least as large as the count the caller read.
   */
  async #load(key: string, count: number): Promise<CombinationTable> {
    const { redis, pageFields } = this.options;
    const values = new Map<string, DimensionValues>();
    const take = (flat: string[]) => {
      for (let i = 0; i + 1 < flat.length; i += 2) {
        values.set(flat[i + 1] as string, combinationValuesOf(flat[i] as string));
      }
    };
    if (count <= pageFields) take((await redis.call("HGETALL", key)) as string[]);
    else {
      let cursor = "0";
      do {
        const [next, flat] = await redis.hscan(key, cursor, "COUNT", pageFields);
        take(flat);
        cursor = next;
      } while (cursor !== "0");
    }
    const table = { size: values.size, values };
    this.#loaded.set(key, table);
    return table;
  }
}
