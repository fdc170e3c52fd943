// @vu/testkit: what every package's tests share (KafkaJS's testHelpers, Unkey's test utilities).
// Pure helpers here; `@vu/testkit/kafka`, `/worker` and `/api` load Kafka, the worker and the API
// only for the tests that use them.
export { counterTotal } from "./metrics";
export { type IsolatedNames, isolatedNames, uniqueId, uniquePrefix } from "./names";
export { netCoverage } from "./netCoverage";
export { isProcessAlive } from "./processes";
export { DENSE_RECORDINGS, denseBurstTimes, recording, recordingEvent } from "./recordings";
export { brokers, redisUrl, TEST_TOKENS_SIGNING_KEY } from "./stackEnv";
