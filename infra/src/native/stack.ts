import { join } from "node:path";
import { type Log, stderrLog } from "../log";
import { stackDir } from "../paths";
import { defaultKafkaPort, ensureKafka, stopKafka } from "./kafkaBroker";
import { kafkaAnswers, parseBrokers } from "./kafkaProbe";
import { redisPid } from "./redisLaunch";
import { ensureRedis, stopRedis } from "./redisServer";
import { readStackState, type StackState, setStartedByTests, writeStackState } from "./stackState";
import { ensureTopics } from "./topics";

export interface StackUpOptions {
  log?: Log;
  /** Called by a test run's global setup; see setStartedByTests in stackState.ts. */
  forTests?: boolean;
}

export interface StackInfo {
  kafkaBrokers: string[];
  redisUrl: string;
  /** Started by this call (a later stackDown stops them). */
  started: { kafka: boolean; redis: boolean };
  /** Run by this stack, whether started now or by an earlier `up`. */
  managed: { kafka: boolean; redis: boolean };
}

/**
 * Brings up Kafka, Redis and the topics, reusing whatever already answers. Idempotent: a second `up`
 * finds everything running and only re-checks the topics.
 */
export async function stackUp(options: StackUpOptions = {}): Promise<StackInfo> {
  const log = options.log ?? stderrLog;
  const previous = readStackState();
  const state: StackState = {};

  // A test run marks what it launches; a person's `up` claims whatever runs (see setStartedByTests).
  const claim = (dataDir: string, startedHere: boolean) => {
    if (options.forTests !== true) setStartedByTests(dataDir, false);
    else if (startedHere) setStartedByTests(dataDir, true);
  };

  const kafka = await upKafka(log);
  if (kafka.managed) {
    state.kafka = kafka.managed;
    claim(kafka.managed.dataDir, kafka.startedHere);
  }

  const redisDir = join(stackDir(), "redis");
  const redis = await ensureRedis({ dataDir: redisDir, log });
  const redisManaged =
    redis.startedHere || (previous.redis?.port === redis.port && redisPid(redisDir) !== undefined);
  if (redisManaged) {
    state.redis = { port: redis.port, dataDir: redisDir };
    claim(redisDir, redis.startedHere);
  }
  writeStackState(state);

  const { created } = await ensureTopics(kafka.brokers);
  if (created.length > 0) log(`created topics ${created.join(", ")}`);
  return {
    kafkaBrokers: kafka.brokers,
    redisUrl: redis.url,
    started: { kafka: kafka.startedHere, redis: redis.startedHere },
    managed: { kafka: kafka.managed !== undefined, redis: redisManaged },
  };
}

async function upKafka(log: Log) {
  const fromEnv = process.env.KAFKA_BROKERS?.trim();
  let port = defaultKafkaPort();
  if (fromEnv !== undefined && fromEnv !== "") {
    const brokers = parseBrokers(fromEnv);
    const local = localPort(brokers);
    if (local === undefined) {
      // Remote or several brokers: someone else runs them; use them if they answer.
      if (await kafkaAnswers(brokers, 5_000)) return { brokers, startedHere: false, managed: undefined };
      throw new Error(
        `KAFKA_BROKERS=${fromEnv} does not answer, and only a single local broker can be started here`,
      );
    }
    // One local broker: ensureKafka reuses it if it answers, and tells through the pid whether it is ours.
    port = local;
  }
  const dataDir = join(stackDir(), "kafka");
  const controllerPort = port + 1;
  const info = await ensureKafka({ port, controllerPort, dataDir, log });
  // A pid means our launcher's broker for this data dir answers: ours to stop, even if an earlier
  // `up` started it.
  const managed = info.pid === undefined ? undefined : { port, controllerPort, dataDir };
  return { brokers: info.brokers, startedHere: info.startedHere, managed };
}

/** The port when KAFKA_BROKERS names one local broker, which the stack may then start itself. */
function localPort(brokers: string[]): number | undefined {
  const [only, ...rest] = brokers;
  if (only === undefined || rest.length > 0) return undefined;
  const match = /^(127\.0\.0\.1|localhost):(\d+)$/.exec(only);
  return match?.[2] === undefined ? undefined : Number(match[2]);
}

export interface StackDownOptions {
  /** Which services to stop (default both); the global test setup stops only what it started. */
  kafka?: boolean;
  redis?: boolean;
  log?: Log;
}

/** Stops what the stack runs (per its state file) and returns the names of what it stopped. */
export async function stackDown(options: StackDownOptions = {}): Promise<string[]> {
  const log = options.log ?? stderrLog;
  const state = readStackState();
  const stopped: string[] = [];
  if (options.kafka !== false && state.kafka) {
    if (await stopKafka({ ...state.kafka, log })) stopped.push("kafka");
    setStartedByTests(state.kafka.dataDir, false);
    state.kafka = undefined;
  }
  if (options.redis !== false && state.redis) {
    setStartedByTests(state.redis.dataDir, false);
    if (await stopRedis(state.redis.dataDir)) {
      stopped.push("redis");
      log(`redis-server on port ${state.redis.port} stopped`);
    }
    state.redis = undefined;
  }
  writeStackState(state);
  return stopped;
}
