import { DLQ_HEADERS } from "@vu/events";
import { retryWithBackoff } from "@vu/service-runtime";
import { KafkaJSNonRetriableError, KafkaJSProtocolError, type Message, type Producer } from "kafkajs";
import { describe, expect, it } from "vitest";
import { createDeadLetterSender, type ProduceRetrier } from "./deadLetterSender";

/** How KafkaJS's retrier hands over a non-retriable broker error: wrapped, with the original as `cause`. */
const wrapped = (inner: Error) =>
  new (KafkaJSNonRetriableError as unknown as new (e: Error, o: { cause: Error }) => Error)(inner, {
    cause: inner,
  });
const tooLarge = () =>
  wrapped(
    new KafkaJSProtocolError({
      type: "MESSAGE_TOO_LARGE",
      code: 10,
      retriable: false,
      message: "too large",
    } as never),
  );

/** A broker that refuses requests above `limit` bytes of values, or any record whose value matches `refuse`. */
function fakeProducer(limit: number, refuse?: (value: Buffer | null) => boolean) {
  const delivered: Message[] = [];
  let transient = 0;
  const producer = {
    async send({ messages }: { messages: Message[] }) {
      if (transient > 0) {
        transient--;
        throw new Error("Connection error: ECONNREFUSED");
      }
      const bytes = messages.reduce((n, m) => n + ((m.value as Buffer | null)?.length ?? 0), 0);
      if (bytes > limit || messages.some((m) => refuse?.((m.value as Buffer | null) ?? null)))
        throw tooLarge();
      delivered.push(...messages);
      return [];
    },
  } as unknown as Producer;
  return { producer, delivered, failNext: (n: number) => (transient = n) };
}

const retrying: ProduceRetrier = (fn, isRetriable) =>
  retryWithBackoff(fn, { shouldContinue: () => true, isRetriable, initialDelayMs: 1 });
const letter = (offset: number, bytes: number) => ({
  message: {
    key: Buffer.from("acme"),
    value: Buffer.alloc(bytes, "x"),
    offset: String(offset),
    headers: {},
  } as never,
  reason: "not valid JSON",
});
const source = { topic: "t", partition: 0 };

describe("createDeadLetterSender", () => {
  it("splits a request the broker refuses as too large until each part fits", async () => {
    // The broker's real limit is below what the sender was told: splitting still gets everything through.
    const broker = fakeProducer(700_000);
    const undeliverable: Message[] = [];
    const send = createDeadLetterSender({
      producer: broker.producer,
      topic: "dlq",
      maxMessageBytes: 2_000_000,
      onUndeliverable: (record) => undeliverable.push(record),
    });
    await send(source, [letter(0, 600_000), letter(1, 600_000), letter(2, 10)], retrying);
    expect(broker.delivered.map((m) => m.headers?.[DLQ_HEADERS.sourceOffset])).toEqual(["0", "1", "2"]);
    expect(undeliverable).toEqual([]);
  });

  it("sends a record refused on its own without its value, marked truncated", async () => {
    const broker = fakeProducer(10_000_000, (value) => (value?.length ?? 0) === 5_000);
    const send = createDeadLetterSender({
      producer: broker.producer,
      topic: "dlq",
      maxMessageBytes: 1_000_000,
      onUndeliverable: () => undefined,
    });
    await send(source, [letter(0, 5_000), letter(1, 20)], retrying);
    expect(broker.delivered.map((m) => [m.headers?.[DLQ_HEADERS.sourceOffset], m.value])).toEqual([
      ["0", null],
      ["1", Buffer.alloc(20, "x")],
    ]);
    expect(broker.delivered[0]?.headers?.[DLQ_HEADERS.truncated]).toBe("5000");
  });

  it("hands over a record refused even without its value, and goes on", async () => {
    const broker = fakeProducer(10_000_000, () => true);
    const undeliverable: Message[] = [];
    const send = createDeadLetterSender({
      producer: broker.producer,
      topic: "dlq",
      maxMessageBytes: 1_000_000,
      onUndeliverable: (record) => undeliverable.push(record),
    });
    await send(source, [letter(0, 10), letter(1, 10)], retrying);
    expect(undeliverable.map((m) => m.headers?.[DLQ_HEADERS.sourceOffset])).toEqual(["0", "1"]);
  });

  it("retries a lost connection instead of splitting", async () => {
    const broker = fakeProducer(10_000_000);
    broker.failNext(2);
    const send = createDeadLetterSender({
      producer: broker.producer,
      topic: "dlq",
      maxMessageBytes: 1_000_000,
      onUndeliverable: () => undefined,
    });
    await send(source, [letter(0, 10), letter(1, 10)], retrying);
    expect(broker.delivered).toHaveLength(2);
    expect(broker.delivered.every((m) => m.value !== null)).toBe(true);
  });
});
