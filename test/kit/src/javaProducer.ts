// Produces through Kafka's own Java client (test/fixtures/java/RecordsProducer.java), the producer
// other teams run: its codecs, its batching and its partitioner, none of them written here.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureDebianPackage, resolveKafkaClasspath, silentLog } from "@vu/infra";

export type JavaCodec = "none" | "gzip" | "snappy" | "lz4" | "zstd";

export interface JavaRecord {
  /** The partition to send to; undefined lets the Java client's default partitioner pick by key. */
  partition?: number;
  key: string;
  value: string;
}

const SOURCE = join(
  fileURLToPath(import.meta.url),
  "..",
  "..",
  "..",
  "fixtures",
  "java",
  "RecordsProducer.java",
);

/** Sends `records` in order with `codec`, resolving once the Java producer flushed them all (acks=all). */
export async function produceWithJavaClient(options: {
  brokers: string[];
  topic: string;
  codec: JavaCodec;
  records: readonly JavaRecord[];
  /** Producer properties over the fixture's own (e.g. `batch.size`). */
  properties?: Record<string, string>;
}): Promise<void> {
  const { brokers, topic, codec, records, properties = {} } = options;
  for (const { key, value } of records) {
    if (/[\t\n]/.test(key) || /\n/.test(value))
      throw new TypeError("keys hold no tab or newline, values no newline");
  }
  await ensureDebianPackage("java", "default-jre-headless", silentLog);
  const classpath = await resolveKafkaClasspath(silentLog);
  const extra = Object.entries(properties).map(([name, value]) => `${name}=${value}`);
  // A short-lived client: C1 only and one GC thread start it for less CPU than the server defaults
  // (compose's test tools run the same way), which the suites beside it on two cores feel.
  const jvm = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"];
  const child = spawn("java", [...jvm, "-cp", classpath, SOURCE, brokers.join(","), topic, codec, ...extra], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", resolve);
  });
  child.stdin.end(records.map((r) => `${r.partition ?? "-"}\t${r.key}\t${r.value}\n`).join(""));
  const code = await exited;
  if (code !== 0 || !output.includes(`sent ${records.length}`)) {
    throw new Error(`the Java producer (${codec}) exited with ${code}: ${output.slice(-2_000)}`);
  }
}
