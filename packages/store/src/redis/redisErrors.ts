import { ReplyError } from "ioredis";

/**
 * Reply prefixes that mean "try again later": the server is starting, busy with a long script,
 * out of memory, or in a failover. Any other error reply is deterministic: the same call against
 * the same data fails the same way (a script error, a key of the wrong type).
 */
const TRANSIENT_REPLIES = ["LOADING", "BUSY", "OOM", "TRYAGAIN", "CLUSTERDOWN", "MASTERDOWN", "NOSCRIPT"];
/**
 * Replies of a Redis that refuses writes for operational reasons, whatever the data: a failed
 * snapshot (MISCONF), too few replicas, a replica or a failover in progress, credentials or ACLs
 * changed under the client. They last until an operator or the server acts: the worker waits and
 * retries (and says so in readiness and its logs); it never blames a recording for them.
 */
const OPERATIONAL_REFUSALS = ["MISCONF", "NOREPLICAS", "READONLY", "NOAUTH", "NOPERM", "WRONGPASS"];

const replyCode = (error: Error) => /^[A-Z]+/.exec(error.message)?.[0] ?? "";

/** The reply code of an operational refusal anywhere in `error`'s causes, else undefined. */
export function refusalCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof ReplyError) {
      const code = replyCode(e);
      return OPERATIONAL_REFUSALS.includes(code) ? code : undefined;
    }
  }
  return undefined;
}

/**
 * Whether a failed Redis call may succeed if repeated unchanged. Errors that are not replies
 * (connection lost, timeouts, a cluster that cannot route) are transient: the call never reached a
 * verdict. KafkaJS draws the same line with its errors' `retriable`.
 */
export function isTransientRedisError(error: unknown): boolean {
  if (!(error instanceof ReplyError) || !(error instanceof Error)) return true;
  const code = replyCode(error);
  return TRANSIENT_REPLIES.includes(code) || OPERATIONAL_REFUSALS.includes(code);
}
