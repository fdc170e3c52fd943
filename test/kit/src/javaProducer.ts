// Produces through Kafka's own Java client (test/fixtures/java/RecordsProducer.java), the producer
// other teams run: its codecs, its batching and its partitioner, none of them written here.
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
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

// A short-lived client: C1 only and one GC thread start it for less CPU than the server defaults
// (compose's test tools run the same way), which the suites beside it on two cores feel.
const JVM = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"];

let compiling: Promise<string> | undefined;

/**
 * The fixture compiled once per machine and source (a directory of classes named by the source's
 * and classpath's hash), with the compiler of the JVM that runs it (`jdk.compiler`, which running
 * a single source file needs too): launching the source compiles it anew each time, seconds of
 * CPU per producer on two cores. Compiled beside its place and renamed, so concurrent suites never
 * see half a directory.
 */
function compiledProducer(classpath: string): Promise<string> {
  compiling ??= (async () => {
    const hash = createHash("sha256").update(readFileSync(SOURCE)).update(classpath).digest("hex");
    const classes = join(tmpdir(), `vu-records-producer-${hash.slice(0, 16)}`);
    if (existsSync(join(classes, "RecordsProducer.class"))) return classes;
    const partial = mkdtempSync(`${classes}.partial-`);
    const javac = ["-m", "jdk.compiler/com.sun.tools.javac.Main", "-cp", classpath, "-d", partial, SOURCE];
    await promisify(execFile)("java", [...JVM, ...javac]);
    try {
      renameSync(partial, classes);
    } catch (error) {
      // Another suite compiled it first: theirs is the same.
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(join(classes, "RecordsProducer.class"))) throw error;
    }
    return classes;
  })();
  compiling.catch(() => {
    compiling = undefined;
  });
  return compiling;
}

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
  const classes = await compiledProducer(classpath);
  const args = [
    "-cp",
    `${classes}:${classpath}`,
    "RecordsProducer",
    brokers.join(","),
    topic,
    codec,
    ...extra,
  ];
  const child = spawn("java", [...JVM, ...args], { stdio: ["pipe", "pipe", "pipe"] });
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
