import { createRedisClient, STORE_VERSION, scanKeys, unlinkKeys } from "@vu/store";
import { redisUrl } from "@vu/testkit";
import { waitUntilViewCaughtUp } from "@vu/testkit/caughtUp";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { startInProcessWorker } from "@vu/testkit/worker";
import { expect, it, onTestFinished } from "vitest";
import { produceWorkload } from "./support/produce";
import { expectExactAfterFault, prepareWorkload } from "./support/scenario";

// The store upgrade as the README tells an operator to do it. Without a gap in answers: the new
// version's worker starts beside the old one, in a consumer group of its own, and fills the new
// keys from the log while the old worker and API keep serving the old keys; once it has caught up,
// the API is rolled to the new version, and the old keys are deleted. Or in place: the new worker
// takes the old one's group, whose offsets are at the end of the topic, and replays all the same
// (the API answers 503 meanwhile). The old version is stood in for by its keys and by its group's
// offsets at the end of the topic (this code cannot run v7).
const prepared = prepareWorkload("store-upgrade", (config) => config.size.faultEvents, {
  organizations: (config) => config.size.manyOrganizations.organizations,
});
const OLD_VERSION = "v7";

async function keysMatching(redis: ReturnType<typeof createRedisClient>, pattern: string) {
  const keys: string[] = [];
  await scanKeys(redis, pattern, (page) => {
    keys.push(...page);
  });
  return keys.sort();
}

const procedures = [
  { procedure: "beside the old worker", group: `-${STORE_VERSION}` },
  { procedure: "in place of the old worker", group: "" },
];

it.each(procedures)(
  "fills the new version from the log $procedure; the old keys stay untouched until they are deleted",
  async ({ group }) => {
    expect(STORE_VERSION).not.toBe(OLD_VERSION);
    const kafka = testKafka();
    const names = await isolatedTopics("upgrade");
    const redis = createRedisClient(redisUrl());
    onTestFinished(async () => {
      await redis.quit();
    });
    await produceWorkload(kafka, names.topic, prepared.workload.messages);

    // What the old version left: its rollups, the tokens (v3 keys, kept), and its group at the end.
    const oldKeys = [
      `${names.prefix}:${OLD_VERSION}:g1:combos:org-1`,
      `${names.prefix}:${OLD_VERSION}:g1:log`,
    ];
    for (const key of oldKeys) await redis.hset(key, "field", "old value");
    const tokenKey = `${names.prefix}:v3:token:example`;
    await redis.set(tokenKey, "a token record");
    const admin = kafka.admin();
    await admin.connect();
    const ends = await admin.fetchTopicOffsets(names.topic);
    await admin.setOffsets({
      groupId: names.groupId,
      topic: names.topic,
      partitions: ends.map(({ partition, high }) => ({ partition, offset: high })),
    });
    await admin.disconnect();

    // The new worker (README: Upgrading the store).
    const upgraded = { ...names, groupId: `${names.groupId}${group}` };
    const worker = await startInProcessWorker({
      kafka,
      redis,
      names: upgraded,
      nowMs: prepared.workload.anchorMs,
    });
    onTestFinished(() => worker.stop());
    await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 120_000);
    expect(await keysMatching(redis, `${names.prefix}:${OLD_VERSION}:*`)).toEqual(oldKeys.sort());

    // The API of the new version answers exactly; then the old rollups go, the tokens stay.
    await expectExactAfterFault(prepared, {
      redisUrl: redisUrl(),
      prefix: names.prefix,
      workerClock: "anchor",
    });
    expect(await unlinkKeys(redis, `${names.prefix}:${OLD_VERSION}:*`)).toBe(oldKeys.length);
    expect(await redis.get(tokenKey)).toBe("a token record");
    await expectExactAfterFault(prepared, {
      redisUrl: redisUrl(),
      prefix: names.prefix,
      workerClock: "anchor",
    });
  },
  300_000,
);
