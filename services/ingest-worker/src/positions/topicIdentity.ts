import type { Logger } from "@vu/service-runtime";
import type { LogPosition, LogRecord } from "@vu/store";
import kafkajs, { type Admin } from "kafkajs";

// kafkajs is CommonJS, and Node's ESM loader cannot see this export by name.
const { KafkaJSServerDoesNotSupportApiKey } = kafkajs;

/**
 * Whether the topic the worker reads is the one the view counts. A topic deleted and created
 * again under its name (or one mirrored from another cluster) starts its offsets over under
 * another id: the checkpoints and the offsets kept with the sums would then skip its messages or
 * wait for offsets it may never reach, silently. So the view records the topic's id
 * (`adoptTopicId`, in the log hash with the checkpoints) and every check compares it with the
 * topic's id now (the patched kafkajs' `fetchTopicIds`: Metadata v10).
 */
export interface TopicIdentity {
  /**
   * Why the view cannot count the topic as it is now, if it cannot: its id is not the one the view
   * recorded. Records the id where none is (a new epoch, or a store from before ids were kept).
   * Undefined too where the brokers cannot tell (older than Kafka 2.8) or the view has no epoch.
   */
  replaced(generation: number, record: LogRecord): Promise<string | undefined>;
}

export interface TopicIdentityOptions {
  admin: Pick<Admin, "fetchTopicIds">;
  log: Pick<LogPosition, "adoptTopicId">;
  topic: string;
  logger: Logger;
}

export function createTopicIdentity({ admin, log, topic, logger }: TopicIdentityOptions): TopicIdentity {
  let warnedUnsupported = false;

  /** The topic's id now, or undefined where the brokers cannot tell. */
  async function currentId(): Promise<string | undefined> {
    try {
      const { topics } = await admin.fetchTopicIds({ topics: [topic] });
      return topics.find((t) => t.name === topic)?.topicId;
    } catch (error) {
      if (!(error instanceof KafkaJSServerDoesNotSupportApiKey)) throw error;
      if (!warnedUnsupported) {
        warnedUnsupported = true;
        logger.warn(
          { topic, err: error },
          "the brokers give no topic ids (Kafka 2.8 or later does): a topic deleted and created again goes unnoticed",
        );
      }
      return undefined;
    }
  }

  return {
    async replaced(generation, record) {
      if (record.epoch === null) return undefined;
      const now = await currentId();
      if (now === undefined) return undefined;
      const recorded = record.topicIds?.get(topic) ?? (await log.adoptTopicId(generation, topic, now));
      if (recorded === now) return undefined;
      return (
        `topic ${topic} is not the topic the view counts: its id is ${now}, the view's ${recorded} ` +
        "(deleted and created again, or another cluster's); its offsets are another topic's"
      );
    },
  };
}
