import type { RedisClient } from "../redis/redisClient";
import { StoreError } from "../storeError";

/** A read that Redis did not answer: worth trying again. */
export function unavailable(cause: unknown, org?: string): StoreError {
  return new StoreError("reading rollups from Redis failed", { retriable: true, cause, context: { org } });
}

/** Runs a pipeline or a MULTI; any failed command fails the read. */
export async function execute(batch: ReturnType<RedisClient["multi"]>, org: string): Promise<unknown[]> {
  let replies: Array<[Error | null, unknown]> | null;
  try {
    replies = await batch.exec();
  } catch (cause) {
    throw unavailable(cause, org);
  }
  if (replies === null) throw unavailable(new Error("pipeline was not executed"), org);
  const failed = replies.find(([error]) => error !== null);
  if (failed) throw unavailable(failed[0], org);
  return replies.map(([, reply]) => reply);
}
