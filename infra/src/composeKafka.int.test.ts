// The Kafka of infra/docker-compose.yml run as compose runs it, on the real Apache Kafka 3.9.1
// broker (the native stack's jars): the `kafka` service's script formats the storage with the
// admin's SCRAM login and starts the broker with its SASL listeners and authorizer, and the `topics`
// job's script creates the topics, the clients' logins and their ACLs. Only the addresses and paths
// are this test's (the scripts run as written otherwise, the image's tools replaced by the same
// classes, and kafka-topics.sh by a kafkajs stand-in: its class is not in the native classpath).
// Then each client logs in as itself and does what its code does: a producer writes recordings; the
// tokens CLI writes and reads the tokens topic; the worker restores the tokens, counts, dead-letters,
// watches revocations and rebuilds. And each is refused what is not its own.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createRecordingProducer,
  createTokenRecordProducer,
  createTokenRecordSigner,
  latestTokenRecords,
  RECORDINGS_TOPIC,
  TOKENS_TOPIC,
} from "@vu/events";
import {
  createIngestMetrics,
  createIngestWorker,
  loadWorkerEnv,
  runRebuild,
  workerConfigFromEnv,
} from "@vu/ingest-worker";
import { createKeyspace, createRedisClient, createTokenStore, hashToken, mintToken } from "@vu/store";
import kafkajs, { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { composeEnvironment, readCompose, scriptCommands, serviceScript } from "./compose";
import { silentLog } from "./log";
import { fileTail } from "./native/fileTail";
import { resolveKafkaClasspath } from "./native/kafkaClasspath";
import { clientAnswers } from "./native/kafkaProbe";
import { freePort } from "./native/ports";
import { waitFor } from "./waitFor";

// kafkajs is CommonJS, and Node's ESM loader cannot see these exports by name.
const { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } = kafkajs;
const { services } = readCompose();
const dir = mkdtempSync(join(tmpdir(), "vu-compose-kafka-"));
const bin = join(dir, "bin");
const passwords: Record<string, string> = Object.fromEntries(
  ["ADMIN", "WORKER", "PRODUCER", "TOKENS"].map((who) => [
    `KAFKA_${who}_PASSWORD`,
    randomBytes(32).toString("hex"),
  ]),
);
const signingKey = randomBytes(32).toString("hex");
let broker: ChildProcess | undefined;
let address = "";
let port = 0;
let controllerPort = 0;
const redis = createRedisClient(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");

/** A client logged in as `user` (scram-sha-512, as every compose service), or not logged in. */
function kafkaAs(
  user: string | undefined,
  password = user && passwords[`KAFKA_${user.toUpperCase()}_PASSWORD`],
) {
  return new Kafka({
    clientId: `compose-test-${user ?? "anonymous"}`,
    brokers: [address],
    logLevel: logLevel.NOTHING,
    // A broker that just started makes its offsets topic on the first group's request: the group
    // coordinator can take seconds to load on a busy machine. (Anonymous clients are only refused.)
    retry: { retries: user === undefined ? 2 : 8, initialRetryTime: 100 },
    ...(user === undefined
      ? {}
      : { sasl: { mechanism: "scram-sha-512", username: user, password: password ?? "" } }),
  });
}

/** Compose's script with this test's addresses and paths; every place replaced must exist. */
function localScript(service: string, replacements: Array<[string, string]>): string {
  let script = serviceScript(services[service] ?? {});
  for (const [from, to] of replacements) {
    expect(script, `${service}'s script has ${from}`).toContain(from);
    script = script.replaceAll(from, to);
  }
  return script;
}

/** The image's tools: the same classes on the native broker's classpath; kafka-topics.sh by kafkajs. */
function writeTools(classpath: string): void {
  mkdirSync(bin, { recursive: true });
  const log4j = join(dir, "log4j.properties");
  writeFileSync(
    log4j,
    "log4j.rootLogger=WARN, stderr\nlog4j.appender.stderr=org.apache.log4j.ConsoleAppender\n" +
      "log4j.appender.stderr.Target=System.err\nlog4j.appender.stderr.layout=org.apache.log4j.PatternLayout\n" +
      "log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n\n",
  );
  const java = (main: string, heap = "-Xmx256m") =>
    `#!/bin/sh\nexec java ${heap} -XX:TieredStopAtLevel=1 -Dlog4j.configuration=file:${log4j} -cp '${classpath}' ${main} "$@"\n`;
  const tools: Record<string, string> = {
    "kafka-storage.sh": java("kafka.tools.StorageTool"),
    "kafka-server-start.sh": java("kafka.Kafka", "-Xms256m -Xmx768m"),
    "kafka-configs.sh": java("kafka.admin.ConfigCommand"),
    "kafka-acls.sh": java("kafka.admin.AclCommand"),
    "kafka-topics.sh": topicsStandIn(),
  };
  for (const [name, text] of Object.entries(tools)) {
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  }
}

/** kafka-topics.sh's `--create --if-not-exists … --config k=v` and `--list`, logged in as --command-config says. */
function topicsStandIn(): string {
  const kafkajs = createRequire(import.meta.url).resolve("kafkajs");
  return `#!/usr/bin/env node
const { readFileSync } = require("node:fs");
const { Kafka, logLevel } = require(${JSON.stringify(kafkajs)});
const argv = process.argv.slice(2);
const all = (flag) => argv.flatMap((word, i) => (word === flag ? [argv[i + 1]] : []));
const one = (flag) => all(flag)[0];
const props = Object.fromEntries(readFileSync(one("--command-config"), "utf8").split("\\n").filter(Boolean)
  .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]));
if (props["security.protocol"] !== "SASL_PLAINTEXT" || props["sasl.mechanism"] !== "SCRAM-SHA-512") throw new Error("unexpected login");
const [, username, password] = /username="([^"]*)" password="([^"]*)"/.exec(props["sasl.jaas.config"]);
const kafka = new Kafka({ brokers: [one("--bootstrap-server")], logLevel: logLevel.NOTHING,
  sasl: { mechanism: "scram-sha-512", username, password } });
(async () => {
  const admin = kafka.admin();
  await admin.connect();
  try {
    if (argv.includes("--list")) { for (const t of await admin.listTopics()) console.log(t); return; }
    if (!argv.includes("--create") || !argv.includes("--if-not-exists")) throw new Error("only --create --if-not-exists");
    const configEntries = all("--config").map((c) => ({ name: c.slice(0, c.indexOf("=")), value: c.slice(c.indexOf("=") + 1) }));
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic: one("--topic"),
      numPartitions: Number(one("--partitions")), replicationFactor: Number(one("--replication-factor")), configEntries }] });
  } finally { await admin.disconnect(); }
})().catch((error) => { console.error(error); process.exit(1); });
`;
}

function runJob(script: string, env: Record<string, string>) {
  return spawnSync("bash", ["-c", script], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    encoding: "utf8",
    timeout: 240_000,
  });
}

beforeAll(async () => {
  writeTools(await resolveKafkaClasspath(silentLog));
  [port, controllerPort] = [await freePort(), await freePort()];
  address = `127.0.0.1:${port}`;
  // /tmp first: this test's directory is under it too.
  const paths: Array<[string, string]> = [
    ["/tmp/", `${dir}/`],
    ["/opt/kafka/bin/", `${bin}/`],
  ];
  const script = localScript("kafka", [
    ...paths,
    ["/var/lib/kafka/data", join(dir, "data")],
    ["0.0.0.0:19092", address],
    ["kafka:19092", address],
    ["localhost:9093", `localhost:${controllerPort}`],
  ]);
  const env = composeEnvironment(services.kafka ?? {});
  expect(Object.keys(env).sort()).toEqual(["KAFKA_ADMIN_PASSWORD", "KAFKA_HEAP_OPTS", "LOG_DIR"]);
  const output = openSync(join(dir, "broker.log"), "w");
  broker = spawn("bash", ["-c", script], {
    env: { PATH: process.env.PATH, KAFKA_ADMIN_PASSWORD: passwords.KAFKA_ADMIN_PASSWORD as string },
    stdio: ["ignore", output, output],
  });
  closeSync(output);
  // Answering its admin on the client listener: formatted with `admin`, the authorizer up.
  await waitFor(
    async () => {
      if (broker?.exitCode !== null) return true;
      return clientAnswers(kafkaAs("admin"));
    },
    { timeoutMs: 180_000, intervalMs: 500, message: `compose's broker answering admin on ${address}` },
  );
  if (broker?.exitCode !== null) throw new Error(`the broker exited:\n${fileTail(join(dir, "broker.log"))}`);

  const job = runJob(localScript("topics", [...paths, ["kafka:19092", address]]), passwords);
  expect(job.status, `the topic job:\n${job.stdout}\n${job.stderr}`).toBe(0);
}, 600_000);

afterAll(async () => {
  broker?.kill("SIGKILL");
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
});

describe("compose's Kafka", () => {
  it("refuses to start, and the topic job to run, with a password that is short or a placeholder", () => {
    const kafka = runJob(localScript("kafka", [["/opt/kafka/bin/", "/nonexistent/"]]), {
      KAFKA_ADMIN_PASSWORD: "change-me",
    });
    expect(kafka.status).toBe(1);
    expect(kafka.stderr).toMatch(/KAFKA_ADMIN_PASSWORD must be a random secret/);
    const topics = runJob(localScript("topics", [["/opt/kafka/bin/", "/nonexistent/"]]), {
      ...passwords,
      KAFKA_WORKER_PASSWORD: "change-me-change-me-change-me-change-me",
    });
    expect(topics.status).toBe(1);
    expect(topics.stderr).toMatch(/KAFKA_WORKER_PASSWORD must be a random secret/);
  });

  it("takes no client that does not log in, or logs in with another's password", async () => {
    // ApiVersions is answered before a login (a client finds the SASL handshake with it); nothing else.
    const anonymous = kafkaAs(undefined).admin();
    await anonymous.connect().catch(() => undefined);
    await expect(anonymous.listTopics()).rejects.toThrow();
    await anonymous.disconnect();
    await expect(kafkaAs("worker", passwords.KAFKA_PRODUCER_PASSWORD).admin().connect()).rejects.toThrow(
      /SASL SCRAM SHA512 authentication failed/,
    );
    await expect(kafkaAs("nobody", randomBytes(32).toString("hex")).admin().connect()).rejects.toThrow(
      /authentication failed/,
    );
  });

  it("made the topics with compose's settings", async () => {
    const admin = kafkaAs("admin").admin();
    await admin.connect();
    try {
      expect((await admin.listTopics()).filter((t) => !t.startsWith("__")).sort()).toEqual(
        [RECORDINGS_TOPIC, `${RECORDINGS_TOPIC}.dlq`, TOKENS_TOPIC].sort(),
      );
      // Every ACL the job adds (one per principal, operation and resource), and no other.
      const acls = await admin.describeAcls({
        resourceType: AclResourceTypes.ANY,
        resourcePatternType: ResourcePatternTypes.ANY,
        operation: AclOperationTypes.ANY,
        permissionType: AclPermissionTypes.ANY,
      });
      const added = scriptCommands(serviceScript(services.topics ?? {}))
        .filter((argv) => argv[0]?.endsWith("/kafka-acls.sh"))
        .map((argv) => argv.filter((word) => word === "--operation").length);
      expect(acls.resources.flatMap((resource) => resource.acls)).toHaveLength(
        added.reduce((a, b) => a + b, 0),
      );
    } finally {
      await admin.disconnect();
    }
  });

  it("lets each client do what its code does, as itself, and refuses the rest", async () => {
    const prefix = `test-compose-kafka-${randomBytes(4).toString("hex")}`;
    const keyspace = createKeyspace({ prefix });
    const signer = createTokenRecordSigner({ current: signingKey });
    const logger = silentLogger();

    // The tokens CLI: signs a token record into the tokens topic (idempotent producer), and reads
    // the topic back in a throwaway group it deletes (revoke's findInTopic).
    const tokensKafka = kafkaAs("tokens");
    const records = createTokenRecordProducer({ kafka: tokensKafka, topic: TOKENS_TOPIC, signer });
    await records.connect();
    const { hash, record } = mintToken("acme", "compose");
    await records.send(hash, { ...record, revokedAt: null });
    const revoked = mintToken("acme", "revoked");
    await records.send(revoked.hash, { ...revoked.record, revokedAt: new Date().toISOString() });
    await records.disconnect();
    const read = await latestTokenRecords({
      kafka: tokensKafka,
      topic: TOKENS_TOPIC,
      signer,
      onRefused: () => undefined,
    });
    expect(read.latest.get(hash)?.org).toBe("acme");

    // A producer of recordings writes them, one of them broken (dead-lettered by the worker).
    const producerKafka = kafkaAs("producer");
    const producer = createRecordingProducer({ kafka: producerKafka, topic: RECORDINGS_TOPIC });
    await producer.connect();
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    await producer.send(
      Array.from({ length: 12 }, (_, i) => ({
        schema_version: 1 as const,
        recording_id: `${prefix}-${i}`,
        organization_id: "acme",
        member_email: "ada@example.com",
        voice_model: "whisper",
        language_model: "gpt",
        app_name: "Zoom",
        recorded_at: hourAgo,
        duration_ms: 60_000,
        word_count: 150,
        voice_processing_ms: 1_000,
        llm_processing_ms: 2_000,
      })),
    );
    await producer.disconnect();
    const raw = producerKafka.producer();
    await raw.connect();
    await raw.send({ topic: RECORDINGS_TOPIC, messages: [{ key: "acme", value: "{broken" }] });
    // Not the tokens topic: a producer of recordings cannot mint a token.
    await expect(
      raw.send({ topic: TOKENS_TOPIC, messages: [{ key: hashToken("sk-vu-forged"), value: "{}" }] }),
    ).rejects.toThrow(/authoriz/i);
    await raw.disconnect();

    // The worker, as compose configures it (the topics' and group's defaults), logged in as worker.
    const workerKafka = kafkaAs("worker");
    const config = workerConfigFromEnv(
      loadWorkerEnv({ TOKENS_SIGNING_KEY: signingKey, TOKENS_REVOCATION_CHECK_MS: "200", ...QUICK }),
    );
    const metrics = createIngestMetrics();
    const worker = createIngestWorker({ kafka: workerKafka, redis, keyspace, logger, metrics, config });
    await worker.start();
    try {
      await waitFor(async () => (await metrics.applied.get()).values[0]?.value === 12, {
        timeoutMs: 60_000,
        message: "the worker counting the 12 recordings",
      });
      await waitFor(async () => (await metrics.deadLettered.get()).values.length > 0, {
        timeoutMs: 30_000,
        message: "the worker dead-lettering the broken message",
      });
      const tokens = createTokenStore({ redis, keyspace });
      // Restored from the tokens topic when the worker opened the view (Redis never had them).
      expect((await tokens.list("acme")).map((t) => [t.id, t.revokedAt !== null]).sort()).toEqual(
        [
          [record.id, false],
          [revoked.record.id, true],
        ].sort(),
      );
      // The dead letter is in its topic (read by admin: the worker may only write there).
      const admin = kafkaAs("admin").admin();
      await admin.connect();
      const dlq = await admin.fetchTopicOffsets(config.dlqTopic).finally(() => admin.disconnect());
      expect(dlq.reduce((n, p) => n + Number(p.high), 0)).toBe(1);
      // The view records the topic's id, which the worker asked for as itself (Metadata v10).
      const workerAdmin = workerKafka.admin();
      await workerAdmin.connect();
      const { topics } = await workerAdmin
        .fetchTopicIds({ topics: [RECORDINGS_TOPIC] })
        .finally(() => workerAdmin.disconnect());
      expect(topics[0]?.topicId).toMatch(/^[\w-]{22}$/);
      expect(await redis.hget(keyspace.log(1), `topicid:${RECORDINGS_TOPIC}`)).toBe(topics[0]?.topicId);

      // The rebuild, with the worker's login: its own group, the same topics.
      const rebuilt = await runRebuild({
        kafka: workerKafka,
        redis,
        keyspace,
        logger,
        overlapMs: 500,
        pollMs: 200,
        config,
      });
      expect(rebuilt).toMatchObject({ from: 1, to: 2, events: 12 });
    } finally {
      await worker.stop();
    }

    // What the worker may not do: write a token record, write recordings, make a topic.
    const asWorker = workerKafka.producer();
    await asWorker.connect();
    await expect(
      asWorker.send({ topic: TOKENS_TOPIC, messages: [{ key: hash, value: "{}" }] }),
    ).rejects.toThrow(/authoriz/i);
    await expect(asWorker.send({ topic: RECORDINGS_TOPIC, messages: [{ value: "{}" }] })).rejects.toThrow(
      /authoriz/i,
    );
    await asWorker.disconnect();
    const workerAdmin = workerKafka.admin();
    await workerAdmin.connect();
    const creation = await workerAdmin
      .createTopics({ topics: [{ topic: "made-by-worker" }] })
      .catch((e) => e);
    // kafkajs' "Topic creation errors" carries the broker's error per topic.
    expect((creation.errors ?? []).map((e: { type?: string }) => e.type)).toEqual([
      "TOPIC_AUTHORIZATION_FAILED",
    ]);
    await workerAdmin.disconnect();

    // What the tokens CLI may not do: write recordings, or read them.
    const asTokens = tokensKafka.producer();
    await asTokens.connect();
    await expect(asTokens.send({ topic: RECORDINGS_TOPIC, messages: [{ value: "{}" }] })).rejects.toThrow(
      /authoriz/i,
    );
    await asTokens.disconnect();
    // A producer may not look at the worker's group (nor join one): the broker refuses to name
    // the group's coordinator (kafkajs says it found none), which the worker is told.
    const offsetsOf = async (kafka: Kafka) => {
      const admin = kafka.admin();
      await admin.connect();
      return admin
        .fetchOffsets({ groupId: config.groupId, topics: [RECORDINGS_TOPIC] })
        .finally(() => admin.disconnect());
    };
    expect((await offsetsOf(workerKafka))[0]?.partitions.length).toBe(6);
    await expect(offsetsOf(producerKafka)).rejects.toThrow(/authoriz|failed to find group coordinator/i);
  });
});

/** The worker's logger, silent (infra has no pino of its own to make one with). */
function silentLogger(): Parameters<typeof createIngestWorker>[0]["logger"] {
  const noop = () => undefined;
  const make = (): object => ({
    level: "silent",
    isLevelEnabled: () => false,
    ...Object.fromEntries(["fatal", "error", "warn", "info", "debug", "trace"].map((level) => [level, noop])),
    child: make,
  });
  return make() as Parameters<typeof createIngestWorker>[0]["logger"];
}

/** Short sessions, so the rebuild's group and the worker's settle quickly (test/kit's QUICK_REBALANCE_ENV). */
const QUICK = { KAFKA_SESSION_TIMEOUT_MS: "10000", KAFKA_HEARTBEAT_INTERVAL_MS: "1000" };
