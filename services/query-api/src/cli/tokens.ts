import { parseArgs } from "node:util";
import { createSilentKafka, createTokenRecordProducer, createTokenRecordSigner } from "@vu/events";
import { kafkaConnection, parseEnv } from "@vu/service-runtime";
import { createKeyspace, createRedisClient, createTokenStore } from "@vu/store";
import {
  createToken,
  type ResignResult,
  resignTokens,
  revokeToken,
  TOKEN_COMMANDS,
  TokenCommandError,
  type TokensCliEnv,
  tokensCliEnvSchema,
  topicMessageReader,
  topicTokenFinder,
} from "./tokenCommands";

const USAGE = `usage:
  tokens create --org ORG [--label LABEL]   prints the new token alone on its last line
  tokens list --org ORG                     id, label, created, last used, revoked (never the secret)
  tokens revoke --org ORG --id TOKEN_ID
  tokens resign [--trust-unsigned-revocations]
                                            writes a signed record to the tokens topic for every
                                            token Redis holds (every organization), keeping its
                                            revocation; skips those whose record is signed already.
                                            An unsigned revocation in the topic is only reported,
                                            unless trusted (only the tokens CLI ever wrote the topic)

environment: TOKENS_SIGNING_KEY (required: the key the ingest worker verifies token records with),
  TOKENS_SIGNING_KEYS_PREVIOUS (optional), REDIS_URL (default redis://127.0.0.1:6379), REDIS_PREFIX
  (default vu), KAFKA_BROKERS (default localhost:9092), KAFKA_SASL_MECHANISM (scram-sha-256 or
  scram-sha-512, with KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD; unset: no login), KAFKA_SSL
  (default false), TOKENS_TOPIC (default usage-stats.tokens)
create and revoke report success only once both Redis and the tokens topic have the change; revoke
finds a token Redis does not have in the tokens topic. resign is the upgrade from unsigned records
(and from a previous key's): idempotent, safe while the API and the worker run`;

/** How long `revoke` may read the tokens topic for a token Redis does not have. */
const TOPIC_READ_TIMEOUT_MS = 60_000;
/** How long `resign` may take to read the whole tokens topic, each of its two reads. */
const RESIGN_READ_TIMEOUT_MS = 300_000;

const ORG = /^[A-Za-z0-9._:-]{1,128}$/;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    org: { type: "string" },
    label: { type: "string" },
    id: { type: "string" },
    "trust-unsigned-revocations": { type: "boolean" },
  },
});
const [command] = positionals;
const org = values.org ?? "";
if (!command || !(TOKEN_COMMANDS as readonly string[]).includes(command)) fail("a command is required");
if (command === "resign") {
  if (values.org !== undefined || values.id !== undefined || values.label !== undefined) {
    fail("resign takes no --org, --id or --label: it signs the tokens of every organization");
  }
} else if (values["trust-unsigned-revocations"] !== undefined) {
  fail("--trust-unsigned-revocations goes with resign only");
} else if (!ORG.test(org)) fail("--org must be an organization id ([A-Za-z0-9._:-], 1-128 chars)");

let env: Readonly<TokensCliEnv>;
try {
  env = parseEnv(tokensCliEnvSchema);
} catch (error) {
  fail((error as Error).message);
}
const redis = createRedisClient(env.REDIS_URL, {
  maxRetriesPerRequest: 2,
});
const tokens = createTokenStore({
  redis,
  keyspace: createKeyspace({ prefix: env.REDIS_PREFIX }),
});
const kafka = createSilentKafka({ clientId: "usage-tokens-cli", ...kafkaConnection(env) });
const signer = createTokenRecordSigner({
  current: env.TOKENS_SIGNING_KEY,
  previous: env.TOKENS_SIGNING_KEYS_PREVIOUS,
});
const records = createTokenRecordProducer({ kafka, topic: env.TOKENS_TOPIC, signer });
let refused = 0;
const findInTopic = topicTokenFinder({
  kafka,
  topic: env.TOKENS_TOPIC,
  signer,
  timeoutMs: TOPIC_READ_TIMEOUT_MS,
  onRefused: () => {
    refused += 1;
  },
});
let connected = false;

/**
 * Create, revoke and resign write the tokens topic too (list reads Redis alone): connect before
 * any change.
 */
