import type { Message, Producer } from "kafkajs";
import {
  type DeadLetter,
  type DeadLetterSource,
  deadLetterRecord,
  packRequests,
  requestBudget,
  truncated,
} from "./deadLetter";
import { isRecordCausedKafkaError } from "./kafkaErrors";

export interface DeadLetterSenderOptions {
  producer: Producer;
  topic: string;
  /** The dead-letter topic's `max.message.bytes`: no request is built larger than it. */
  maxMessageBytes: number;
  /** A record the broker refused even with its value dropped: logged and counted, never retried forever. */
  onUndeliverable: (record: Message, error: unknown) => void;
}

/** Runs one produce call, retrying (with backoff) the failures `isRetriable` accepts. */
export type ProduceRetrier = (
  send: () => Promise<unknown>,
  isRetriable: (error: unknown) => boolean,
) => Promise<unknown>;

export type DeadLetterSender = (
  source: DeadLetterSource,
  letters: readonly DeadLetter[],
  retrying: ProduceRetrier,
) => Promise<void>;

/**
 * Sends dead letters in requests that fit the topic. A request the broker refuses because of its
 * records is split in halves until the refused record stands alone; that one is sent again
 * without its value, and if even that is refused it is handed to `onUndeliverable`. So no
 * message, however large or odd, can hold up a partition.
 */
export function createDeadLetterSender(options: DeadLetterSenderOptions): DeadLetterSender {
  const { producer, topic, onUndeliverable } = options;
  const budget = requestBudget(options.maxMessageBytes);

  async function sendRecords(records: Message[], retrying: ProduceRetrier): Promise<void> {
    try {
      await retrying(
        () => producer.send({ topic, acks: -1, messages: records }),
        (error) => !isRecordCausedKafkaError(error),
      );
    } catch (error) {
      if (!isRecordCausedKafkaError(error)) throw error;
      const [only] = records;
      if (records.length > 1) {
        const half = Math.ceil(records.length / 2);
        await sendRecords(records.slice(0, half), retrying);
        await sendRecords(records.slice(half), retrying);
      } else if (only !== undefined && only.value != null) {
        await sendRecords([truncated(only, 0)], retrying);
      } else if (only !== undefined) {
        onUndeliverable(only, error);
      }
    }
  }

  return async (source, letters, retrying) => {
    const records = letters.map((letter) => deadLetterRecord(letter, source, budget));
    for (const request of packRequests(records, budget)) await sendRecords(request, retrying);
  };
}
