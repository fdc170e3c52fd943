// The Redis of infra/docker-compose.yml started as compose starts it: its own script, run by sh with
// the passwords in its environment, writes the ACL file and execs redis-server (here a stand-in that
// records its arguments); then a real redis-server runs with those arguments. The file is the
// store's users (packages/store/src/auth/redisAcl.ts) with each password's SHA-256, each service's user
// logs in with its password and nothing else does. What each user may do is
// test/access/redisAcl.int.test.ts'.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REDIS_ACL_ROLES, type RedisAclRole, redisAclFile } from "@vu/store";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { composeEnvironment, readCompose, serviceScript } from "./compose";
import { silentLog } from "./log";
import { freePort } from "./native/ports";
import { ensureRedisBinaries } from "./native/redisLaunch";
import { waitFor } from "./waitFor";

const service = readCompose().services.redis ?? {};
const dir = mkdtempSync(join(tmpdir(), "vu-compose-redis-"));
const passwords = Object.fromEntries(
  REDIS_ACL_ROLES.map((role) => [`REDIS_${role.toUpperCase()}_PASSWORD`, randomBytes(32).toString("hex")]),
) as Record<string, string>;
const passwordOf = (role: RedisAclRole) => passwords[`REDIS_${role.toUpperCase()}_PASSWORD`] as string;
let server: ChildProcess | undefined;

afterAll(() => {
  server?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** Compose's script, its files under `dir`, run by sh with `env`; redis-server records its arguments. */
function runScript(env: Record<string, string>) {
  const script = serviceScript(service);
  expect(script.split("/tmp/users.acl").length - 1, "the script writes and passes /tmp/users.acl").toBe(2);
  const shims = join(dir, "bin");
  spawnSync("mkdir", ["-p", shims]);
  const argsFile = join(dir, "redis-server.args");
  rmSync(argsFile, { force: true });
  writeFileSync(join(shims, "redis-server"), `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\n`);
  chmodSync(join(shims, "redis-server"), 0o755);
  const result = spawnSync("sh", ["-c", script.replaceAll("/tmp/users.acl", join(dir, "users.acl"))], {
    env: { PATH: `${shims}:${process.env.PATH}`, ...env },
    encoding: "utf8",
  });
  const args = existsSync(argsFile) ? readFileSync(argsFile, "utf8").trimEnd().split("\n") : undefined;
  return { ...result, args };
}

describe("compose's Redis", () => {
  it("refuses to start with a password that is short or a placeholder", () => {
    for (const bad of ["change-me", "change-me-change-me-change-me-change-me"]) {
      const run = runScript({ ...passwords, REDIS_API_PASSWORD: bad });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/REDIS_API_PASSWORD must be a random secret of 32 or more/);
      expect(run.args, "redis-server was not started").toBeUndefined();
    }
  });

  it("writes the store's ACL users with its passwords' SHA-256, and starts Redis with them", async () => {
    expect(Object.keys(composeEnvironment(service)).sort()).toEqual(Object.keys(passwords).sort());
    const run = runScript(passwords);
    expect(run.status, run.stderr).toBe(0);
    const aclFile = join(dir, "users.acl");
    const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
    const written = readFileSync(aclFile, "utf8");
    expect(written).toBe(redisAclFile({ password: (role) => `#${sha256(passwordOf(role))}` }));
    for (const password of Object.values(passwords)) expect(written).not.toContain(password);
    expect(run.args).toEqual(["--appendonly", "yes", "--appendfsync", "everysec", "--aclfile", aclFile]);

    // A real redis-server with compose's arguments. Redis before 7.2 (Debian's 7.0 here) does not
    // know CLIENT SETINFO, whose rule it would refuse; compose's image is 7.4.
    await ensureRedisBinaries(silentLog);
    const version = /v=(\d+)\.(\d+)/.exec(
      spawnSync("redis-server", ["--version"], { encoding: "utf8" }).stdout,
    );
    if (Number(version?.[1]) * 100 + Number(version?.[2]) < 702) {
      writeFileSync(aclFile, written.replaceAll(" +client|setinfo", ""));
    }
    const port = await freePort();
    server = spawn(
      "redis-server",
      [...(run.args ?? []), "--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", ""],
      { stdio: "ignore" },
    );
    const as = (user: string, password: string) =>
      new Redis({
        port,
        host: "127.0.0.1",
        username: user,
        password,
        lazyConnect: true,
        retryStrategy: () => null,
      });
    await waitFor(
      async () => {
        const client = as("api", passwordOf("api"));
        client.on("error", () => undefined);
        try {
          await client.connect();
          return (await client.ping()) === "PONG";
        } catch {
          return false;
        } finally {
          client.disconnect();
        }
      },
      { timeoutMs: 20_000, message: "compose's Redis answering the health check's PING as api" },
    );

    // Each user logs in with its own password only; without logging in nothing runs.
    const anonymous = new Redis({ port, host: "127.0.0.1", lazyConnect: true, enableReadyCheck: false });
    await anonymous.connect();
    await expect(anonymous.ping()).rejects.toThrow(/NOAUTH/);
    await expect(anonymous.call("AUTH", "default", "")).rejects.toThrow(/WRONGPASS/);
    for (const role of REDIS_ACL_ROLES) {
      await expect(anonymous.call("AUTH", role, randomBytes(32).toString("hex")), role).rejects.toThrow(
        /WRONGPASS/,
      );
      const other = REDIS_ACL_ROLES.find((r) => r !== role) as RedisAclRole;
      await expect(anonymous.call("AUTH", role, passwordOf(other)), role).rejects.toThrow(/WRONGPASS/);
    }
    for (const role of REDIS_ACL_ROLES) {
      expect(await anonymous.call("AUTH", role, passwordOf(role)), role).toBe("OK");
      // -@all: not even who it is, unless its list says so.
      await expect(anonymous.call("ACL", "WHOAMI"), role).rejects.toThrow(/NOPERM/);
    }
    anonymous.disconnect();
  });
});
