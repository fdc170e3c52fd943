// infra/docker-compose.yml and the Dockerfiles it builds, checked against the services they run: a
// Dockerfile that is missing, a port that is not the one the service listens on, a health check on
// a path nobody serves or an environment variable the service does not read fails here, not in a
// deployment. And its least privilege: every Kafka client logs in, the ACLs the topic job adds
// allow each client's requests and nothing else, the Redis users are the ones the store's code
// needs (packages/store/src/auth/redisAcl.ts), and no password has a default.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { workerEnvSchema } from "@vu/ingest-worker";
import { apiEnvSchema, tokensCliEnvSchema } from "@vu/query-api";
import { REDIS_ACL_ROLES, type RedisAclRole, redisAclFile, redisAclUsers } from "@vu/store";
import { describe, expect, it } from "vitest";
import {
  COMPOSE_FILE,
  type ComposeService,
  composeEnvironment,
  containerPort,
  hereDocument,
  interpolate,
  readCompose,
  requiredVariables,
  scriptCommands,
  serviceScript,
} from "./compose";
import { repoRoot } from "./paths";

const infraDir = join(repoRoot, "infra");
const composeText = readFileSync(COMPOSE_FILE, "utf8");
const compose = readCompose();
const services = compose.services;

type EnvSchema = typeof workerEnvSchema | typeof apiEnvSchema | typeof tokensCliEnvSchema;

/**
 * What each Dockerfile runs: the service's env schema, the variables naming the ports it listens
 * on, and the one of its ops endpoints (/healthz, /readyz, /metrics), which only the host may reach.
 */
const IMAGES: Record<string, { schema: EnvSchema; portVariables: string[]; opsPortVariable: string }> = {
  "infra/docker/ingestWorker.Dockerfile": {
    schema: workerEnvSchema,
    portVariables: ["OPS_PORT"],
    opsPortVariable: "OPS_PORT",
  },
  "infra/docker/queryApi.Dockerfile": {
    schema: apiEnvSchema,
    portVariables: ["PORT", "OPS_PORT"],
    opsPortVariable: "OPS_PORT",
  },
};

/** The command-line tools a built image runs as a service of profile `tools` (`docker compose run`). */
const TOOLS: Record<string, EnvSchema> = { "dist/cli/tokens.js": tokensCliEnvSchema };

/** Served by the ops server of both services (packages/service-runtime/src/opsServer.ts), on OPS_PORT. */
const HEALTH_PATHS = new Set(["/healthz", "/readyz"]);

/** Variables Node itself reads, which the images may set. */
const NODE_VARIABLES = new Set(["NODE_ENV", "NODE_OPTIONS"]);

/** Every variable compose requires (`${NAME:?message}`), set as an operator sets them: at random. */
const REQUIRED_VALUES: Record<string, string> = Object.fromEntries(
  requiredVariables(composeText).map((name) => [name, randomBytes(32).toString("hex")]),
);

/** The required variables the worker's schema needs to parse at all (for its defaults). */
const REQUIRED_SERVICE_DEFAULTS = { TOKENS_SIGNING_KEY: randomBytes(32).toString("hex") };

/** The tool a service runs (its entrypoint ends in one of TOOLS' scripts), if any. */
function toolOf(service: ComposeService): string | undefined {
  const argv = [service.entrypoint ?? []].flat();
  return Object.keys(TOOLS).find((script) => argv.includes(script));
}

