import { defineConfig } from "vitest/config";
import { LongFilesFirstSequencer } from "./infra/src/testing/longFilesFirstSequencer";

// Two projects: `unit` is pure logic and needs nothing running; `integration` talks to real Kafka
// and Redis, which its global setup finds (KAFKA_BROKERS / REDIS_URL), starts in Docker through
// Testcontainers, or starts natively (infra/src/native).
export default defineConfig({
  test: {
    // Four files at a time on two cores: the integration files mostly wait (group joins, processes
    // starting, a broker restarting), and with three the machine still idled a sixth of the run.
    // They share one Kafka and one Redis, each with its own topics, prefixes and organizations,
    // and a test that restarts or empties Redis starts its own.
    maxWorkers: 4,
    minWorkers: 1,
    // The minutes-long files first (a root option: set on a project, vitest 3.2 ignored it). The
    // unit project has none of them, so its order is vitest's own.
    sequence: { sequencer: LongFilesFirstSequencer },
    projects: [
      {
        test: {
          name: "unit",
          // `npm run test:unit` runs these files without isolation (`--no-isolate`): they are pure
          // logic and share no state, and re-importing the modules for each file cost two thirds of
          // the stage. With fewer than three workers kept, vitest 3.2's pool sometimes tears one
          // down mid-task at the end ("Terminating worker thread", vitest#8564), hence
          // `--minWorkers=3` there. Both are CLI flags: set on this project, vitest 3.2 ignored them.
          include: [
            "packages/*/src/**/*.test.ts",
            "services/*/src/**/*.test.ts",
            "infra/src/**/*.test.ts",
            "test/kit/src/**/*.test.ts",
            "bench/src/**/*.test.ts",
          ],
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
          // A bound against hangs, not a speed target: property and brute-force tests take seconds
          // of CPU, and on a busy 2-core machine vitest's 5 s default failed one that was correct.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: "integration",
          include: ["**/*.int.test.ts"],
          exclude: ["**/node_modules/**"],
          globalSetup: ["./infra/src/testing/globalSetup.ts"],
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