async function connectKafka(): Promise<void> {
  try {
    await records.connect();
    connected = true;
  } catch (cause) {
    throw new TokenCommandError(
      `cannot reach Kafka at ${env.KAFKA_BROKERS.join(",")} (${(cause as Error).message}); nothing was changed`,
    );
  }
}

try {
  if (command === "create") {
    await connectKafka();
    const { token, record } = await createToken({ tokens, records }, org, values.label ?? "");
    process.stderr.write(`created token ${record.id} for ${org}; it is shown only now:\n`);
    process.stdout.write(`${token}\n`);
  } else if (command === "list") {
    for (const t of await tokens.list(org)) {
      process.stdout.write(
        `${t.id}\t${t.label || "-"}\tcreated ${t.createdAt}\tlast used ${t.lastUsedAt ?? "never"}\t${t.revokedAt ? `revoked ${t.revokedAt}` : "active"}\n`,
      );
    }
  } else if (command === "resign") {
    await connectKafka();
    const result = await resignTokens({
      tokens,
      records,
      signer,
      readTopic: topicMessageReader({ kafka, topic: env.TOKENS_TOPIC, timeoutMs: RESIGN_READ_TIMEOUT_MS }),
      trustUnsignedRevocations: values["trust-unsigned-revocations"] === true,
    });
    reportResign(result);
  } else {
    if (!values.id) fail("--id is required for revoke");
    await connectKafka();
    const revoked = await revokeToken({ tokens, records, findInTopic }, org, values.id);
    if (refused > 0) {
      process.stderr.write(
        `ignored ${refused} records of the tokens topic that are malformed or not signed with TOKENS_SIGNING_KEY (or a previous key)\n`,
      );
    }
    if (revoked === null)
      fail(`organization ${org} has no token ${values.id}, in Redis or in the tokens topic`);
    process.stdout.write(`revoked ${values.id}\n`);
  }
} catch (error) {
  const message = error instanceof TokenCommandError ? error.message : `failed: ${(error as Error).message}`;
  process.stderr.write(`${message}\n`);
  process.exitCode = 1;
} finally {
  if (connected) await records.disconnect().catch(() => undefined);
  await redis.quit();
}

/** The counts on stdout, what needs the operator's eye on stderr; exit 1 when a token could not be signed. */
function reportResign(result: ResignResult): void {
  const { signed, revoked, skipped, revokedFromTopic, revokedMeanwhile, incomplete, invalid } = result;
  for (const t of result.unsignedRevocations) {
    process.stderr.write(
      `token ${t.id} of ${t.org} is active in Redis, and an unsigned record of the tokens topic says it was ` +
        `revoked (${t.revokedAt}): not applied, since anyone who may write the topic could have written it; ` +
        `signed active. Revoke it (tokens revoke --org ${t.org} --id ${t.id}) if the revocation is genuine, ` +
        "or run resign with --trust-unsigned-revocations where only the tokens CLI ever wrote the topic\n",
    );
  }
  for (const t of revokedFromTopic) {
    process.stderr.write(
      `token ${t.id} of ${t.org} was active in Redis and revoked in the tokens topic: signed revoked (${t.revokedAt}), and revoked in Redis\n`,
    );
  }
  if (revokedMeanwhile > 0) {
    process.stderr.write(`${revokedMeanwhile} tokens revoked while resign ran: signed again, revoked\n`);
  }
  if (incomplete > 0) {
    process.stderr.write(
      `${incomplete} token keys hold no whole token (only a revocation): nothing to sign\n`,
    );
  }
  if (result.unverifiedNotInRedis > 0) {
    process.stderr.write(
      `${result.unverifiedNotInRedis} tokens of the tokens topic are not in Redis and have no record a restore ` +
        "accepts (unsigned, another key's, malformed): not signed, a restore will not bring them back\n",
    );
  }
  for (const t of invalid) {
    process.stderr.write(
      `token ${t.id} of ${t.org} was not signed: a token record cannot carry it (${t.problem})\n`,
    );
  }
  process.stdout.write(
    `signed ${signed} tokens with key ${signer.keyId} (${revoked} revoked); ${skipped} were signed already and skipped\n`,
  );
  if (invalid.length > 0) {
    process.stderr.write(`${invalid.length} tokens were not signed: a lost Redis would lose them\n`);
    process.exitCode = 1;
  }
}
