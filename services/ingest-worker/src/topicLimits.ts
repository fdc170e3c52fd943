import { KAFKA_DEFAULT_MAX_MESSAGE_BYTES, readMaxMessageBytes } from "@vu/events";
import type { Logger } from "@vu/service-runtime";
import type { Kafka } from "kafkajs";

/**
 * The dead-letter topic's `max.message.bytes`, read once at start. When it cannot be read (no
 * permission to describe configs) the broker's default is assumed, which is what a topic without
 * an override has; a request the broker still refuses is split (deadLetterSender.ts).
 */
export async function topicMaxMessageBytes(kafka: Kafka, topic: string, logger: Logger): Promise<number> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    return await readMaxMessageBytes(admin, topic);
  } catch (error) {
    logger.warn({ err: error, topic }, "could not read the topic's max.message.bytes; assuming the default");
    return KAFKA_DEFAULT_MAX_MESSAGE_BYTES;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
