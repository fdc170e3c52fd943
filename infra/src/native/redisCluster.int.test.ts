import { Cluster } from "ioredis";
import { describe, expect, it, onTestFinished } from "vitest";
import { startRedisCluster } from "./redisCluster";
import { redisCommand, redisUrl } from "./redisProbe";

describe("startRedisCluster", () => {
  it("joins three masters that serve keys of different hash tags", async () => {
    const cluster = await startRedisCluster();
    onTestFinished(() => cluster.stop());
    expect(cluster.nodes).toHaveLength(3);
    for (const node of cluster.nodes) {
      expect(await redisCommand(redisUrl(node.port), "CLUSTER", ["INFO"])).toContain("cluster_state:ok");
    }

    const client = new Cluster(cluster.nodes);
    onTestFinished(() => client.disconnect());
    const tags = ["org-a", "org-b", "org-c", "org-d", "org-e", "org-f"];
    for (const tag of tags) await client.set(`{${tag}}:total`, tag);
    for (const tag of tags) expect(await client.get(`{${tag}}:total`)).toBe(tag);

    // The tags land on more than one master, so the test really crosses slots and nodes.
    const owners = new Set(
      await Promise.all(
        tags.map(async (tag) => client.slots[Number(await client.cluster("KEYSLOT", `{${tag}}`))]?.[0]),
      ),
    );
    expect(owners.size).toBeGreaterThan(1);
  });
});
