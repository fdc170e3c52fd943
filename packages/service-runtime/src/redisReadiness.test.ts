import { EventEmitter } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { createLogger } from "./logger";
import { warnWhenRedisUnfit } from "./redisReadiness";

describe("warnWhenRedisUnfit", () => {
  it("checks on every (re)connection and logs the reasons only when Redis is unfit", async () => {
    const redis = new EventEmitter();
    const logger = createLogger("test", "silent");
    const error = vi.spyOn(logger, "error");
    const check = vi
      .fn()
      .mockResolvedValueOnce({ ok: true, reasons: [] })
      .mockResolvedValueOnce({ ok: false, reasons: ["maxmemory-policy allkeys-lru"] });
    warnWhenRedisUnfit(redis, { check, logger, message: "redis is not fit" });
    expect(check).not.toHaveBeenCalled();

    redis.emit("ready");
    await vi.waitFor(() => expect(check).toHaveBeenCalledTimes(1));
    await Promise.resolve();
    expect(error).not.toHaveBeenCalled();

    redis.emit("ready");
    await vi.waitFor(() =>
      expect(error).toHaveBeenCalledWith({ reasons: ["maxmemory-policy allkeys-lru"] }, "redis is not fit"),
    );
  });
});
