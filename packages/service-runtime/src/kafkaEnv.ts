import { z } from "zod";
import { envList } from "./envFields";
import { secretProblem } from "./secretEnv";

/** The SASL mechanisms a client may use: SCRAM (the password never crosses the wire). */
export const KAFKA_SASL_MECHANISMS = ["scram-sha-256", "scram-sha-512"] as const;
export type KafkaSaslMechanism = (typeof KAFKA_SASL_MECHANISMS)[number];

/**
 * Where Kafka is and how to log in, for every process that opens a Kafka client (the worker, the
 * rebuild, the tokens CLI). Without `KAFKA_SASL_MECHANISM` the client connects without logging in
 * (the native development stack and the tests); with it, `KAFKA_SASL_USERNAME` and
 * `KAFKA_SASL_PASSWORD` are required and the password is held to the rules of a secret (32
 * characters or more, no placeholder): `checkKafkaSasl`, which a schema spreading this shape runs.
 */
export const kafkaEnvShape = {
  KAFKA_BROKERS: envList("localhost:9092"),
  KAFKA_SASL_MECHANISM: z.enum(KAFKA_SASL_MECHANISMS).optional(),
  KAFKA_SASL_USERNAME: z.string().min(1).optional(),
  KAFKA_SASL_PASSWORD: z.string().optional(),
  /** TLS to the brokers (with the system's CA certificates); independent of SASL. */
  KAFKA_SSL: z
    .enum(["true", "false"], { error: "must be true or false" })
    .default("false")
    .transform((v) => v === "true"),
};

interface KafkaEnv {
  KAFKA_BROKERS: string[];
  KAFKA_SASL_MECHANISM?: KafkaSaslMechanism | undefined;
  KAFKA_SASL_USERNAME?: string | undefined;
  KAFKA_SASL_PASSWORD?: string | undefined;
  KAFKA_SSL: boolean;
}

/**
 * Cross-field rule for a schema that spreads `kafkaEnvShape`: a mechanism needs a user name and a
 * password that is a secret; a user name or password without a mechanism is refused too, so that a
 * forgotten `KAFKA_SASL_MECHANISM` never means connecting without logging in.
 */
export function checkKafkaSasl(env: KafkaEnv, ctx: z.RefinementCtx): void {
  const issue = (path: keyof KafkaEnv, message: string) =>
    ctx.addIssue({ code: "custom", path: [path], message });
  if (env.KAFKA_SASL_MECHANISM === undefined) {
    for (const name of ["KAFKA_SASL_USERNAME", "KAFKA_SASL_PASSWORD"] as const) {
      if (env[name] !== undefined) issue("KAFKA_SASL_MECHANISM", `is required when ${name} is set`);
    }
    return;
  }
  const when = `when KAFKA_SASL_MECHANISM is set (${env.KAFKA_SASL_MECHANISM})`;
  if (env.KAFKA_SASL_USERNAME === undefined) issue("KAFKA_SASL_USERNAME", `is required ${when}`);
  if (env.KAFKA_SASL_PASSWORD === undefined) issue("KAFKA_SASL_PASSWORD", `is required ${when}`);
  else {
    const problem = secretProblem(env.KAFKA_SASL_PASSWORD);
    if (problem !== undefined) issue("KAFKA_SASL_PASSWORD", problem);
  }
}

/** Just the Kafka variables, checked (tools that need nothing else). */
export const kafkaEnvSchema = z.object(kafkaEnvShape).superRefine(checkKafkaSasl);

/**
 * What a kafkajs `new Kafka({...})` takes from the environment: the brokers, `ssl` and `sasl`
 * (structurally kafkajs' own `KafkaConfig` fields, without a kafkajs dependency here).
 */
export interface KafkaConnection {
  brokers: string[];
  ssl?: true;
  sasl?: KafkaSasl;
}

/** One member per mechanism, as kafkajs' `SASLOptions` has it. */
export type KafkaSasl = {
  [M in KafkaSaslMechanism]: { mechanism: M; username: string; password: string };
}[KafkaSaslMechanism];

/** The connection settings of an environment `checkKafkaSasl` accepted. */
export function kafkaConnection(env: KafkaEnv): KafkaConnection {
  const {
    KAFKA_SASL_MECHANISM: mechanism,
    KAFKA_SASL_USERNAME: username,
    KAFKA_SASL_PASSWORD: password,
  } = env;
  return {
    brokers: [...env.KAFKA_BROKERS],
    ...(env.KAFKA_SSL ? { ssl: true as const } : {}),
    ...(mechanism !== undefined && username !== undefined && password !== undefined
      ? { sasl: { mechanism, username, password } }
      : {}),
  };
}
