// Global setup of the vitest `integration` project (see vitest.config.ts): resolves Kafka and Redis
// once per run, hands them to the tests, and stops in teardown only what it started.
import type { TestProject } from "vitest/node";
import "./providedContext";
import { resolveTestStack } from "./testStack";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stack = await resolveTestStack();
  // Through the environment too, so services and CLIs the tests spawn find the same stack.
  process.env.KAFKA_BROKERS = stack.kafkaBrokers.join(",");
  process.env.REDIS_URL = stack.redisUrl;
  project.provide("kafkaBrokers", stack.kafkaBrokers);
  project.provide("redisUrl", stack.redisUrl);
  return () => stack.teardown();
}
