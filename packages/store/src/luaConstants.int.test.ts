import { redisTargets } from "@vu/infra";
import { useRedisTarget } from "@vu/testkit/redis";
import { describe, expect, it } from "vitest";
import { LUA_CONSTANTS, luaConstants } from "./luaConstants";
import type { RedisClient } from "./redisClient";

describe.each(redisTargets())("the generated Lua constants on $name", (target) => {
  let redis: RedisClient;
  useRedisTarget(target, (client) => {
    redis = client;
  });

  it("are read by Redis' Lua as TypeScript declares them", async () => {
    const names = Object.keys(LUA_CONSTANTS);
    const script = `${luaConstants()}\nreturn {${names.join(", ")}}`;
    // Keyless, so any node of a cluster runs it; nothing is read or written.
    const values = (await redis.eval(script, 0)) as Array<number | string>;
    expect(values).toHaveLength(names.length);
    expect(Object.fromEntries(names.map((name, i) => [name, values[i]]))).toEqual(LUA_CONSTANTS);
  });
});
