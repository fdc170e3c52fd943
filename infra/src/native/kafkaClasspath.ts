import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import type { Log } from "../log";
import { repoRoot, userCacheDir } from "../paths";
import { ensureDebianPackage, run } from "./commands";

/** Must match the version in infra/kafka/pom.xml. */
export const KAFKA_VERSION = "3.9.1";

export function kafkaClasspathFile(): string {
  return join(userCacheDir(), `kafka-${KAFKA_VERSION}`, "classpath.txt");
}

/**
 * The broker's classpath, resolved by Maven from infra/kafka/pom.xml (downloading into ~/.m2 on a fresh
 * machine) and cached outside the work tree. The cache is trusted only while every jar it lists still
 * exists, so a pruned ~/.m2 triggers a new resolution instead of a ClassNotFoundException.
 */
export async function resolveKafkaClasspath(log: Log): Promise<string> {
  const file = kafkaClasspathFile();
  const cached = readClasspath(file);
  if (cached !== undefined) return cached;

  await ensureDebianPackage("java", "default-jre-headless", log);
  await ensureDebianPackage("mvn", "maven", log);
  log(`resolving Apache Kafka ${KAFKA_VERSION} with Maven (first run downloads it) ...`);
  const started = Date.now();
  mkdirSync(join(file, ".."), { recursive: true });
  // Written beside the target and renamed, so a concurrent reader never sees a half-written file.
  const partial = `${file}.${process.pid}.tmp`;
  await run(
    "mvn",
    [
      "-q",
      "-B",
      "-f",
      join(repoRoot, "infra", "kafka", "pom.xml"),
      "dependency:build-classpath",
      `-Dmdep.outputFile=${partial}`,
    ],
    { timeoutMs: 15 * 60_000 },
  );
  renameSync(partial, file);
  const classpath = readClasspath(file);
  if (classpath === undefined) throw new Error(`Maven wrote an unusable classpath to ${file}`);
  log(`resolved Kafka classpath in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return classpath;
}

function readClasspath(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  const classpath = readFileSync(file, "utf8").trim();
  const jars = classpath.split(":").filter((jar) => jar.length > 0);
  const complete = jars.length > 0 && jars.every((jar) => existsSync(jar));
  const hasBroker = jars.some((jar) => jar.includes(`kafka_2.13-${KAFKA_VERSION}.jar`));
  return complete && hasBroker ? jars.join(":") : undefined;
}
