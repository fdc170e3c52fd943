import { waitFor } from "@vu/infra";
import { recordingEvent } from "@vu/testkit";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { type RecordedSpan, startTracedWorker } from "@vu/testkit/tracedProcess";
import { describe, expect, it, onTestFinished } from "vitest";
import { CHUNK_ATTRIBUTES } from "./chunkSpan";

// The worker's spans as main.ts starts tracing (tracing.ts, chunkSpan.ts), recorded by the SDK's
// in-memory exporter in a child process (test/kit/src/tracedProcess.ts).

const kafka = testKafka();
const CONSUMER = 4;
/** Two producers' spans, as their W3C `traceparent` headers name them. */
const PRODUCER_A = { traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331" };
const PRODUCER_B = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7" };
const traceparent = ({ traceId, spanId }: typeof PRODUCER_A) => `00-${traceId}-${spanId}-01`;

describe("the worker's traces", () => {
  it("an applied chunk is a span with its partition, offsets and organizations, linked to its producers, over its Redis commands", async () => {
    const names = await isolatedTopics("tracing", { partitions: 1 });
    const worker = await startTracedWorker({ names });
    onTestFinished(() => worker.stop());

    const recordedAt = new Date(Date.now() - 3_600_000).toISOString();
    const record = (id: string, org: string, headers: Record<string, string>) => ({
      key: org,
      value: JSON.stringify(recordingEvent(id, recordedAt, { organization_id: org })),
      headers,
    });
    const producer = kafka.producer();
    await producer.connect();
    // One send: one record batch, one chunk.
    await producer.send({
      topic: names.topic,
      messages: [
        record("r0", "acme", { traceparent: traceparent(PRODUCER_A) }),
        record("r1", "acme", { traceparent: traceparent(PRODUCER_A) }),
        record("r2", "globex", { traceparent: traceparent(PRODUCER_B) }),
        record("r3", "globex", {}),
        record("r4", "acme", { traceparent: "00-not-a-trace-01" }),
      ],
    });
    await producer.disconnect();

    const chunkSpans = (spans: RecordedSpan[]) => spans.filter((s) => s.name === "apply chunk");
    const spans = await waitFor(
      async () => {
        const all = await worker.spans();
        return chunkSpans(all).some((s) => s.attributes[CHUNK_ATTRIBUTES.lastOffset] === 4) && all;
      },
      { timeoutMs: 60_000, message: "the chunk's span" },
    );
    const [chunk, ...others] = chunkSpans(spans);
    expect(others).toEqual([]);
    if (chunk === undefined) throw new Error("no chunk span");
    expect(chunk).toMatchObject({ scope: "@vu/ingest-worker", kind: CONSUMER, status: 0 });
    // A root: the chunk applies many producers' records, and links to them (below).
    expect(chunk.parentSpanId).toBeUndefined();
    expect(chunk.attributes).toMatchObject({
      "messaging.system": "kafka",
      "messaging.destination.name": names.topic,
      "messaging.destination.partition.id": "0",
      "messaging.batch.message_count": 5,
      [CHUNK_ATTRIBUTES.firstOffset]: 0,
      [CHUNK_ATTRIBUTES.lastOffset]: 4,
      [CHUNK_ATTRIBUTES.organizations]: 2,
      [CHUNK_ATTRIBUTES.counted]: 5,
    });
    expect(chunk.attributes[CHUNK_ATTRIBUTES.scriptMs]).toBeGreaterThan(0);
    // Each producer's span once, in offset order; a malformed traceparent links nothing.
    expect(chunk.links).toEqual([PRODUCER_A, PRODUCER_B]);

    const commands = spans.filter((s) => s.parentSpanId === chunk.spanId);
    expect(commands.every((s) => s.scope === "@opentelemetry/instrumentation-ioredis")).toBe(true);
    // The apply script's call (EVALSHA, or EVAL when Redis did not have the script yet).
    expect(commands.map((s) => s.name)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^eval(sha)?$/)]),
    );
  });
});
