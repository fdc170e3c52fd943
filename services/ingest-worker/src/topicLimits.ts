import type { Logger } from "@vu/service-runtime";
import kafkajs, { type Kafka } from "kafkajs";

// kafkajs is CommonJS, and Node's ESM loader cannot see this export by name.
const { ConfigResourceTypes } = kafkajs;

/** Kafka's default `message.max.bytes` (1 MiB plus a record batch header). */
export const KAFKA_DEFAULT_MAX_MESSAGE_BYTES = 1_048_588;

/**
 * A topic's `max.message.bytes`: the largest record batch the broker accepts for it. Read once at
 * start; when it cannot be read (no permission to describe configs) the broker's default is
 * assumed, which is what a topic without an override has.
 */
export async function topicMaxMessageBytes(kafka: Kafka, topic: string, logger: Logger): Promise<number> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ["max.message.bytes"] }],
    });
    const value = Number(described.resources[0]?.configEntries[0]?.configValue);
    if (Number.isSafeInteger(value) && value > 0) return value;
  } catch (error) {
    logger.warn({ err: error, topic }, "could not read the topic's max.message.bytes; assuming the default");
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
  return KAFKA_DEFAULT_MAX_MESSAGE_BYTES;
}
