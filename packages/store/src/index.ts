export {
  aggregateBatch,
  type BatchPayload,
  type ComboPayload,
  type CountableRecording,
  dedupeWindows,
} from "./batchAggregate";
export { encodeBatch } from "./batchEncoding";
export { containerOf } from "./blockPlacement";
export {
  cellCount,
  cellField,
  cellSums,
  comboIdOf,
  fieldQuarter,
  fieldStart,
  projectionKeyOf,
  projectionValueOf,
  type StoredCell,
  type StoredCells,
  sumCells,
} from "./containerCells";
export {
  createGenerationSource,
  currentGeneration,
  type GenerationSource,
  type GenerationSourceOptions,
  switchGeneration,
} from "./generation";
export { scanKeyPages, scanKeys, unlinkKeys } from "./keyScan";
export {
  createKeyspace,
  type KeyKind,
  type Keyspace,
  type KeyspaceOptions,
  STORE_VERSION,
  utcStamp,
} from "./keyspace";
export {
  type AdvanceOptions,
  type AdvanceResult,
  compareFences,
  createLogPosition,
  type LogPosition,
  type LogRecord,
  type OpenEpochOptions,
  partitionKey,
  standingOf,
  type ViewStanding,
  type ViewState,
  type ViewStatus,
  viewAsOf,
} from "./logPosition";
export { type OrganizationExtent, sameExtent } from "./organizationExtent";
export { ALL_QUARTERS, WHOLE_BLOCK } from "./quarterCells";
export { createRateLimitCounter, type RateLimitCounter } from "./rateLimitCounter";
export type { BlockRef } from "./readPlan";
export {
  REDIS_ACL_ROLES,
  type RedisAclFileOptions,
  type RedisAclRole,
  type RedisAclUser,
  redisAclFile,
  redisAclRules,
  redisAclUsers,
  scriptCommands,
} from "./redisAcl";
export { createRedisClient, type RedisClient } from "./redisClient";
export { isTransientRedisError, refusalCode } from "./redisErrors";
export { type RedisHealth, type RedisHealthOptions, redisHealth, withTimeout } from "./redisHealth";
export {
  type BlockSnapshot,
  createRollupReader,
  DEFAULT_LARGE_READ_FIELDS,
  DEFAULT_SLICE_FIELDS,
  type DimensionsAtStamp,
  type ReadOptions,
  type ReadView,
  type RollupReader,
  type RollupReaderOptions,
  VIEW_CACHE_MS,
  ViewNotLiveError,
} from "./rollupReader";
export {
  type ApplyGuard,
  type ApplyResult,
  type BatchOrigin,
  createRollupWriter,
  type GroupApply,
  type PreparedBatch,
  type RollupWriter,
  type RollupWriterOptions,
  type ShardWrites,
  type UnsettledBatch,
} from "./rollupWriter";
export { registerScripts } from "./scripts";
export {
  CheckpointMovedError,
  PartitionFencedError,
  ReadKeptMovingError,
  ShardBehindError,
  StoreError,
  ViewMovedError,
} from "./storeError";
export {
  addPacked,
  addPackedSlots,
  emptySums,
  packSums,
  SUM_FIELDS,
  type Sums,
  unpackSums,
} from "./sums";
export {
  createTokenStore,
  generateToken,
  hashToken,
  looksLikeToken,
  mintToken,
  TOKEN_PREFIX,
  type TokenAdminStore,
  TokenConflictError,
  type TokenRecord,
  type TokenStore,
} from "./tokenStore";
export { projectionField, projectionValue, TOTAL_FIELD, VIEW_CODE, VIEWS, type View, viewFor } from "./views";
