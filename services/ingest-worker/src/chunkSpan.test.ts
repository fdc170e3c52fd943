import { propagation, SpanStatusCode, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import type { IHeaders, KafkaMessage } from "kafkajs";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { CHUNK_ATTRIBUTES, inChunkSpan, MAX_PRODUCER_LINKS, producerLinks } from "./chunkSpan";

const exporter = new InMemorySpanExporter();
beforeAll(() => {
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterEach(() => exporter.reset());

const hex = (n: number, digits: number) => n.toString(16).padStart(digits, "0");
const producer = (n: number) => ({ traceId: hex(n + 1, 32), spanId: hex(n + 1, 16) });
const traceparent = (n: number) => `00-${producer(n).traceId}-${producer(n).spanId}-01`;
const message = (offset: number, headers?: IHeaders): KafkaMessage =>
  ({
    offset: String(offset),
    key: null,
    value: null,
    timestamp: "0",
    attributes: 0,
    headers,
  }) as KafkaMessage;
const linked = (links: ReturnType<typeof producerLinks>) =>
  links.map(({ context }) => ({ traceId: context.traceId, spanId: context.spanId }));

describe("producerLinks", () => {
  it("links each producer's span once, in offset order, from text, bytes or a repeated header", () => {
    const records = [
      message(0, { traceparent: Buffer.from(traceparent(1)) }),
      message(1),
      message(2, { traceparent: traceparent(2) }),
      message(3, { traceparent: traceparent(1) }),
      message(4, { traceparent: [Buffer.from(traceparent(3))] }),
      message(5, { traceparent: "00-00000000000000000000000000000000-0000000000000000-01" }),
      message(6, { traceparent: "not a traceparent" }),
    ];
    expect(linked(producerLinks(records))).toEqual([producer(1), producer(2), producer(3)]);
  });

  it("stops at the bound", () => {
    const records = Array.from({ length: MAX_PRODUCER_LINKS + 10 }, (_, i) =>
      message(i, { traceparent: traceparent(i) }),
    );
    const links = linked(producerLinks(records));
    expect(links).toHaveLength(MAX_PRODUCER_LINKS);
    expect(links.at(-1)).toEqual(producer(MAX_PRODUCER_LINKS - 1));
  });
});

describe("inChunkSpan", () => {
  const chunk = {
    topic: "recordings.completed",
    partition: 2,
    records: [message(40, { traceparent: traceparent(7) }), message(41), message(42)],
    organizations: 3,
  };

  it("records the chunk, its producers and what apply adds, and ends with it", async () => {
    const result = await inChunkSpan(chunk, async (span) => {
      span.setAttribute(CHUNK_ATTRIBUTES.scriptMs, 1.5);
      return "applied";
    });
    expect(result).toBe("applied");
    const [span, ...others] = exporter.getFinishedSpans();
    expect(others).toEqual([]);
    expect(span?.name).toBe("apply chunk");
    expect(span?.attributes).toEqual({
      "messaging.system": "kafka",
      "messaging.operation.type": "process",
      "messaging.destination.name": "recordings.completed",
      "messaging.destination.partition.id": "2",
      "messaging.batch.message_count": 3,
      [CHUNK_ATTRIBUTES.firstOffset]: 40,
      [CHUNK_ATTRIBUTES.lastOffset]: 42,
      [CHUNK_ATTRIBUTES.organizations]: 3,
      [CHUNK_ATTRIBUTES.scriptMs]: 1.5,
    });
    expect(span?.links.map(({ context }) => context.spanId)).toEqual([producer(7).spanId]);
  });

  it("a chunk that fails is an error span, and the failure passes on", async () => {
    class PositionMoved extends Error {
      override name = "PositionMoved";
    }
    await expect(inChunkSpan(chunk, () => Promise.reject(new PositionMoved("moved")))).rejects.toThrow(
      "moved",
    );
    expect(exporter.getFinishedSpans().map((s) => s.status)).toEqual([
      { code: SpanStatusCode.ERROR, message: "PositionMoved" },
    ]);
  });
});
