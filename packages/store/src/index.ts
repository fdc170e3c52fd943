export { createRateLimitCounter, type RateLimitCounter } from "./auth/rateLimitCounter";
export {
  REDIS_ACL_ROLES,
  type RedisAclFileOptions,
  type RedisAclRole,
  type RedisAclUser,
  redisAclFile,
  redisAclRules,
  redisAclUsers,
  scriptCommands,
} from "./auth/redisAcl";
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
} from "./auth/tokenStore";
export {
  createKeyspace,
  type KeyKind,
  type Keyspace,
  type KeyspaceOptions,
  STORE_VERSION,
  utcStamp,
} from "./format/keyspace";
export { type OrganizationExtent, sameExtent } from "./format/organizationExtent";
export { PROJECTIONS, type Projection, projectionFor } from "./format/projections";
export {
  mergeSketches,
  nearestRank,
  PercentileSketch,
  SKETCH_ACCURACY,
  SKETCHED_TIMES,
  type SketchedTime,
} from "./format/sketches";
export { emptySums, SUM_FIELDS, type Sums, sumsFromSlots } from "./format/sums";
export {
  createGenerationSource,
  currentGeneration,
  type GenerationSource,
  type GenerationSourceOptions,
  switchGeneration,
} from "./log/generation";
export {
  type AdvanceOptions,
  type AdvanceResult,
  compareFences,
  createLogPosition,
  type LogPosition,
  type OpenEpochOptions,
} from "./log/logPosition";
export {
  type LogRecord,
  partitionKey,
  standingOf,
  type ViewStanding,
  type ViewState,
  type ViewStatus,
  viewAsOf,
} from "./log/logRecord";
export type { BlockSnapshot, ReadOptions } from "./read/blockSnapshot";
export type { DimensionsAtStamp } from "./read/dimensionSets";
export { type ReadView, VIEW_CACHE_MS, ViewNotLiveError } from "./read/liveViews";
export type { BlockRef } from "./read/readPlan";
export {
  createRollupReader,
  DEFAULT_LARGE_READ_FIELDS,
  DEFAULT_SLICE_FIELDS,
  type RollupReader,
  type RollupReaderOptions,
} from "./read/rollupReader";
export type { BucketSumsSink, DimensionTest, SummedBucket, SumsQuestion } from "./read/sumsQuestion";
export { scanKeyPages, scanKeys, unlinkKeys } from "./redis/keyScan";
export { createRedisClient, type RedisClient } from "./redis/redisClient";
export { isTransientRedisError, refusalCode } from "./redis/redisErrors";
export { type RedisHealth, type RedisHealthOptions, redisHealth, withTimeout } from "./redis/redisHealth";
export {
  CheckpointMovedError,
  PartitionFencedError,
  ReadKeptMovingError,
  ShardBehindError,
  StoreError,
  ViewMovedError,
} from "./storeError";
export type { ApplyGuard, ShardWrites } from "./write/applyGuard";
export {
  aggregateBatch,
  type BatchPayload,
  type ComboPayload,
  type CountableRecording,
  dedupeWindows,
} from "./write/batchAggregate";
export { encodeBatch } from "./write/batchEncoding";
export type { GroupApply, UnsettledBatch } from "./write/groupApply";
export type { ApplyResult, BatchOrigin, PreparedBatch } from "./write/preparedBatch";
export {
  createRollupWriter,
  type RollupWriter,
  type RollupWriterOptions,
} from "./write/rollupWriter";
