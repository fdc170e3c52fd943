import { z } from "zod";
import { DLQ_HEADER_MEANINGS, DLQ_HEADERS } from "./deadLetters";
import { RECORDINGS_DLQ_TOPIC, RECORDINGS_TOPIC, recordingCompletedSchema } from "./recordingCompleted";

/**
 * The producers' side of the contract in the ecosystem's form: an AsyncAPI 3.0 document of the
 * events topic and its dead-letter topic, and a JSON Schema of the event for producers in other
 * languages. Both come from the validator's own zod schema (as the OpenAPI document comes from the
 * query parameters' schemas), so what is published is what is enforced.
 */

/**
 * What a producer may send, as JSON Schema (draft-07, the AsyncAPI schema format's base): the
 * validator's input side (`member_email` in any case; unknown fields are allowed, and dropped).
 */
export function recordingCompletedJsonSchema(): Record<string, unknown> {
  const { $schema: _, ...schema } = z.toJSONSchema(recordingCompletedSchema, {
    io: "input",
    target: "draft-7",
    unrepresentable: "any",
  }) as Record<string, unknown>;
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "recording.completed (schema_version 1)",
    description:
      "One finished recording. The Kafka message key is organization_id (UTF-8); the value is this object as UTF-8 JSON. Fields not listed are accepted and ignored.",
    ...schema,
    additionalProperties: true,
  };
}

const KAFKA_BINDING = "0.5.0";

export interface AsyncApiOptions {
  /** The topics as deployed (RECORDINGS_TOPIC / DLQ_TOPIC). */
  topic?: string;
  dlqTopic?: string;
}

/** The AsyncAPI 3.0 document of the topics the ingest worker reads and writes. */
export function asyncApiDocument(options: AsyncApiOptions = {}): Record<string, unknown> {
  const { $schema: _, ...payload } = recordingCompletedJsonSchema();
  const key = {
    type: "string",
    description: "organization_id, UTF-8: every event of an organization in one partition, in order.",
  };
  return {
    asyncapi: "3.0.0",
    info: {
      title: "Usage statistics: recording events",
      version: "1.0.0",
      description:
        "What producers send to the usage-statistics service, and what it sends back for the messages it refuses (docs/contract.md §1). A recording is counted once per (organization_id, recording_id) within the dedupe window, however often it is delivered.",
    },
    defaultContentType: "application/json",
    channels: {
      recordings: {
        address: options.topic ?? RECORDINGS_TOPIC,
        title: "Finished recordings",
        messages: { recordingCompleted: { $ref: "#/components/messages/recordingCompleted" } },
      },
      deadLetters: {
        address: options.dlqTopic ?? RECORDINGS_DLQ_TOPIC,
        title: "Refused messages",
        messages: { deadLetter: { $ref: "#/components/messages/deadLetter" } },
      },
    },
    operations: {
      sendRecording: {
        action: "send",
        channel: { $ref: "#/channels/recordings" },
        summary: "A producer reports a finished recording.",
        messages: [{ $ref: "#/channels/recordings/messages/recordingCompleted" }],
      },
      receiveDeadLetter: {
        action: "receive",
        channel: { $ref: "#/channels/deadLetters" },
        summary: "An operator (or the producer) reads the messages the service refused, and why.",
        messages: [{ $ref: "#/channels/deadLetters/messages/deadLetter" }],
      },
    },
    components: {
      messages: {
        recordingCompleted: {
          name: "recording.completed",
          title: "recording.completed v1",
          contentType: "application/json",
          payload,
          bindings: { kafka: { key, bindingVersion: KAFKA_BINDING } },
        },
        deadLetter: {
          name: "dead letter",
          title: "A refused message",
          summary:
            "The refused message's key and value as they were (the value cut when too long for the topic), with why.",
          contentType: "application/octet-stream",
          headers: {
            type: "object",
            properties: Object.fromEntries(
              Object.entries(DLQ_HEADERS).map(([name, header]) => [
                header,
                { type: "string", description: DLQ_HEADER_MEANINGS[name as keyof typeof DLQ_HEADERS] },
              ]),
            ),
            required: [
              DLQ_HEADERS.reason,
              DLQ_HEADERS.sourceTopic,
              DLQ_HEADERS.sourcePartition,
              DLQ_HEADERS.sourceOffset,
            ],
          },
          payload: {
            description: "The original message's value, byte for byte (possibly not JSON, possibly cut).",
          },
          bindings: { kafka: { key, bindingVersion: KAFKA_BINDING } },
        },
      },
    },
  };
}
