// `npm start`: the whole product on this machine. Brings up Kafka and Redis (native), starts the
// worker and the API as the real services, loads the demo data through Kafka, creates a token and
// prints a curl line that returns real statistics. Ctrl-C stops everything it started.
import { type ChildProcess, execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { demoDataset, produceEvents } from "@vu/demo-data";
import { Kafka, logLevel } from "kafkajs";
import { notReadyReasons, refusalOf } from "../apiRefusals";
import { stderrLog } from "../log";
import { canBind, freePort } from "../native/ports";
import { spawnService } from "../native/serviceProcess";
import { stackDown, stackUp } from "../native/stack";
import { stackTokensSigningKey } from "../native/tokensSigningKey";
import { repoRoot } from "../paths";
import { waitFor } from "../waitFor";

const tsx = join(repoRoot, "node_modules", ".bin", "tsx");
const children: ChildProcess[] = [];
const say = (line: string) => process.stderr.write(`[start] ${line}\n`);

function startService(name: string, entry: string, env: Record<string, string>): ChildProcess {
  const child = spawnService(entry, { env });
  child.once("exit", (code, signal) => {
    if (!stopping) say(`${name} exited (${signal ?? code}); stopping`);
    if (!stopping) void stop(1);
  });
  children.push(child);
  return child;
}

let stopping = false;
let stackStarted = false;
async function stop(code: number): Promise<never> {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  await Promise.all(
    children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : undefined)),
  );
  if (stackStarted) await stackDown({ log: stderrLog });
  process.exit(code);
}
// `on`, not `once`: Ctrl-C reaches this process twice (from the terminal, and relayed by the tsx
// parent when it misses the first), and a second SIGINT without a listener would kill it before
// the stack is down, leaving the Kafka broker running.
const onSignal = () => {
  if (!stopping) void stop(0);
};
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);

async function main(): Promise<void> {
  const stack = await stackUp({ log: stderrLog });
  stackStarted = stack.started.kafka || stack.started.redis;
  const port = Number(process.env.PORT ?? ((await canBind(8080)) ? 8080 : await freePort()));
  // The API's /healthz, /readyz and /metrics: on a port of their own, never on the public one.
  const opsPort = Number(process.env.OPS_PORT ?? ((await canBind(9465)) ? 9465 : await freePort()));
  const env = { KAFKA_BROKERS: stack.kafkaBrokers.join(","), REDIS_URL: stack.redisUrl, LOG_LEVEL: "warn" };
  // The worker verifies the token records the CLI signs: both get the key, the API needs none.
  // One set by hand wins; otherwise the stack's own, made once and kept beside its Kafka data.
  const keyFile = process.env.TOKENS_SIGNING_KEY
    ? undefined
    : (() => {
        const { key, file, made } = stackTokensSigningKey();
        say(`token records are signed with the key in ${file}${made ? " (made now)" : ""}`);
        return { key, file };
      })();
  const signing = { TOKENS_SIGNING_KEY: keyFile ? keyFile.key : (process.env.TOKENS_SIGNING_KEY as string) };

  // The API serves the dashboard's built files: build them unless dist/ matches the sources.
  say("building the dashboard (skipped when up to date) ...");
  await promisify(execFile)(tsx, ["services/dashboard/scripts/build.ts", "--if-stale"], { cwd: repoRoot });
  // The demo keeps percentile sketches (off by default elsewhere), so the dashboard shows p95.
  startService("worker", "services/ingest-worker/src/main.ts", {
    ...env,
    ...signing,
    OPS_PORT: "0",
    PERCENTILE_SKETCHES: "true",
  });
  startService("api", "services/query-api/src/main.ts", {
    ...env,
    PORT: String(port),
    OPS_PORT: String(opsPort),
  });

  const kafka = new Kafka({
    clientId: "demo-loader",
    brokers: stack.kafkaBrokers,
    logLevel: logLevel.NOTHING,
  });
  let total = 0;
  for (const org of demoDataset(Date.now())) {
    total += await produceEvents({ kafka, events: org.events });
    say(`produced ${org.count} demo recordings for ${org.profile.organizationId}`);
  }

  const { stdout } = await promisify(execFile)(
    tsx,
    ["services/query-api/src/cli/tokens.ts", "create", "--org", "acme", "--label", "npm start"],
    {
      cwd: repoRoot,
      // The CLI writes the token to Redis and to the tokens topic (its durable copy).
      env: { ...process.env, ...env, ...signing },
    },
  );
  const token = stdout.trim().split("\n").at(-1) ?? "";
  const base = `http://localhost:${port}`;
  const query = `${base}/api/v1/stats?granularity=month&group_by=app_name&start_date=${new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10)}`;
  // Demo ids are deterministic, so a second `npm start` within the dedupe window counts nothing twice.
  await waitFor(
    async () => {
      const res = await fetch(`${base}/api/v1/stats/summary?start_date=2000-01-01`, {
        headers: { authorization: `Bearer ${token}` },
      });
      // Every attempt that is not the answer throws, so a timeout names the API's last answer,
      // not a connection refused while it was starting.
      if (!res.ok) throw new Error(await refusalOf(res));
      if (((await res.json()) as { total_recordings: number }).total_recordings > 0) return true;
      throw new Error("the API answered 200 with no recordings counted yet");
    },
    { timeoutMs: 120_000, intervalMs: 500, message: "demo data visible through the API" },
  ).catch(async (error: unknown) => {
    const reasons = await notReadyReasons(`http://localhost:${opsPort}`, rebuildLine(keyFile?.file));
    const said = error instanceof Error ? error.message : String(error);
    throw new Error(`${said}${reasons && `\n${reasons}`}`, { cause: error });
  });

  process.stdout.write(
    `\nUsage statistics are running (${total} demo recordings in Kafka, worker and API up).\n\n` +
      `  token:      ${token}\n` +
      `  dashboard:  ${base}/dashboard/   (paste the token to sign in)\n\n` +
      `  curl -s -H "Authorization: Bearer ${token}" "${query}"\n\n` +
      `  OpenAPI: ${base}/api/v1/openapi.json\n` +
      `  readiness and metrics: http://localhost:${opsPort}/readyz, /metrics   Ctrl-C stops everything.\n`,
  );
}

/**
 * The commands that count this stack's topic into a Redis holding another's view: the stack up
 * again (this script takes down what it started), the rebuild with the demo worker's settings,
 * then `npm start`.
 */
function rebuildLine(keyFile: string | undefined): string {
  const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  const key = keyFile ? `"$(cat ${quoted(keyFile)})"` : "<your TOKENS_SIGNING_KEY>";
  return `npm run stack:up && TOKENS_SIGNING_KEY=${key} PERCENTILE_SKETCHES=true npm run rebuild && npm start`;
}

main().catch((error: unknown) => {
  say(`${error instanceof Error ? error.message : String(error)}`);
  void stop(1);
});
