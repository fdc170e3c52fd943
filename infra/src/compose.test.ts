// infra/docker-compose.yml and the Dockerfiles it builds, checked against the services they run: a
// Dockerfile that is missing, a port that is not the one the service listens on, a health check on
// a path nobody serves or an environment variable the service does not read fails here, not in a
// deployment.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { workerEnvSchema } from "@vu/ingest-worker";
import { apiEnvSchema } from "@vu/query-api";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { repoRoot } from "./paths";

const infraDir = join(repoRoot, "infra");

/** What each Dockerfile runs: the service's env schema and the variable naming its HTTP port. */
const IMAGES: Record<string, { schema: typeof workerEnvSchema | typeof apiEnvSchema; portVariable: string }> =
  {
    "infra/docker/ingestWorker.Dockerfile": { schema: workerEnvSchema, portVariable: "METRICS_PORT" },
    "infra/docker/queryApi.Dockerfile": { schema: apiEnvSchema, portVariable: "PORT" },
  };

/** Served by both services: the API's app (services/query-api/src/app.ts) and the ops server. */
const HEALTH_PATHS = new Set(["/healthz", "/readyz"]);

/** Variables Node itself reads, which the images may set. */
const NODE_VARIABLES = new Set(["NODE_ENV", "NODE_OPTIONS"]);

interface ComposeService {
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: Array<string | number>;
  command?: string | string[];
  healthcheck?: { test: string | string[] };
}

/** Values for the variables compose requires (`${NAME:?message}`), as an operator sets them. */
const REQUIRED_VALUES: Record<string, string> = { TOKENS_SIGNING_KEY: "4f9a1c7e2b8d0f3a6c5e9b1d7f2a4c8e" };

/**
 * Compose's interpolation of `${NAME:-default}` (the default) and `${NAME:?message}` (`values`'
 * value; compose refuses to start without one), the forms this file uses.
 */
export function interpolate(text: string, values: Record<string, string>): string {
  return text.replace(
    /\$\{([A-Z_][A-Z0-9_]*)(?::([-?])([^}]*))?\}/g,
    (_all, name: string, form, rest: string) => {
      const value = values[name];
      if (form === "-") return value ?? rest;
      if (value === undefined) throw new Error(`compose needs ${name}: ${rest}`);
      return value;
    },
  );
}

export function composeEnvironment(service: ComposeService): Record<string, string> {
  const env = service.environment ?? {};
  const entries = Array.isArray(env)
    ? env.map((line) => {
        const at = line.indexOf("=");
        return at < 0 ? [line, ""] : [line.slice(0, at), line.slice(at + 1)];
      })
    : Object.entries(env).map(([name, value]) => [name, value === null ? "" : String(value)]);
  return Object.fromEntries(entries);
}

/** The container side of a compose port mapping ("8080", "8080:8080", "127.0.0.1:80:8080/tcp"). */
export function containerPort(mapping: string | number): number {
  const last = String(mapping).split(":").at(-1) ?? "";
  return Number(last.split("/")[0]);
}

/** The `ENV`, `EXPOSE` and health check URLs of a Dockerfile's last (runtime) stage. */
function dockerfileFacts(text: string) {
  const stages = text.split(/^FROM\s/m);
  const runtime = stages.at(-1) ?? "";
  const env: Record<string, string> = {};
  for (const [, name, value] of runtime.matchAll(/^ENV\s+([A-Z_][A-Z0-9_]*)=("[^"]*"|\S+)/gm)) {
    if (name && value) env[name] = value.replace(/^"|"$/g, "");
  }
  const exposed = [...runtime.matchAll(/^EXPOSE\s+(\d+)/gm)].map(([, port]) => Number(port));
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

const compose = parse(readFileSync(join(infraDir, "docker-compose.yml"), "utf8")) as {
  services: Record<string, ComposeService>;
};
const built = Object.entries(compose.services).filter(([, service]) => service.build);

describe("infra/docker-compose.yml", () => {
  it("builds the worker and the API", () => {
    expect(built.map(([, service]) => service.build?.dockerfile).sort()).toEqual(Object.keys(IMAGES).sort());
  });

  describe.each(built)("service %s", (_name, service) => {
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
    // The port the process listens on: compose's environment over the image's ENV over the default.
    const port = Number(
      environment[image.portVariable] ??
        dockerfile.env[image.portVariable] ??
        (image.schema.parse({}) as Record<string, unknown>)[image.portVariable],
    );

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

    it("maps and exposes the port the service listens on", () => {
      expect(service.ports?.length, "ports").toBeGreaterThan(0);
      for (const mapping of service.ports ?? []) expect(containerPort(mapping), String(mapping)).toBe(port);
      expect(dockerfile.exposed).toEqual([port]);
    });

    it("checks health on a path the service serves, at its port", () => {
      const test = service.healthcheck?.test;
      const text = Array.isArray(test) ? test.join(" ") : (test ?? "");
      const urls = text.match(/http:\/\/[^'"\s)]+/g) ?? [];
      expect(urls.length, "compose health check URLs").toBeGreaterThan(0);
      expect(dockerfile.healthUrls.length, "Dockerfile HEALTHCHECK URLs").toBeGreaterThan(0);
      for (const url of [...urls, ...dockerfile.healthUrls]) checkHealthUrl(url, port);
    });
  });
});

describe("infra/docker-compose.yml's Kafka and Redis", () => {
  const { kafka, redis } = compose.services;

  it("are not published on the host", () => {
    expect(kafka?.ports ?? []).toEqual([]);
    expect(redis?.ports ?? []).toEqual([]);
  });

  it("Redis requires the password every service's REDIS_URL carries, and keeps an append-only file", () => {
    const command = [redis?.command ?? []].flat().join(" ");
    expect(command).toMatch(/--requirepass "\$\$REDIS_PASSWORD"/);
    expect(command).toMatch(/--appendonly yes/);
    for (const [, service] of built) {
      expect(composeEnvironment(service).REDIS_URL).toMatch(
        /^redis:\/\/:\$\{REDIS_PASSWORD:-[^}]+\}@redis:6379$/,
      );
    }
  });
});

describe("infra/docker-compose.yml's worker", () => {
  it("requires a token signing key and has none of its own", () => {
    const environment = composeEnvironment(compose.services.worker ?? {});
    expect(environment.TOKENS_SIGNING_KEY).toMatch(/^\$\{TOKENS_SIGNING_KEY:\?[^}]+\}$/);
    expect(() => interpolate(environment.TOKENS_SIGNING_KEY ?? "", {})).toThrow(
      /compose needs TOKENS_SIGNING_KEY/,
    );
  });
});

describe("compose helpers", () => {
  it("reads both environment forms and every port mapping form", () => {
    expect(composeEnvironment({ environment: { PORT: 8080, A: null } })).toEqual({ PORT: "8080", A: "" });
    expect(composeEnvironment({ environment: ["PORT=8080", "B"] })).toEqual({ PORT: "8080", B: "" });
    expect([8080, "8080", "9000:8080", "127.0.0.1:9000:8080/tcp"].map(containerPort)).toEqual([
      8080, 8080, 8080, 8080,
    ]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's syntax, read by `interpolate`
    const [withDefault, required] = ["${P:-change-me}", "${K:?set K}"];
    expect(interpolate(`redis://:${withDefault}@r/${required}`, { K: "k" })).toBe("redis://:change-me@r/k");
    expect(interpolate(withDefault, { P: "p" })).toBe("p");
  });
});
