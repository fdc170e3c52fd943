import { ReplyError } from "ioredis";

/**
 * Reply prefixes that mean "try again later": the server is starting, busy with a long script,
 * out of memory, or in a failover. Any other error reply is deterministic: the same call against
 * the same data fails the same way (a script error, a key of the wrong type).
 */
const TRANSIENT_REPLIES = [
  "LOADING",
  "BUSY",
  "OOM",
  "TRYAGAIN",
  "CLUSTERDOWN",
  "MASTERDOWN",
  "READONLY",
  "NOSCRIPT",
];

/**
 * Whether a failed Redis call may succeed if repeated unchanged. Errors that are not replies
 * (connection lost, timeouts, a cluster that cannot route) are transient: the call never reached a
 * verdict. KafkaJS draws the same line with its errors' `retriable`.
 */
export function isTransientRedisError(error: unknown): boolean {
  if (!(error instanceof ReplyError) || !(error instanceof Error)) return true;
  const code = /^[A-Z]+/.exec(error.message)?.[0] ?? "";
  return TRANSIENT_REPLIES.includes(code);
}
