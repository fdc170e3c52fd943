// `npm run stack:up` / `stack:down`: the native Kafka + Redis stack for development and tests.
// Progress goes to stderr; `up` prints only the addresses and where the token signing key is on
// stdout, as exported env assignments, so `eval "$(npm run -s stack:up)"` configures a shell for the worker
// and the tokens CLI (the key itself is read from its file by the shell, never printed).
import { stackDown, stackUp } from "../native/stack";
import { stackTokensSigningKey } from "../native/tokensSigningKey";

async function main(command: string | undefined): Promise<void> {
  switch (command) {
    case "up": {
      const started = Date.now();
      const info = await stackUp();
      process.stderr.write(`[stack] up in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      const { file } = stackTokensSigningKey();
      process.stdout.write(
        `export KAFKA_BROKERS=${info.kafkaBrokers.join(",")}\nexport REDIS_URL=${info.redisUrl}\n` +
          `export TOKENS_SIGNING_KEY="$(cat '${file.replaceAll("'", "'\\''")}')"\n`,
      );
      return;
    }
    case "down": {
      const stopped = await stackDown();
      process.stderr.write(
        `[stack] down: ${stopped.length > 0 ? `stopped ${stopped.join(", ")}` : "nothing to stop"}\n`,
      );
      return;
    }
    default:
      process.stderr.write("usage: tsx infra/src/cli/stack.ts up|down\n");
      process.exitCode = 2;
  }
}

main(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`[stack] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
