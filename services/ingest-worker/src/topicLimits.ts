import { KAFKA_DEFAULT_MAX_MESSAGE_BYTES, readMaxMessageBytes } from "@vu/events";
import type { Logger } from "@vu/service-runtime";
import kafkajs, { type Kafka } from "kafkajs";

// kafkajs is CommonJS, and Node's ESM loader cannot see this export by name.
const { ConfigResourceTypes } = kafkajs;

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

/**
 * Warns, once at start, when the recordings topic is stamped by its producers (`CreateTime`, the
 * broker's default) rather than by the broker (`LogAppendTime`, as the stack creates it): the
 * "too far in the future" rule measures from that stamp, so a producer whose clock is wrong moves
 * it, unless the broker bounds it (`message.timestamp.after.max.ms`).
 */
export async function warnUnlessBrokerTimestamps(kafka: Kafka, topic: string, logger: Logger): Promise<void> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ["message.timestamp.type"] }],
    });
    const type = described.resources[0]?.configEntries[0]?.configValue;
    if (type !== "LogAppendTime") {
      logger.warn(
        { topic, "message.timestamp.type": type },
        "the recordings topic keeps its producers' timestamps: the future-time rule measures from them; " +
          "set message.timestamp.type=LogAppendTime on it (or bound them with message.timestamp.after.max.ms)",
      );
    }
  } catch (error) {
    logger.warn({ err: error, topic }, "could not read the topic's message.timestamp.type");
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
