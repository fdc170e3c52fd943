import type { Logger } from "pino";

/** What the check reports: `redisHealth(redis)` of @vu/store returns it. */
export interface RedisFitness {
  ok: boolean;
  reasons: string[];
}

export interface WarnWhenRedisUnfitOptions {
  check: () => Promise<RedisFitness>;
  logger: Logger;
  /** The error logged with the reasons: what the service cannot do with this Redis. */
  message: string;
}

/**
 * On every (re)connection, says loudly when this Redis could lose data (an evicting policy, a node
 * that does not answer); /readyz says it too. Takes the check rather than calling the store's:
 * this package does not depend on the store.
 */
export function warnWhenRedisUnfit(
  redis: { on(event: "ready", listener: () => void): unknown },
  { check, logger, message }: WarnWhenRedisUnfitOptions,
): void {
  redis.on("ready", () => {
    void check().then(({ ok, reasons }) => {
      if (!ok) logger.error({ reasons }, message);
    });
  });
}
