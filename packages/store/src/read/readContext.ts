import type { Keyspace } from "../format/keyspace";
import type { RedisClient } from "../redis/redisClient";
import type { CombinationTables } from "./combinationTables";
import type { OrganizationHints } from "./organizationHints";

/** What one reader's reads share: its client, its keys, its caches and its bounds. */
export interface ReadContext {
  readonly redis: RedisClient;
  readonly keyspace: Keyspace;
  readonly hints: OrganizationHints;
  readonly combinations: CombinationTables;
  /** Fields one MULTI may read (slicedRead.ts). */
  readonly sliceFields: number;
  /** Fields past which a read is large (`ReadOptions.beforeLargeRead`). */
  readonly largeReadFields: number;
}
