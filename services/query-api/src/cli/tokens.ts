import { parseArgs } from "node:util";
import { parseEnv, redisEnvSchema } from "@vu/service-runtime";
import { createKeyspace, createRedisClient, createTokenStore } from "@vu/store";
import type { z } from "zod";

const USAGE = `usage:
  tokens create --org ORG [--label LABEL]   prints the new token alone on its last line
  tokens list --org ORG                     id, label, created, last used, revoked (never the secret)
  tokens revoke --org ORG --id TOKEN_ID

environment: REDIS_URL (default redis://127.0.0.1:6379), REDIS_PREFIX (default vu)`;

const ORG = /^[A-Za-z0-9._:-]{1,128}$/;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { org: { type: "string" }, label: { type: "string" }, id: { type: "string" } },
});
const [command] = positionals;
const org = values.org;
if (!command || !["create", "list", "revoke"].includes(command)) fail("a command is required");
if (!org || !ORG.test(org)) fail("--org must be an organization id ([A-Za-z0-9._:-], 1-128 chars)");

let env: Readonly<z.output<typeof redisEnvSchema>>;
try {
  env = parseEnv(redisEnvSchema);
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
try {
  if (command === "create") {
    const { token, record } = await tokens.create(org, values.label ?? "");
    process.stderr.write(`created token ${record.id} for ${org}; it is shown only now:\n`);
    process.stdout.write(`${token}\n`);
  } else if (command === "list") {
    for (const t of await tokens.list(org)) {
      process.stdout.write(
        `${t.id}\t${t.label || "-"}\tcreated ${t.createdAt}\tlast used ${t.lastUsedAt ?? "never"}\t${t.revokedAt ? `revoked ${t.revokedAt}` : "active"}\n`,
      );
    }
  } else {
    if (!values.id) fail("--id is required for revoke");
    if (!(await tokens.revoke(org, values.id))) fail(`organization ${org} has no token ${values.id}`);
    process.stdout.write(`revoked ${values.id}\n`);
  }
} finally {
  await redis.quit();
}
