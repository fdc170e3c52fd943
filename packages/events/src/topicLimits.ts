import kafkajs, { type Admin } from "kafkajs";

// kafkajs is CommonJS, and Node's ESM loader cannot see this export by name.
const { ConfigResourceTypes } = kafkajs;

/** Kafka's default `message.max.bytes` (1 MiB plus a record batch header), which a topic without an override has. */
export const KAFKA_DEFAULT_MAX_MESSAGE_BYTES = 1_048_588;

/** A topic's `max.message.bytes`: the largest record batch the broker accepts for it. */
export async function readMaxMessageBytes(admin: Admin, topic: string): Promise<number> {
  const described = await admin.describeConfigs({
    includeSynonyms: false,
    resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ["max.message.bytes"] }],
  });
  const value = Number(described.resources[0]?.configEntries[0]?.configValue);
  return Number.isSafeInteger(value) && value > 0 ? value : KAFKA_DEFAULT_MAX_MESSAGE_BYTES;
}
