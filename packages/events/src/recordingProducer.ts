import { CompressionTypes, type Kafka, type Producer } from "kafkajs";
import { encodeRecordingCompleted } from "./codec";
import { createIdempotentProducer } from "./idempotentProducer";
import { RECORDINGS_TOPIC, type RecordingCompletedInput } from "./recordingCompleted";

export interface RecordingProducerOptions {
  kafka: Kafka;
  topic?: string;
}

export interface RecordingProducer {
  connect(): Promise<void>;
  /** Validates every event first (nothing is sent if one is invalid), then sends them in one call. */
  send(events: readonly RecordingCompletedInput[]): Promise<void>;
  disconnect(): Promise<void>;
}

/**
 * The producer every service that emits recordings should use: idempotent (the broker drops
 * retried duplicates of a batch), keyed by organization so one organization's events stay in order
 * on one partition, and validated against the v1 contract before anything leaves the process.
 */
export function createRecordingProducer({
  kafka,
  topic = RECORDINGS_TOPIC,
}: RecordingProducerOptions): RecordingProducer {
  const producer: Producer = createIdempotentProducer(kafka);
  return {
    connect: () => producer.connect(),
    disconnect: () => producer.disconnect(),
    async send(events) {
      if (events.length === 0) return;
      const messages = events.map((event) => ({
        key: event.organization_id,
        value: encodeRecordingCompleted(event),
      }));
      await producer.send({ topic, acks: -1, compression: CompressionTypes.None, messages });
    },
  };
}
