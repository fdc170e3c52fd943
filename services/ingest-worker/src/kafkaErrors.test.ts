import {
  KafkaJSConnectionError,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSProtocolError,
} from "kafkajs";
import { describe, expect, it } from "vitest";
import { isRecordCausedKafkaError } from "./kafkaErrors";

/** How KafkaJS's retrier hands over a non-retriable broker error: wrapped, with the original as `cause`. */
const wrapped = (inner: Error) =>
  new (KafkaJSNonRetriableError as unknown as new (e: Error, o: { cause: Error }) => Error)(inner, {
    cause: inner,
  });
const protocol = (type: string, retriable: boolean) =>
  new KafkaJSProtocolError({ type, code: 1, retriable, message: type } as never);

describe("isRecordCausedKafkaError", () => {
  it("tells the broker's verdicts on the records, wrapped as KafkaJS wraps them", () => {
    expect(isRecordCausedKafkaError(protocol("MESSAGE_TOO_LARGE", false))).toBe(true);
    expect(isRecordCausedKafkaError(wrapped(protocol("RECORD_LIST_TOO_LARGE", false)))).toBe(true);
  });

  it("leaves outages and configuration problems to be retried", () => {
    expect(isRecordCausedKafkaError(new KafkaJSConnectionError("ECONNREFUSED"))).toBe(false);
    expect(isRecordCausedKafkaError(protocol("TOPIC_AUTHORIZATION_FAILED", false))).toBe(false);
    const exhausted = new KafkaJSNumberOfRetriesExceeded(protocol("NOT_LEADER_FOR_PARTITION", true), {
      retryCount: 5,
      retryTime: 100,
    } as never);
    expect(isRecordCausedKafkaError(exhausted)).toBe(false);
  });
});
