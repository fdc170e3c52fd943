import type { KafkaMessage, Producer } from "kafkajs";
import type { Rejected } from "./batchSorter";

export interface DeadLetterSource {
  topic: string;
  partition: number;
}

/** The first words of a reason, as a low-cardinality metric label ("duration_ms", "not valid JSON"). */
export function reasonKind(reason: string): string {
  const field = /^([a-z_.]+):/.exec(reason);
  if (field?.[1]) return field[1];
  return reason.startsWith("not valid JSON") ? "invalid_json" : "other";
}

/**
 * Forwards rejected messages unchanged, with why and where from in headers, so they can be
 * inspected and replayed after a fix.
 */
export async function sendToDeadLetter(
  producer: Producer,
  dlqTopic: string,
  source: DeadLetterSource,
  rejected: ReadonlyArray<Rejected<KafkaMessage>>,
): Promise<void> {
  if (rejected.length === 0) return;
  await producer.send({
    topic: dlqTopic,
    acks: -1,
    messages: rejected.map(({ message, reason }) => ({
      key: message.key,
      value: message.value,
      headers: {
        ...message.headers,
        "x-dlq-reason": reason,
        "x-dlq-source-topic": source.topic,
        "x-dlq-source-partition": String(source.partition),
        "x-dlq-source-offset": message.offset,
      },
    })),
  });
}
