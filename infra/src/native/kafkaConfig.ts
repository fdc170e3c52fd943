import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface KafkaLayout {
  dataDir: string;
  logDir: string;
  serverProperties: string;
  log4jProperties: string;
  clusterIdFile: string;
  pidFile: string;
  outputFile: string;
}

export function kafkaLayout(dataDir: string): KafkaLayout {
  return {
    dataDir,
    logDir: join(dataDir, "data"),
    serverProperties: join(dataDir, "server.properties"),
    log4jProperties: join(dataDir, "log4j.properties"),
    clusterIdFile: join(dataDir, "cluster.id"),
    pidFile: join(dataDir, "kafka.pid"),
    outputFile: join(dataDir, "broker.log"),
  };
}

export interface KafkaPorts {
  port: number;
  controllerPort: number;
}

/**
 * A single-node KRaft cluster (one process is broker and controller) bound to loopback only.
 * Topics are not auto-created: the stack creates them explicitly, as production does, so a test that
 * forgets to create its topic fails here instead of passing by accident.
 */
export function serverProperties(layout: KafkaLayout, { port, controllerPort }: KafkaPorts): string {
  const settings: Record<string, string | number | boolean> = {
    "process.roles": "broker,controller",
    "node.id": 1,
    "controller.quorum.voters": `1@127.0.0.1:${controllerPort}`,
    listeners: `PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    "advertised.listeners": `PLAINTEXT://127.0.0.1:${port}`,
    "controller.listener.names": "CONTROLLER",
    "inter.broker.listener.name": "PLAINTEXT",
    "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
    "log.dirs": layout.logDir,
    "num.partitions": 6,
    "auto.create.topics.enable": false,
    // One node cannot hold more than one replica of the internal topics.
    "offsets.topic.replication.factor": 1,
    "transaction.state.log.replication.factor": 1,
    "transaction.state.log.min.isr": 1,
    // Tests join consumer groups constantly; the default 3 s delay would be paid on every join.
    "group.initial.rebalance.delay.ms": 0,
  };
  const lines = Object.entries(settings).map(([key, value]) => `${key}=${value}`);
  return `# Written by infra/src/native/kafkaConfig.ts on every start; edits are overwritten.\n${lines.join("\n")}\n`;
}

/** Broker output goes to stdout, which the launcher redirects into broker.log. */
const LOG4J = `log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.log.LogCleaner=WARN
`;

export function writeKafkaConfig(layout: KafkaLayout, ports: KafkaPorts): void {
  mkdirSync(layout.logDir, { recursive: true });
  writeFileSync(layout.serverProperties, serverProperties(layout, ports));
  writeFileSync(layout.log4jProperties, LOG4J);
}

/**
 * The cluster id is generated once and kept beside the data, because storage formatted with one id
 * refuses to start under another.
 */
export function clusterId(layout: KafkaLayout): string {
  if (existsSync(layout.clusterIdFile)) return readFileSync(layout.clusterIdFile, "utf8").trim();
  const id = newClusterId();
  writeFileSync(layout.clusterIdFile, `${id}\n`);
  return id;
}

/** Kafka's Uuid format: 16 random bytes, base64url without padding (22 characters). */
function newClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString("base64url");
    // A leading dash would be read as an option by the storage tool's argument parser.
    if (!id.startsWith("-")) return id;
  }
}

export function isFormatted(layout: KafkaLayout): boolean {
  return existsSync(join(layout.logDir, "meta.properties"));
}
