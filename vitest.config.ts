import { defineConfig } from "vitest/config";

// Two projects: `unit` is pure logic and needs nothing running; `integration` talks to real Kafka
// and Redis, which its global setup finds (KAFKA_BROKERS / REDIS_URL), starts in Docker through
// Testcontainers, or starts natively (infra/src/native).
export default defineConfig({
  test: {
    // Integration files share one Kafka and one Redis on a 2-core machine: run files one at a time.
    fileParallelism: false,
    projects: [
      {
        test: {
          name: "unit",
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
