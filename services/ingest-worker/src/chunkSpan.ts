import {
  type Attributes,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  trace,
} from "@opentelemetry/api";
import type { IHeaders, KafkaMessage } from "kafkajs";

/** Producers' contexts one chunk's span links to, at most: a chunk holds up to 50,000 records. */
export const MAX_PRODUCER_LINKS = 32;

/** The chunk span's own attributes (beside the messaging ones of the semantic conventions). */
export const CHUNK_ATTRIBUTES = {
  firstOffset: "vu.chunk.first_offset",
  lastOffset: "vu.chunk.last_offset",
  organizations: "vu.chunk.organizations",
  scriptMs: "vu.chunk.script_ms",
  counted: "vu.chunk.recordings_counted",
} as const;

const tracer = trace.getTracer("@vu/ingest-worker");

/** Kafka record headers (bytes, text, or a repeated header) as the propagator's carrier. */
const recordHeaders: TextMapGetter<IHeaders> = {
  keys: (headers) => Object.keys(headers),
  get: (headers, key) => {
    const value = headers[key];
    if (value === undefined) return undefined;
    return Array.isArray(value) ? value.map(String) : String(value);
  },
};

/**
 * The distinct producer contexts the records carry in their headers (W3C `traceparent`, or what
 * `OTEL_PROPAGATORS` names), in offset order, at most `max`: a chunk applies many producers'
 * records at once, so it links to them rather than having one for its parent.
 */
export function producerLinks(records: readonly KafkaMessage[], max = MAX_PRODUCER_LINKS): Link[] {
  const links: Link[] = [];
  const seen = new Set<string>();
  for (const { headers } of records) {
    if (links.length >= max) break;
    if (headers === undefined) continue;
    const producer = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, headers, recordHeaders));
    if (producer === undefined || !trace.isSpanContextValid(producer)) continue;
    const key = `${producer.traceId}-${producer.spanId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    links.push({ context: producer });
  }
  return links;
}

export interface ChunkOfPartition {
  topic: string;
  partition: number;
  records: readonly KafkaMessage[];
  organizations: number;
}

/**
 * Runs `apply` in the span of one applied chunk (`apply chunk`: topic, partition, first and last
 * offset, records, organizations; `apply` adds the script time and what was counted): the Redis
 * commands it sends are the span's children. Without tracing the span is the API's no-op one and
 * the records' headers are not read.
 */
export function inChunkSpan<T>(chunk: ChunkOfPartition, apply: (span: Span) => Promise<T>): Promise<T> {
  const { records } = chunk;
  const attributes: Attributes = {
    "messaging.system": "kafka",
    "messaging.operation.type": "process",
    "messaging.destination.name": chunk.topic,
    "messaging.destination.partition.id": String(chunk.partition),
    "messaging.batch.message_count": records.length,
    [CHUNK_ATTRIBUTES.firstOffset]: Number(records[0]?.offset),
    [CHUNK_ATTRIBUTES.lastOffset]: Number(records.at(-1)?.offset),
    [CHUNK_ATTRIBUTES.organizations]: chunk.organizations,
  };
  return tracer.startActiveSpan("apply chunk", { kind: SpanKind.CONSUMER, attributes }, async (span) => {
    if (span.isRecording()) span.addLinks(producerLinks(records));
    try {
      return await apply(span);
    } catch (error) {
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.name : String(error),
      });
      throw error;
    } finally {
      span.end();
    }
  });
}
