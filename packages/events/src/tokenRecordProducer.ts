import { CompressionTypes, Kafka, type KafkaConfig, logLevel, type Producer } from "kafkajs";
import { createIdempotentProducer } from "./idempotentProducer";
import { TOKENS_TOPIC } from "./recordingCompleted";
import type { TokenRecordSigner } from "./tokenRecordSignature";
import { checkTokenHash, type DurableTokenRecord, encodeTokenRecord } from "./tokenRecords";

/**
 * A Kafka client that logs nothing, for callers without a kafkajs dependency of their own (the
 * tokens CLI): the caller reports the error a failed call throws, and kafkajs's logs would repeat it.
 * `connection` is the brokers and, when set, `ssl` and `sasl` (service-runtime's `kafkaConnection`).
 */
export function createSilentKafka({
  clientId,
  ...connection
}: Pick<KafkaConfig, "brokers" | "ssl" | "sasl"> & { brokers: string[]; clientId: string }): Kafka {
  return new Kafka({ clientId, ...connection, logLevel: logLevel.NOTHING });
}

export interface TokenRecordProducerOptions {
  kafka: Kafka;
  /** Default `TOKENS_TOPIC`. */
  topic?: string;
  /** Signs every record (`createTokenRecordSigner` with `TOKENS_SIGNING_KEY`). */
  signer: TokenRecordSigner;
}

export interface TokenRecordProducer {
  connect(): Promise<void>;
  /**
   * Validates the record (nothing is sent if it is invalid), signs it, then sends it keyed by
   * `hash` and resolves only once every in-sync replica has it (acks = all).
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
  const { kafka, topic = TOKENS_TOPIC, signer } = options;
  const producer: Producer = createIdempotentProducer(kafka);
  return {
    connect: () => producer.connect(),
    disconnect: () => producer.disconnect(),
    async send(hash, record) {
      const key = checkTokenHash(hash);
      const message = { key, value: encodeTokenRecord(record, signer.sign(key, record)) };
      await producer.send({ topic, acks: -1, compression: CompressionTypes.None, messages: [message] });
    },
  };
}
