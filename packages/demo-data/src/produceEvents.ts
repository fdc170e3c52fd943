import {
  createRecordingProducer,
  type RecordingCompletedInput,
  type RecordingProducer,
  type RecordingProducerOptions,
} from "@vu/events";

export interface ProduceEventsOptions {
  kafka: RecordingProducerOptions["kafka"];
  /** Default: the contract's `recordings.completed`. */
  topic?: string;
  events: Iterable<RecordingCompletedInput>;
  /** Events per Kafka request; default 1000. */
  batchSize?: number;
  /** Called after each batch with the number of events sent so far. */
  onProgress?: (sent: number) => void;
}

/**
 * Publishes events through the contract's producer (validated, keyed by organization,
 * idempotent) and returns how many were sent. Reads the iterable lazily, one batch at a time, so a
 * generated stream of millions never sits in memory.
 */
export async function produceEvents({ kafka, topic, events, batchSize, onProgress }: ProduceEventsOptions) {
  const producer = createRecordingProducer({ kafka, topic });
  await producer.connect();
  try {
    return await sendInBatches(producer, events, { batchSize, onProgress });
  } finally {
    await producer.disconnect();
  }
}

export interface BatchOptions {
  batchSize?: number | undefined;
  onProgress?: ((sent: number) => void) | undefined;
}

/**
 * One batch in flight at a time: the idempotent producer allows a single in-flight request anyway,
 * and waiting keeps memory bounded by one batch.
 */
export async function sendInBatches(
  producer: Pick<RecordingProducer, "send">,
  events: Iterable<RecordingCompletedInput>,
  { batchSize = 1000, onProgress }: BatchOptions = {},
): Promise<number> {
  if (!(Number.isSafeInteger(batchSize) && batchSize > 0)) {
    throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
  }
  let sent = 0;
  let batch: RecordingCompletedInput[] = [];
  const flush = async () => {
    await producer.send(batch);
    sent += batch.length;
    batch = [];
    onProgress?.(sent);
  };
  for (const event of events) {
    batch.push(event);
    if (batch.length >= batchSize) await flush();
  }
  if (batch.length > 0) await flush();
  return sent;
}
