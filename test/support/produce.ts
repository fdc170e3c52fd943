import { createRecordingProducer, type RecordingCompletedInput } from "@vu/events";
import type { Kafka } from "kafkajs";
import type { WorkloadMessage } from "../workload/workload";

const LARGE_MESSAGE_BYTES = 64 * 1024;

export interface ProduceOptions {
  chunkSize?: number;
  /** Called after each chunk with the number of messages sent so far (fault injection hooks). */
  afterChunk?: (sent: number) => Promise<void>;
}

/**
 * Produces the workload in order: valid events through the contract's producer (keyed by
 * organization, idempotent), the rest raw through kafkajs with the same key. Per organization
 * (one partition) the order of counted events is the workload's.
 */
export async function produceWorkload(
  kafka: Kafka,
  topic: string,
  messages: readonly WorkloadMessage[],
  options: ProduceOptions = {},
): Promise<void> {
  const { chunkSize = 500 } = options;
  const contract = createRecordingProducer({ kafka, topic });
  const raw = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await Promise.all([contract.connect(), raw.connect()]);
  try {
    for (let sent = 0; sent < messages.length; sent += chunkSize) {
      const chunk = messages.slice(sent, sent + chunkSize);
      const events = chunk
        .filter((m) => m.viaContractProducer)
        .map((m) => m.event)
        .filter((e): e is RecordingCompletedInput => e !== null);
      await contract.send(events);
      const rawOnes = chunk.filter((m) => !m.viaContractProducer).map((m) => ({ key: m.key, value: m.raw }));
      // One record batch must stay under the topic's max.message.bytes: big messages go alone.
      const big = rawOnes.filter((m) => (m.value?.length ?? 0) > LARGE_MESSAGE_BYTES);
      const small = rawOnes.filter((m) => (m.value?.length ?? 0) <= LARGE_MESSAGE_BYTES);
      if (small.length > 0) await raw.send({ topic, acks: -1, messages: small });
      for (const message of big) await raw.send({ topic, acks: -1, messages: [message] });
      await options.afterChunk?.(Math.min(messages.length, sent + chunkSize));
    }
  } finally {
    await Promise.all([contract.disconnect(), raw.disconnect()]);
  }
}
