// The under-ingest pass's steady stream (underIngest.ts): new recordings at BENCH_RATE events/s,
// recorded now, spread over the organizations in BENCH_ORGS, through the contract's producer into
// BENCH_TOPIC, until SIGTERM. A child process of its own, so that producing at half the worker's
// rate does not share an event loop with the load generator whose latencies the pass records.
// Prints one JSON line when stopped: `{ "sent": n, "seconds": s }`.
import { createRecordingProducer } from "@vu/events";
import { sleep } from "@vu/infra";
import { benchKafka } from "./kafkaTopics";
import { recordingNow, STREAM_BATCH_INTERVAL_MS } from "./recordingNow";

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === "") throw new Error(`${name} is required`);
  return value;
};

const rate = Number(env("BENCH_RATE"));
const orgs = env("BENCH_ORGS").split(",");
const runId = env("BENCH_RUN");
const perBatch = Math.max(1, Math.round((rate * STREAM_BATCH_INTERVAL_MS) / 1000));

const producer = createRecordingProducer({
  kafka: benchKafka(env("KAFKA_BROKERS").split(","), `bench-steady-${runId}`),
  topic: env("BENCH_TOPIC"),
});
await producer.connect();
let stopping = false;
process.once("SIGTERM", () => {
  stopping = true;
});

let sent = 0;
const started = performance.now();
// Each batch is due at a fixed time; a late send is caught up by the next ones, so the rate holds
// on average as long as the producer can keep up at all.
for (let k = 0; !stopping; k++) {
  const wait = started + k * STREAM_BATCH_INTERVAL_MS - performance.now();
  if (wait > 0) await sleep(wait);
  const events = Array.from({ length: perBatch }, (_, i) =>
    recordingNow(
      orgs[(k * perBatch + i) % orgs.length] ?? "",
      `steady-${runId}-${k}-${i}`,
      "steady@example.com",
    ),
  );
  await producer.send(events);
  sent += events.length;
}
const seconds = (performance.now() - started) / 1000;
await producer.disconnect();
console.log(JSON.stringify({ sent, seconds }));