/** The `ENV`, `EXPOSE` and health check URLs of a Dockerfile's last (runtime) stage. */
function dockerfileFacts(text: string) {
  const stages = text.split(/^FROM\s/m);
  const runtime = stages.at(-1) ?? "";
  const env: Record<string, string> = {};
  for (const [, name, value] of runtime.matchAll(/^ENV\s+([A-Z_][A-Z0-9_]*)=("[^"]*"|\S+)/gm)) {
    if (name && value) env[name] = value.replace(/^"|"$/g, "");
  }
  const exposed = [...runtime.matchAll(/^EXPOSE\s+([\d\s]+)$/gm)].flatMap(([, ports]) =>
    (ports ?? "").trim().split(/\s+/).map(Number),
  );
  const healthUrls = [...runtime.matchAll(/^HEALTHCHECK[\s\S]*?http:\/\/[^'"\s)]+/gm)].map(([match]) =>
    match.slice(match.indexOf("http://")),
  );
  return { env, exposed, healthUrls };
}

function checkHealthUrl(url: string, port: number): void {
  const parsed = new URL(url);
  expect(Number(parsed.port), `${url}: the port the service listens on`).toBe(port);
  expect(HEALTH_PATHS, `${url}: a path the service serves`).toContain(parsed.pathname);
}

const built = Object.entries(services).filter(([, service]) => service.build);
const longRunning = built.filter(([, service]) => toolOf(service) === undefined);
const tools = built.filter(([, service]) => toolOf(service) !== undefined);

describe("infra/docker-compose.yml", () => {
  it("builds the worker and the API, and runs the tokens CLI from the API's image", () => {
    expect(longRunning.map(([, service]) => service.build?.dockerfile).sort()).toEqual(
      Object.keys(IMAGES).sort(),
    );
    expect(tools.map(([name, service]) => [name, toolOf(service), service.build?.dockerfile])).toEqual([
      ["tokens", "dist/cli/tokens.js", "infra/docker/queryApi.Dockerfile"],
    ]);
  });

  describe.each(longRunning)("service %s", (_name, service) => {
    const build = service.build as { context: string; dockerfile: string };
    const context = resolve(infraDir, build.context);
    const dockerfilePath = join(context, build.dockerfile);
    const image = IMAGES[build.dockerfile];

    it("names a Dockerfile that exists and runs a known service", () => {
      expect(existsSync(dockerfilePath), dockerfilePath).toBe(true);
      expect(image, `${build.dockerfile}: which env schema does it run?`).toBeDefined();
    });
    if (!image || !existsSync(dockerfilePath)) return;

    const variables = new Set(Object.keys(image.schema.shape));
    const dockerfile = dockerfileFacts(readFileSync(dockerfilePath, "utf8"));
    const environment = composeEnvironment(service);
    // A port the process listens on: compose's environment over the image's ENV over the default.
    const portOf = (variable: string) =>
      Number(
        environment[variable] ??
          dockerfile.env[variable] ??
          (image.schema.parse(REQUIRED_SERVICE_DEFAULTS) as Record<string, unknown>)[variable],
      );
    const byNumber = (a: number, b: number) => a - b;
    const ports = image.portVariables.map(portOf).sort(byNumber);
    const opsPort = portOf(image.opsPortVariable);

    it("sets only variables the service reads", () => {
      for (const name of Object.keys(environment)) {
        expect(variables, `compose sets ${name}`).toContain(name);
      }
      for (const name of Object.keys(dockerfile.env).filter((n) => !NODE_VARIABLES.has(n))) {
        expect(variables, `${build.dockerfile} sets ${name}`).toContain(name);
      }
    });

    it("gives values the service's schema accepts", () => {
      const interpolated = Object.fromEntries(
        Object.entries(environment).map(([name, value]) => [name, interpolate(value, REQUIRED_VALUES)]),
      );
      expect(() => image.schema.parse({ ...dockerfile.env, ...interpolated })).not.toThrow();
    });

    it("maps and exposes the ports the service listens on", () => {
      expect((service.ports ?? []).map(containerPort).sort(byNumber), "ports").toEqual(ports);
      expect(dockerfile.exposed.sort(byNumber)).toEqual(ports);
    });

    it("publishes the ops port on the host's loopback only", () => {
      const published = (service.ports ?? []).filter((mapping) => containerPort(mapping) === opsPort);
      expect(published.length).toBe(1);
      for (const mapping of published) expect(String(mapping)).toMatch(/^127\.0\.0\.1:/);
    });

    it("checks health on a path the ops server serves, at the ops port", () => {
      const test = service.healthcheck?.test;
      const text = Array.isArray(test) ? test.join(" ") : (test ?? "");
      const urls = text.match(/http:\/\/[^'"\s)]+/g) ?? [];
      expect(urls.length, "compose health check URLs").toBeGreaterThan(0);
      expect(dockerfile.healthUrls.length, "Dockerfile HEALTHCHECK URLs").toBeGreaterThan(0);
      for (const url of [...urls, ...dockerfile.healthUrls]) checkHealthUrl(url, opsPort);
    });
  });

  describe.each(tools)("tool %s", (_name, service) => {
    const schema = TOOLS[toolOf(service) ?? ""] as EnvSchema;
    const environment = composeEnvironment(service);

    it("runs only with `docker compose run` (profile tools), publishes nothing, checks no health", () => {
      expect(service.profiles).toEqual(["tools"]);
      expect(service.ports ?? []).toEqual([]);
      expect(service.healthcheck?.disable).toBe(true);
      expect([service.entrypoint].flat().slice(0, 2)).toEqual(["/usr/bin/tini", "--"]);
    });

    it("sets only variables the tool reads, with values its schema accepts", () => {
      for (const name of Object.keys(environment)) expect(Object.keys(schema.shape), name).toContain(name);
      const interpolated = Object.fromEntries(
        Object.entries(environment).map(([name, value]) => [name, interpolate(value, REQUIRED_VALUES)]),
      );
      expect(() => schema.parse(interpolated)).not.toThrow();
    });
  });
});

describe("infra/docker-compose.yml's passwords", () => {
  it("have no defaults: every variable compose interpolates is required", () => {
    // Not `$${...}`: that is a `$` left for a container's shell.
    const interpolations = [...composeText.matchAll(/(?<!\$)\$\{[^}]*\}/g)].map(([text]) => text);
    expect(interpolations.length).toBeGreaterThan(10);
    for (const text of interpolations)
      expect(text, "a variable with a default").toMatch(/^\$\{[A-Z_0-9]+:\?/);
    expect(composeText).not.toMatch(/change-me|requirepass/);
    expect(() => interpolate(composeText, {})).toThrow(/compose needs/);
  });

  it("are one per login, and the token signing key", () => {
    expect(requiredVariables(composeText).sort()).toEqual(
      [
        "TOKENS_SIGNING_KEY",
        ...["ADMIN", "WORKER", "PRODUCER", "TOKENS"].map((who) => `KAFKA_${who}_PASSWORD`),
        ...REDIS_ACL_ROLES.map((role) => `REDIS_${role.toUpperCase()}_PASSWORD`),
      ].sort(),
    );
  });

  it("are refused by Kafka, Redis and the topic job when short, placeholders or not URL-safe", () => {
    const scripts = ["kafka", "redis", "topics"].map((name) => serviceScript(services[name] ?? {}));
    const functions = scripts.map((script) => /^require_secret\(\) \{\n[\s\S]*?\n\}$/m.exec(script)?.[0]);
    expect(functions[0]).toBeDefined();
    expect(new Set(functions).size, "one require_secret, the same in each").toBe(1);
    // Each value in a subshell of one shell process: `(require_secret SECRET_<i>)`, then its status.
    const good = [randomBytes(32).toString("hex"), randomBytes(33).toString("base64url")];
    const bad = ["", "s3cret", "change-me-change-me-change-me-change-me", `${"x".repeat(40)}@`];
    const values = [...good, ...bad];
    const cases = values.map((_, i) => `(require_secret SECRET_${i}) 2>&1; echo "status $?"`);
    for (const shell of ["sh", "bash"]) {
      const result = spawnSync(
        shell,
        ["-c", `set -u\n${functions[0]}\n(require_secret UNSET) 2>&1; echo "status $?"\n${cases.join("\n")}`],
        {
          env: {
            PATH: process.env.PATH,
            ...Object.fromEntries(values.map((value, i) => [`SECRET_${i}`, value])),
          },
          encoding: "utf8",
        },
      );
      const statuses = [...result.stdout.matchAll(/^status (\d+)$/gm)].map(([, status]) => Number(status));
      expect(statuses, `${shell}: ${result.stdout}${result.stderr}`).toEqual([1, 0, 0, 1, 1, 1, 1]);
      expect(result.stdout).toMatch(/^UNSET must be a random secret of 32 or more/m);
      expect(result.stdout).toMatch(/^SECRET_5 must be a random secret of 32 or more/m);
    }
    // Each container checks every password it is given.
    for (const name of ["kafka", "redis", "topics"]) {
      const service = services[name] ?? {};
      const script = serviceScript(service);
      for (const variable of Object.keys(composeEnvironment(service)).filter((v) =>
        v.endsWith("_PASSWORD"),
      )) {
        expect(script, `${name} checks ${variable}`).toMatch(
          new RegExp(
            `require_secret ${variable}\\b|for name in [^;]*\\b${variable}\\b[^;]*; do\\s*require_secret "\\$name"`,
          ),
        );
      }
    }
  });
});

// --- Kafka -------------------------------------------------------------------------------------

/** Kafka's ACL operations that include Describe (and AlterConfigs DescribeConfigs). */
const IMPLIES: Record<string, string[]> = {
  Describe: ["Read", "Write", "Delete", "Alter"],
  DescribeConfigs: ["AlterConfigs"],
};

interface AclBinding {
  principal: string;
  operation: string;
  resourceType: "topic" | "group" | "cluster" | "transactional-id";
  name: string;
  pattern: "literal" | "prefixed";
}

interface KafkaRequest {
  operation: string;
  resourceType: AclBinding["resourceType"];
  name: string;
  why: string;
}

/** The bindings `kafka-acls.sh --add` commands make (allow only; a deny would be a surprise here). */
function parseAcls(commands: string[][]): AclBinding[] {
  return commands
    .filter((argv) => argv[0]?.endsWith("/kafka-acls.sh"))
    .flatMap((argv) => {
      const values = (flag: string) =>
        argv.flatMap((word, i) => (word === flag ? [argv[i + 1] as string] : []));
      expect(argv, "only --add, only allow").toContain("--add");
      expect(values("--deny-principal")).toEqual([]);
      const resources = [
        ...values("--topic").map((name) => ["topic", name] as const),
        ...values("--group").map((name) => ["group", name] as const),
        ...values("--transactional-id").map((name) => ["transactional-id", name] as const),
        ...(argv.includes("--cluster") ? [["cluster", "kafka-cluster"] as const] : []),
      ];
      const pattern = (values("--resource-pattern-type")[0] ?? "literal") as AclBinding["pattern"];
      return values("--allow-principal").flatMap((principal) =>
        values("--operation").flatMap((operation) =>
          resources.map(([resourceType, name]) => ({ principal, operation, resourceType, name, pattern })),
        ),
      );
    });
}

function covers(binding: AclBinding, principal: string, request: KafkaRequest): boolean {
  if (binding.principal !== principal || binding.resourceType !== request.resourceType) return false;
  const matches =
    binding.name === "*" ||
    (binding.pattern === "literal" ? binding.name === request.name : request.name.startsWith(binding.name));
  const grants =
    binding.operation === "All" ||
    binding.operation === request.operation ||
    (IMPLIES[request.operation] ?? []).includes(binding.operation);
  return matches && grants;
}

describe("infra/docker-compose.yml's Kafka", () => {
  const kafka = services.kafka ?? {};
  const kafkaScript = serviceScript(kafka);
  const properties = Object.fromEntries(
    hereDocument(kafkaScript, "/tmp/server.properties")
      .split("\n")
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
  const topicsScript = serviceScript(services.topics ?? {});
  const commands = scriptCommands(topicsScript);
  const bindings = parseAcls(commands);
  const superUsers = (properties["super.users"] ?? "").split(";");
  const allowed = (principal: string, request: KafkaRequest) =>
    superUsers.includes(principal) || bindings.some((binding) => covers(binding, principal, request));

  // What the code asks of Kafka, with the defaults compose runs with (the env schemas').
  const worker = workerEnvSchema.parse(REQUIRED_SERVICE_DEFAULTS);
  const recordings = worker.RECORDINGS_TOPIC;
  const dlq = worker.DLQ_TOPIC;
  const tokensTopic = worker.TOKENS_TOPIC;
  // packages/events/src/tokenRecordReader.ts: every read of the tokens topic joins a throwaway group.
  const tokenReadGroup = `${tokensTopic}-read-${randomBytes(16).toString("hex")}`;
  const readsTokens: KafkaRequest[] = [
    { operation: "Describe", resourceType: "topic", name: tokensTopic, why: "listTopics, fetchTopicOffsets" },
    { operation: "Read", resourceType: "topic", name: tokensTopic, why: "its consumer" },
    { operation: "Read", resourceType: "group", name: tokenReadGroup, why: "its throwaway group" },
    { operation: "Delete", resourceType: "group", name: tokenReadGroup, why: "deleteGroups after" },
  ];
  const REQUESTS: Record<string, KafkaRequest[]> = {
    "User:producer": [{ operation: "Write", resourceType: "topic", name: recordings, why: "recordings" }],
    "User:worker": [
      { operation: "Read", resourceType: "topic", name: recordings, why: "app.ts: the consumer" },
      {
        operation: "Describe",
        resourceType: "topic",
        name: recordings,
        why: "fetchTopicOffsets, fetchTopicIds",
      },
      {
        operation: "DescribeConfigs",
        resourceType: "topic",
        name: recordings,
        why: "topicLimits.ts: its timestamp type",
      },
      { operation: "Read", resourceType: "group", name: worker.KAFKA_GROUP_ID, why: "app.ts: its group" },
      { operation: "Describe", resourceType: "group", name: worker.KAFKA_GROUP_ID, why: "fetchOffsets" },
      {
        operation: "Read",
        resourceType: "group",
        name: `${worker.KAFKA_GROUP_ID}-rebuild-g2`,
        why: "rebuild.ts: the rebuild's group",
      },
      { operation: "Write", resourceType: "topic", name: dlq, why: "deadLetterSender.ts" },
      { operation: "DescribeConfigs", resourceType: "topic", name: dlq, why: "topicLimits.ts" },
      ...readsTokens.map((request) => ({
        ...request,
        why: `tokenRestore.ts, revocationWatch.ts: ${request.why}`,
      })),
    ],
    "User:tokens": [
      { operation: "Write", resourceType: "topic", name: tokensTopic, why: "tokenRecordProducer.ts" },
      ...readsTokens.map((request) => ({ ...request, why: `revoke's findInTopic, resign: ${request.why}` })),
    ],
  };
  const clients = Object.keys(REQUESTS);

  it("listens for clients with SASL/SCRAM only, and for the controller inside its container only", () => {
    const protocols = (properties["listener.security.protocol.map"] ?? "").split(",");
    expect(protocols).toEqual(["INTERNAL:SASL_PLAINTEXT", "CONTROLLER:SASL_PLAINTEXT"]);
    expect(properties.listeners).toBe("INTERNAL://0.0.0.0:19092,CONTROLLER://localhost:9093");
    expect(properties["advertised.listeners"]).toBe("INTERNAL://kafka:19092");
    expect(properties["listener.name.internal.sasl.enabled.mechanisms"]).toBe("SCRAM-SHA-512");
    expect(properties["sasl.mechanism.inter.broker.protocol"]).toBe("SCRAM-SHA-512");
    expect(properties["listener.name.controller.sasl.enabled.mechanisms"]).toBe("PLAIN");
    expect(properties["sasl.enabled.mechanisms"]).toBeUndefined();
    expect(kafka.ports ?? []).toEqual([]);
  });

  it("allows only what an ACL allows, except to admin, whose login exists from the format on", () => {
    expect(properties["authorizer.class.name"]).toBe(
      "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
    );
    expect(properties["allow.everyone.if.no.acl.found"]).toBe("false");
    expect(superUsers).toEqual(["User:admin"]);
    const format = scriptCommands(kafkaScript).find((argv) => argv[0]?.endsWith("/kafka-storage.sh"));
    expect(format).toContain("--add-scram");
    expect(format?.[format.indexOf("--add-scram") + 1]).toBe(
      "SCRAM-SHA-512=[name=admin,password=$KAFKA_ADMIN_PASSWORD]",
    );
    // The broker's own logins (to itself, to the controller) are admin's.
    for (const key of [
      "listener.name.internal.scram-sha-512.sasl.jaas.config",
      "listener.name.controller.plain.sasl.jaas.config",
    ]) {
      expect(properties[key], key).toMatch(/ required username="admin" password="\$KAFKA_ADMIN_PASSWORD"/);
    }
  });

  it("gives each client a SCRAM login of its own, and every Kafka client service logs in with one", () => {
    const logins = commands
      .filter((argv) => argv[0]?.endsWith("/kafka-configs.sh"))
      .map((argv) => [argv[argv.indexOf("--entity-name") + 1], argv[argv.indexOf("--add-config") + 1]]);
    expect(logins).toEqual(
      ["producer", "worker", "tokens"].map((who) => [
        who,
        `SCRAM-SHA-512=[password=$KAFKA_${who.toUpperCase()}_PASSWORD]`,
      ]),
    );
    const kafkaClients = Object.entries(services).filter(
      ([, service]) => "KAFKA_BROKERS" in composeEnvironment(service),
    );
    expect(kafkaClients.map(([name]) => name).sort()).toEqual(["tokens", "worker"]);
    for (const [name, service] of kafkaClients) {
      const env = composeEnvironment(service);
      expect(env.KAFKA_BROKERS, name).toBe("kafka:19092");
      expect(env.KAFKA_SASL_MECHANISM, name).toBe("scram-sha-512");
      expect(env.KAFKA_SASL_USERNAME, name).toBe(name);
      expect(env.KAFKA_SASL_PASSWORD, name).toMatch(
        new RegExp(`^\\$\\{KAFKA_${name.toUpperCase()}_PASSWORD:\\?`),
      );
    }
    // The API has no Kafka client.
    expect(Object.keys(composeEnvironment(services.api ?? {})).filter((v) => v.startsWith("KAFKA_"))).toEqual(
      [],
    );
  });

  it.each(clients)("allows %s every request its code makes", (principal) => {
    for (const request of REQUESTS[principal] ?? []) {
      expect(
        allowed(principal, request),
        `${principal} ${request.operation} ${request.resourceType} ${request.name} (${request.why})`,
      ).toBe(true);
    }
  });

  it("allows nothing a client's code does not need", () => {
    const unused = bindings.filter(
      (binding) =>
        !(REQUESTS[binding.principal] ?? []).some((request) => covers(binding, binding.principal, request)),
    );
    expect(unused).toEqual([]);
    expect(new Set(bindings.map((binding) => binding.principal))).toEqual(new Set(clients));
  });

  it("lets only the tokens CLI write the tokens topic, and producers nothing but recordings", () => {
    const write = (name: string): KafkaRequest => ({
      operation: "Write",
      resourceType: "topic",
      name,
      why: "",
    });
    const read = (name: string): KafkaRequest => ({
      operation: "Read",
      resourceType: "topic",
      name,
      why: "",
    });
    expect(clients.filter((principal) => allowed(principal, write(tokensTopic)))).toEqual(["User:tokens"]);
    expect(clients.filter((principal) => allowed(principal, write(recordings)))).toEqual(["User:producer"]);
    expect(clients.filter((principal) => allowed(principal, write(dlq)))).toEqual(["User:worker"]);
    for (const topic of [recordings, dlq, tokensTopic])
      expect(allowed("User:producer", read(topic)), topic).toBe(false);
    expect(allowed("User:producer", { operation: "Read", resourceType: "group", name: "any", why: "" })).toBe(
      false,
    );
    expect(allowed("User:tokens", read(recordings))).toBe(false);
    expect(allowed("User:worker", read(dlq))).toBe(false);
    expect(allowed("User:nobody", read(recordings))).toBe(false);
  });

  it("lets no client create, delete or reconfigure a topic, nor touch the cluster", () => {
    for (const principal of clients) {
      for (const topic of [recordings, dlq, tokensTopic, "another"]) {
        for (const operation of ["Create", "Delete", "Alter", "AlterConfigs"]) {
          expect(
            allowed(principal, { operation, resourceType: "topic", name: topic, why: "" }),
            `${principal} ${operation} ${topic}`,
          ).toBe(false);
        }
      }
      for (const operation of [
        "Alter",
        "AlterConfigs",
        "Create",
        "ClusterAction",
        "IdempotentWrite",
        "Describe",
        "DescribeConfigs",
      ]) {
        expect(
          allowed(principal, { operation, resourceType: "cluster", name: "kafka-cluster", why: "" }),
        ).toBe(false);
      }
    }
  });

  it("reads the tokens topic in the throwaway groups the ACLs name, the CLI's the worker's topic", () => {
    expect(tokensCliEnvSchema.parse(REQUIRED_SERVICE_DEFAULTS).TOKENS_TOPIC).toBe(tokensTopic);
    const reader = readFileSync(join(repoRoot, "packages/events/src/tokenRecordReader.ts"), "utf8");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the reader's source text
    expect(reader).toContain("`${topic}-read-${randomUUID()}`");
  });
});

// --- Redis -------------------------------------------------------------------------------------

/** Which Redis user each service logs in as. */
const REDIS_USERS: Record<string, RedisAclRole> = { worker: "worker", api: "api", tokens: "tokens" };

describe("infra/docker-compose.yml's Redis", () => {
  const redis = services.redis ?? {};
  const script = serviceScript(redis);

  it("is not published on the host, and keeps an append-only file", () => {
    expect(redis.ports ?? []).toEqual([]);
    expect(script).toMatch(
      /exec redis-server --appendonly yes --appendfsync everysec --aclfile \/tmp\/users.acl$/m,
    );
  });

  it("has the users of packages/store/src/auth/redisAcl.ts, each with its password's SHA-256, and default off", () => {
    const expected = redisAclFile({ password: (role) => `#$(sha256 REDIS_${role.toUpperCase()}_PASSWORD)` });
    expect(
      `${hereDocument(script, "/tmp/users.acl")}\n`,
      "the ACL file compose writes (paste the expected lines)",
    ).toBe(expected);
    expect(script).toContain(`sha256() { printenv "$1" | tr -d '\\n' | sha256sum | cut -d ' ' -f 1; }`);
    expect(Object.keys(composeEnvironment(redis)).sort()).toEqual(
      REDIS_ACL_ROLES.map((role) => `REDIS_${role.toUpperCase()}_PASSWORD`).sort(),
    );
  });

  it("is reached by every service as its own user, with that user's password", () => {
    const clients = Object.entries(services).filter(
      ([, service]) => "REDIS_URL" in composeEnvironment(service),
    );
    expect(clients.map(([name]) => name).sort()).toEqual(Object.keys(REDIS_USERS).sort());
    for (const [name, service] of clients) {
      const role = REDIS_USERS[name] as RedisAclRole;
      expect(composeEnvironment(service).REDIS_URL, name).toMatch(
        new RegExp(`^redis://${role}:\\$\\{REDIS_${role.toUpperCase()}_PASSWORD:\\?[^}]+\\}@redis:6379$`),
      );
    }
  });

  it("checks its health as a user allowed PING", () => {
    const test = [redis.healthcheck?.test ?? []].flat().join(" ");
    const user = /--user (\w+)/.exec(test)?.[1] as RedisAclRole;
    expect(test).toContain(`REDISCLI_AUTH="$$REDIS_${user?.toUpperCase()}_PASSWORD"`);
    expect(redisAclUsers()[user]?.commands).toContain("ping");
  });
});

describe("infra/docker-compose.yml's topic job and services", () => {
  it("start in order: Kafka healthy, then the topics and logins, then the clients", () => {
    expect(services.topics?.depends_on).toEqual({ kafka: { condition: "service_healthy" } });
    for (const name of ["worker", "tokens"]) {
      expect(services[name]?.depends_on, name).toMatchObject({
        topics: { condition: "service_completed_successfully" },
        redis: { condition: "service_healthy" },
      });
    }
  });
});

describe("`docker compose config`", () => {
  const docker = spawnSync("docker", ["compose", "version"], { encoding: "utf8" });
  const run = (env: Record<string, string>) =>
    spawnSync("docker", ["compose", "-f", COMPOSE_FILE, "--profile", "tools", "config", "--quiet"], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      encoding: "utf8",
    });

  it("accepts the file with every password set, and refuses it without them", (ctx) => {
    ctx.skip(
      docker.status !== 0,
      `no Docker Compose here (${docker.error?.message ?? docker.stderr.trim()}): \`docker compose config\` not run`,
    );
    const accepted = run(REQUIRED_VALUES);
    expect(accepted.status, accepted.stderr).toBe(0);
    const refused = run({});
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/required variable [A-Z_]+ is missing|set [A-Z_]+ to a random/);
  });
});

describe("compose helpers", () => {
  it("read both environment forms and every port mapping form", () => {
    expect(composeEnvironment({ environment: { PORT: 8080, A: null } })).toEqual({ PORT: "8080", A: "" });
    expect(composeEnvironment({ environment: ["PORT=8080", "B"] })).toEqual({ PORT: "8080", B: "" });
    expect([8080, "8080", "9000:8080", "127.0.0.1:9000:8080/tcp"].map(containerPort)).toEqual([
      8080, 8080, 8080, 8080,
    ]);
  });

  it("interpolate as compose does", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's syntax, read by `interpolate`
    const [withDefault, required] = ["${P:-fallback}", "${K:?set K}"];
    expect(interpolate(`redis://:${withDefault}@r/${required}`, { K: "k" })).toBe("redis://:fallback@r/k");
    expect(interpolate(withDefault, { P: "p" })).toBe("p");
    expect(interpolate(`$$HOME ${required}`, { K: "k" })).toBe("$HOME k");
    expect(requiredVariables(`${required} ${withDefault} ${required}`)).toEqual(["K"]);
  });

  it("read a script's commands, arrays spread, lines continued", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's syntax, read by `scriptCommands`
    const script = 'a=(--x 1 --y "two words")\nb=(/bin/t "${a[@]}")\n# note\n"${b[@]}" --add \\\n  --z 3\n';
    expect(scriptCommands(script)).toEqual([["/bin/t", "--x", "1", "--y", "two words", "--add", "--z", "3"]]);
    expect(hereDocument("x\n  cat > /tmp/f <<EOF\n  a=1\n  b=2\n  EOF\n", "/tmp/f")).toBe("a=1\nb=2");
  });
});
