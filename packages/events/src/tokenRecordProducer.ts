import { CompressionTypes, Kafka, logLevel, type Producer } from "kafkajs";
import { createIdempotentProducer } from "./idempotentProducer";
import { TOKENS_TOPIC } from "./recordingCompleted";
import { checkTokenHash, type DurableTokenRecord, encodeTokenRecord } from "./tokenRecords";

export type TokenRecordProducerOptions = {
  /** Default `TOKENS_TOPIC`. */
  topic?: string;
} & (
  | { kafka: Kafka }
  /** For callers without a kafkajs dependency of their own (the tokens CLI): a silent client. */
  | { brokers: string[]; clientId?: string }
);

export interface TokenRecordProducer {
  connect(): Promise<void>;
  /**
   * Validates the record (nothing is sent if it is invalid), then sends it keyed by `hash` and
   * resolves only once every in-sync replica has it (acks = all).
   */
  send(hash: string, record: DurableTokenRecord): Promise<void>;
  disconnect(): Promise<void>;
}

/**
 * Writes token records to the compacted tokens topic: idempotent (the broker drops a retried
 * duplicate), one request in flight, acks from all in-sync replicas, so a record that `send`
 * resolved for survives the loss of the leader.
 */
export function createTokenRecordProducer(options: TokenRecordProducerOptions): TokenRecordProducer {
  const { topic = TOKENS_TOPIC } = options;
  const kafka =
    "kafka" in options
      ? options.kafka
      : new Kafka({
          clientId: options.clientId ?? "usage-stats-tokens",
          brokers: options.brokers,
          // The caller reports the error a failed send throws; kafkajs's own logs would repeat it.
          logLevel: logLevel.NOTHING,
        });
  const producer: Producer = createIdempotentProducer(kafka);
  return {
    connect: () => producer.connect(),
    disconnect: () => producer.disconnect(),
    async send(hash, record) {
      const message = { key: checkTokenHash(hash), value: encodeTokenRecord(record) };
      await producer.send({ topic, acks: -1, compression: CompressionTypes.None, messages: [message] });
    },
  };
}
