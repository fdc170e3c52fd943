import { type Log, stderrLog } from "../log";
import { kafkaAnswers, parseBrokers } from "../native/kafkaProbe";
import { redisAnswers } from "../native/redisProbe";
import { stackDown, stackUp } from "../native/stack";
import { isStartedByTests, readStackState } from "../native/stackState";
import { ensureTopics } from "../native/topics";
import { startContainers } from "./containerStack";
import { dockerAvailable } from "./dockerProbe";
import { acquireLease, releaseLease } from "./stackLease";

export type StackSource = "env" | "containers" | "native";

export interface TestStack {
  kafkaBrokers: string[];
  redisUrl: string;
  sources: { kafka: StackSource; redis: StackSource };
  /**
   * Stops only what test runs started (services that were already up keep running), and on the native
   * stack only once no other test run on this machine still uses it.
   */
  teardown(): Promise<void>;
}

/**
 * Finds Kafka and Redis for the integration tests, in this order:
 *   1. KAFKA_BROKERS / REDIS_URL from the environment (each on its own);
 *   2. containers, when a Docker engine answers (VU_TEST_STACK=native skips this, =docker insists);
 *   3. the native stack on the default ports, reused if it is already up.
 * The default topics are ensured in every case, so tests and services can rely on them.
 */
export async function resolveTestStack(log: Log = stderrLog): Promise<TestStack> {
  const envKafka = nonEmpty(process.env.KAFKA_BROKERS);
  const envRedis = nonEmpty(process.env.REDIS_URL);
  if (envKafka !== undefined)
    await mustAnswer("KAFKA_BROKERS", envKafka, kafkaAnswers(parseBrokers(envKafka), 5_000));
  if (envRedis !== undefined)
    await mustAnswer("REDIS_URL", envRedis, redisAnswers(firstUrl(envRedis), 2_000));

  const stack = await resolveMissing(envKafka, envRedis, log);
  await ensureTopics(stack.kafkaBrokers);
  log(
    `integration stack: Kafka ${stack.kafkaBrokers.join(",")} (${stack.sources.kafka}), Redis ${stack.redisUrl} (${stack.sources.redis})`,
  );
  return stack;
}

async function resolveMissing(
  envKafka: string | undefined,
  envRedis: string | undefined,
  log: Log,
): Promise<TestStack> {
  const noop = async () => {};
  if (envKafka !== undefined && envRedis !== undefined) {
    return {
      kafkaBrokers: parseBrokers(envKafka),
      redisUrl: envRedis,
      sources: { kafka: "env", redis: "env" },
      teardown: noop,
    };
  }
  const mode = process.env.VU_TEST_STACK;
  const useDocker = mode === "docker" || (mode !== "native" && (await dockerAvailable()));
  if (useDocker) {
    const containers = await startContainers(
      { kafka: envKafka === undefined, redis: envRedis === undefined },
      log,
    );
    return {
      kafkaBrokers: containers.kafkaBrokers ?? parseBrokers(envKafka ?? ""),
      redisUrl: containers.redisUrl ?? envRedis ?? "",
      sources: { kafka: envKafka ? "env" : "containers", redis: envRedis ? "env" : "containers" },
      teardown: () => containers.stop(),
    };
  }
  // stackUp itself honours KAFKA_BROKERS / REDIS_URL when they are set and answer.
  const lease = acquireLease();
  const info = await stackUp({ log, forTests: true });
  return {
    kafkaBrokers: info.kafkaBrokers,
    redisUrl: info.redisUrl,
    sources: { kafka: envKafka ? "env" : "native", redis: envRedis ? "env" : "native" },
    teardown: async () => {
      if (releaseLease(lease) > 0) {
        log("another test run still uses the native stack; leaving it up for that run to stop");
        return;
      }
      const state = readStackState();
      const kafka = state.kafka !== undefined && isStartedByTests(state.kafka.dataDir);
      const redis = state.redis !== undefined && isStartedByTests(state.redis.dataDir);
      if (kafka || redis) await stackDown({ kafka, redis, log });
    },
  };
}

async function mustAnswer(name: string, value: string, answers: Promise<boolean>): Promise<void> {
  if (!(await answers))
    throw new Error(`${name}=${value} is set but does not answer; unset it to let the tests start their own`);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function firstUrl(urls: string): string {
  return urls.split(",")[0]?.trim() ?? urls;
}
