import { createKeyspace } from "../format/keyspace";
import { LOG_SCRIPTS } from "../log/logScripts";
import { loadScript } from "../redis/scriptLoader";
import { WRITE_SCRIPTS } from "../write/applyScript";
import { AUTH_SCRIPTS } from "./authScripts";

/**
 * The Redis ACL users of a deployment, one per kind of process, each allowed the commands its code
 * sends and the keys it touches, nothing else (infra/docker-compose.yml writes them into Redis'
 * ACL file; test/access/redisAcl.int.test.ts runs each process' code as its user against a Redis
 * with exactly these users). The `default` user is off: a connection that does not log in as one
 * of these can run nothing.
 *
 * Redis 7 checks the commands a Lua script calls (`redis.call`) against the user who runs it, so
 * a user that runs a script needs the script's commands too (`scriptCommands`).
 */
export const REDIS_ACL_ROLES = ["worker", "api", "tokens"] as const;
export type RedisAclRole = (typeof REDIS_ACL_ROLES)[number];

/** What every client sends whatever it does. */
const CONNECTION = [
  // ioredis announces its name and version on connecting (refusals are ignored, but logged by
  // Redis in ACL LOG); Redis 7.2 and later know it.
  "client|setinfo",
  // ioredis' ready check after connecting (it skips it, with a warning, when refused).
  "info",
  // A Redis Cluster client (comma-separated REDIS_URL): the slot map, the cluster's state on
  // connecting, and the ASKING that precedes a command redirected while a slot moves.
  "cluster|slots",
  "cluster|info",
  "asking",
] as const;

/** `redisHealth` (/readyz and the Redis gauges of both services): PING, CONFIG GET, INFO. */
const HEALTH = ["ping", "config|get", "info"] as const;

/** Running the store's scripts: EVALSHA, and EVAL when Redis answers NOSCRIPT (ioredis). */
const SCRIPT_RUNNING = ["evalsha", "eval"] as const;

/** Every script of the store, by name. */
const SCRIPTS = { ...WRITE_SCRIPTS, ...LOG_SCRIPTS, ...AUTH_SCRIPTS };

/** The commands a store script calls, lower-cased (what its user must be allowed). */
export function scriptCommands(script: keyof typeof SCRIPTS): string[] {
  const text = loadScript(SCRIPTS[script]);
  const called = [...text.matchAll(/redis\.p?call\(\s*["']([A-Za-z]+)["']/g)].map(([, name]) =>
    (name as string).toLowerCase(),
  );
  return [...new Set(called)].sort();
}

export interface RedisAclUser {
  role: RedisAclRole;
  /**
   * Key patterns with their permission: `~p` read and write, `%R~p` read only (Redis 7). Every
   * key of the store starts with `<prefix>:`.
   */
  keys: string[];
  /** Commands (`command` or `command|subcommand`), lower-cased, sorted, each once. */
  commands: string[];
}

const sorted = (commands: readonly string[]) => [...new Set(commands)].sort();

/** The users for a store under `prefix` (REDIS_PREFIX, default `vu`). */
export function redisAclUsers(prefix = "vu"): Record<RedisAclRole, RedisAclUser> {
  const keyspace = createKeyspace({ prefix });
  const tokenKeys = keyspace.tokenPattern();
  const orgTokenIndexes = keyspace.orgTokens("*").replace("{*}", "*");
  const rateLimitKeys = `${keyspace.rateLimitPrefix()}*`;
  return {
    // The ingest worker, and `rebuild`, which runs with the worker's environment: every key of
    // the store, written by its scripts (counting, the view's epoch and checkpoints, restoring a
    // token); the view and token reads around them; the revocation watch's HSETNX; the rebuild's
    // generation switch (SET), its read (GET) and the deletion of the old generation (SCAN, UNLINK).
    worker: {
      role: "worker",
      keys: [`~${keyspace.pattern()}`],
      commands: sorted([
        ...CONNECTION,
        ...HEALTH,
        ...SCRIPT_RUNNING,
        ...scriptCommands("applyBatches"),
        ...scriptCommands("openEpoch"),
        ...scriptCommands("advanceCheckpoint"),
        ...scriptCommands("claimPartition"),
        ...scriptCommands("restoreToken"),
        "get",
        "set",
        "hget",
        "hgetall",
        "hmget",
        "hset",
        "hsetnx",
        "scan",
        "unlink",
      ]),
    },
    // The query API: reads every key of the store and writes two kinds only, a token's
    // `last_used_at` (HSET on the token's key) and the per-token rate-limit counters (their
    // script). It cannot change a sum, a checkpoint, a token's organization index or the
    // generation. express-rate-limit would DECR and DEL a counter only with a `skip…Requests`
    // option (http/rateLimit.ts sets none), so neither is allowed.
    api: {
      role: "api",
      keys: [`%R~${keyspace.pattern()}`, `~${tokenKeys}`, `~${rateLimitKeys}`],
      commands: sorted([
        ...CONNECTION,
        ...HEALTH,
        ...SCRIPT_RUNNING,
        ...scriptCommands("countHit"),
        "get",
        "hget",
        "hgetall",
        "hmget",
        "hlen",
        "hkeys",
        "hscan",
        "exists",
        "smembers",
        "multi",
        "exec",
        "hset",
      ]),
    },
    // The tokens CLI: token records and the organizations' token indexes only (restoreToken's
    // script, the index entry beside it, the reads of `list` and `revoke`, and `resign`'s SCAN over
    // the token keys: SCAN names keys, it reads none).
    tokens: {
      role: "tokens",
      keys: [`~${tokenKeys}`, `~${orgTokenIndexes}`],
      commands: sorted([
        ...CONNECTION,
        ...SCRIPT_RUNNING,
        ...scriptCommands("restoreToken"),
        "hget",
        "hgetall",
        "hset",
        "hsetnx",
        "scan",
      ]),
    },
  };
}

/** One user's rules after its password: its keys, no Pub/Sub channel, its commands and no other. */
export function redisAclRules(user: RedisAclUser): string {
  return [...user.keys, "resetchannels", "-@all", ...user.commands.map((c) => `+${c}`)].join(" ");
}

export interface RedisAclFileOptions {
  /** REDIS_PREFIX; default `vu`. */
  prefix?: string;
  /**
   * Each user's password rule: `>password`, or `#<sha256 of it, hex>` (what compose writes, so the
   * file holds no password).
   */
  password: (role: RedisAclRole) => string;
  /** Commands to leave out, for a Redis that does not know them (`client|setinfo` before 7.2). */
  omit?: readonly string[];
}

/**
 * Redis' ACL file (`aclfile`) for the deployment: `default` off, then one line per user.
 * `redis-server --aclfile <file>` loads it; nothing else may define users then.
 */
export function redisAclFile(options: RedisAclFileOptions): string {
  const omitted = new Set(options.omit ?? []);
  const users = Object.values(redisAclUsers(options.prefix));
  const lines = [
    "user default off resetkeys resetchannels -@all",
    ...users.map((user) => {
      const rules = redisAclRules({ ...user, commands: user.commands.filter((c) => !omitted.has(c)) });
      return `user ${user.role} on ${options.password(user.role)} ${rules}`;
    }),
  ];
  return `${lines.join("\n")}\n`;
}
