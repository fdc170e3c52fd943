import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Log, stderrLog } from "../log";
import { stackDir } from "../paths";
import { sleep } from "../waitFor";
import { ensureDebianPackage, run } from "./commands";
import { fileTail } from "./fileTail";
import { resolveKafkaClasspath } from "./kafkaClasspath";
import { clusterId, isFormatted, type KafkaLayout, kafkaLayout, writeKafkaConfig } from "./kafkaConfig";
import { kafkaAnswers } from "./kafkaProbe";
import { isPortOpen } from "./ports";
import { isAlive, livePidFromFile, removeFile, terminate } from "./processes";

export interface KafkaBrokerOptions {
  /** Client (PLAINTEXT) port; default VU_STACK_KAFKA_PORT, else 9092. */
  port?: number;
  /** KRaft controller port; default port + 1. */
  controllerPort?: number;
  /** Holds config, data, pid file and broker.log; default <repo>/.stack/kafka. */
  dataDir?: string;
  /** How long to wait for the broker to answer after launching it; default 120 s. */
  readyTimeoutMs?: number;
  log?: Log;
}

export interface KafkaBrokerInfo {
  brokers: string[];
  /** False when a broker already answered on the port and was left as it was. */
  startedHere: boolean;
  pid: number | undefined;
}

interface Resolved {
  port: number;
  controllerPort: number;
  layout: KafkaLayout;
  readyTimeoutMs: number;
  log: Log;
}

/** VU_STACK_KAFKA_PORT moves the native broker off 9092 (the controller takes the next port). */
export function defaultKafkaPort(): number {
  return Number(process.env.VU_STACK_KAFKA_PORT ?? 9092);
}

function resolve(options: KafkaBrokerOptions): Resolved {
  const port = options.port ?? defaultKafkaPort();
  return {
    port,
    controllerPort: options.controllerPort ?? port + 1,
    layout: kafkaLayout(options.dataDir ?? join(stackDir(), "kafka")),
    readyTimeoutMs: options.readyTimeoutMs ?? 120_000,
    log: options.log ?? stderrLog,
  };
}

/** The marker that tells our broker's command line apart from any other Java process. */
const MAIN_CLASS = "kafka.Kafka";

/**
 * Makes sure an Apache Kafka broker answers on 127.0.0.1:<port>, launching the real broker as a
 * detached JVM if none does. Idempotent: a broker that already answers (ours or anyone's) is reused,
 * and one that is still starting from an earlier call is waited for rather than launched twice.
 */
export async function ensureKafka(options: KafkaBrokerOptions = {}): Promise<KafkaBrokerInfo> {
  const cfg = resolve(options);
  const brokers = [`127.0.0.1:${cfg.port}`];
  const existing = livePidFromFile(cfg.layout.pidFile, MAIN_CLASS);
  if (await kafkaAnswers(brokers)) return { brokers, startedHere: false, pid: existing };
  if (existing !== undefined) {
    cfg.log(`Kafka (pid ${existing}) is still starting; waiting for it`);
    await waitUntilReady(cfg, existing);
    return { brokers, startedHere: false, pid: existing };
  }
  if (await isPortOpen(cfg.port)) {
    throw new Error(`port ${cfg.port} is taken by something that does not answer as a Kafka broker`);
  }
  const pid = await launch(cfg);
  await waitUntilReady(cfg, pid);
  return { brokers, startedHere: true, pid };
}

async function launch(cfg: Resolved): Promise<number> {
  const started = Date.now();
  // Checked on every launch, not only when Maven runs: the classpath cache outlives a removed JRE.
  await ensureDebianPackage("java", "default-jre-headless", cfg.log);
  const classpath = await resolveKafkaClasspath(cfg.log);
  const { layout } = cfg;
  mkdirSync(layout.dataDir, { recursive: true });
  writeKafkaConfig(layout, cfg);
  if (!isFormatted(layout)) {
    await run(
      "java",
      [
        "-cp",
        classpath,
        `-Dlog4j.configuration=file:${layout.log4jProperties}`,
        "kafka.tools.StorageTool",
        "format",
        "-t",
        clusterId(layout),
        "-c",
        layout.serverProperties,
        "--ignore-formatted",
      ],
      { timeoutMs: 120_000 },
    );
  }
  cfg.log(`starting Kafka on 127.0.0.1:${cfg.port} (data in ${layout.dataDir})`);
  // Truncated on every start so the tail printed on failure belongs to this attempt.
  const output = openSync(layout.outputFile, "w");
  try {
    const child = spawn("java", jvmArgs(classpath, layout), {
      detached: true,
      stdio: ["ignore", output, output],
      cwd: layout.dataDir,
    });
    const pid = await spawned(child);
    // Detached and unreferenced: the broker outlives the CLI or test run that launched it.
    child.unref();
    writeFileSync(layout.pidFile, `${pid}\n`);
    cfg.log(`Kafka pid ${pid} launched after ${ms(started)}`);
    return pid;
  } finally {
    closeSync(output);
  }
}

