export { type AsyncApiOptions, asyncApiDocument, recordingCompletedJsonSchema } from "./asyncApiDocument";
export { compareByteOrder } from "./byteOrder";
export {
  type DecodeResult,
  decodeRecordingCompleted,
  describeIssues,
  encodeRecordingCompleted,
} from "./codec";
export { DLQ_HEADER_MEANINGS, DLQ_HEADERS } from "./deadLetters";
export { DecompressionRefused } from "./decompressedBounds";
export { createIdempotentProducer } from "./idempotentProducer";
export { type CodecName, MAX_DECOMPRESSED_BATCH_BYTES, registerKafkaCodecs } from "./kafkaCodecs";
export {
  dimensionValues,
  FUTURE_TOLERANCE_HOURS,
  RECORDINGS_DLQ_TOPIC,
  RECORDINGS_TOPIC,
  type RecordingCompleted,
  type RecordingCompletedInput,
  recordingCompletedSchema,
  TOKENS_TOPIC,
} from "./recordingCompleted";
export {
  createRecordingProducer,
  type RecordingProducer,
  type RecordingProducerOptions,
} from "./recordingProducer";
export {
  createSilentKafka,
  createTokenRecordProducer,
  type TokenRecordProducer,
  type TokenRecordProducerOptions,
} from "./tokenRecordProducer";
export {
  type LatestTokenRecords,
  latestTokenRecords,
  type ReadTokenTopicMessagesOptions,
  type ReadTokenTopicOptions,
  type RefusedTokenRecord,
  readTokenTopic,
  readTokenTopicMessages,
  type TokenRecordRefusal,
  type TokenTopicMessage,
  type VerifiedTokenRecordResult,
  verifyTokenRecordMessage,
} from "./tokenRecordReader";
export {
  canonicalTokenRecord,
  createTokenRecordSigner,
  TOKEN_SIGNATURE_VERSION,
  type TokenRecordSigner,
  type TokenSignatureCheck,
  type TokenSignatureRefusal,
  type TokenSigningKeys,
  tokenSigningKeyId,
} from "./tokenRecordSignature";
export {
  checkTokenHash,
  type DurableTokenRecord,
  decodeTokenRecord,
  encodeTokenRecord,
  TOKEN_HASH_PATTERN,
  type TokenRecordDecodeResult,
  type TokenRecordMessage,
  tokenRecordSchema,
} from "./tokenRecords";
export { KAFKA_DEFAULT_MAX_MESSAGE_BYTES, readMaxMessageBytes } from "./topicLimits";
export { type UndecodableBatch, undecodableBatchOf, undecodableReason } from "./undecodableBatch";
export { DIMENSION_INDEX, DIMENSIONS, type Dimension, type DimensionValues } from "./vocabulary";