function jvmArgs(classpath: string, layout: KafkaLayout): string[] {
  return [
    // Modest heap: the broker shares a small machine with the services and the tests.
    "-Xms256m",
    "-Xmx1g",
    // The same collector settings as Kafka's own kafka-run-class.sh.
    "-XX:+UseG1GC",
    "-XX:MaxGCPauseMillis=20",
    "-XX:InitiatingHeapOccupancyPercent=35",
    "-XX:+ExplicitGCInvokesConcurrent",
    "-XX:+ExitOnOutOfMemoryError",
    "-Djava.awt.headless=true",
    `-Dlog4j.configuration=file:${layout.log4jProperties}`,
    "-cp",
    classpath,
    MAIN_CLASS,
    layout.serverProperties,
  ];
}

function spawned(child: ReturnType<typeof spawn>): Promise<number> {
  return new Promise((resolvePid, reject) => {
    child.once("error", reject);
    child.once("spawn", () => {
      if (child.pid === undefined) reject(new Error("java started without a pid"));
      else resolvePid(child.pid);
    });
  });
}

async function waitUntilReady(cfg: Resolved, pid: number): Promise<void> {
  const started = Date.now();
  const brokers = [`127.0.0.1:${cfg.port}`];
  const fail = (reason: string): never => {
    const tail = fileTail(cfg.layout.outputFile);
    throw new Error(`${reason}\n--- ${cfg.layout.outputFile} (tail) ---\n${tail}`);
  };
  for (;;) {
    if (await kafkaAnswers(brokers)) break;
    // A broker that died (bad config, port clash) will never answer: fail now, not at the timeout.
    if (!isAlive(pid)) fail(`Kafka process ${pid} exited before it answered on ${brokers[0]}`);
    if (Date.now() - started > cfg.readyTimeoutMs) {
      fail(`Kafka on ${brokers[0]} did not answer within ${cfg.readyTimeoutMs} ms`);
    }
    await sleep(250);
  }
  cfg.log(`Kafka ready on ${brokers[0]} after ${ms(started)} of waiting`);
}

export interface StopKafkaOptions extends KafkaBrokerOptions {
  /** SIGKILL at once instead of a clean shutdown, to simulate a crash. */
  force?: boolean;
  /** How long a clean shutdown may take before SIGKILL; default 30 s. */
  graceMs?: number;
}

/**
 * Stops the broker this module launched for that data dir (found through its pid file) and waits until
 * the process is gone. A broker started by anyone else is left alone. Returns whether one was stopped.
 */
export async function stopKafka(options: StopKafkaOptions = {}): Promise<boolean> {
  const cfg = resolve(options);
  const pid = livePidFromFile(cfg.layout.pidFile, MAIN_CLASS);
  removeFileIfStale(cfg.layout.pidFile, pid);
  if (pid === undefined) return false;
  const started = Date.now();
  await terminate(pid, { force: options.force ?? false, graceMs: options.graceMs ?? 30_000 });
  removeFile(cfg.layout.pidFile);
  cfg.log(`Kafka pid ${pid} stopped after ${ms(started)}${options.force ? " (killed)" : ""}`);
  return true;
}

/** Stop then start on the same port and data dir; resolves once the broker answers again. */
export async function restartKafka(options: StopKafkaOptions = {}): Promise<KafkaBrokerInfo> {
  await stopKafka(options);
  return ensureKafka(options);
}

function removeFileIfStale(pidFile: string, livePid: number | undefined): void {
  if (livePid === undefined) removeFile(pidFile);
}

function ms(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}
