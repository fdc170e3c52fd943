/**
 * What a script waiting on the query API (`npm start`) says when the API does not answer as hoped:
 * the API's own reasons, not the connection refused while it was starting.
 */

/** An answer that is not 2xx, as `the API answered <status>: <detail>` (its problem document, docs/contract.md §4). */
export async function refusalOf(res: Response): Promise<string> {
  const problem = (await res.json().catch(() => ({}))) as { title?: string; detail?: string };
  return `the API answered ${res.status}: ${problem.detail ?? problem.title ?? res.statusText}`;
}

/**
 * The worker's reason when the topic is not the one the view counts (ingest-worker's
 * topicIdentity.ts): on a developer's machine, a Redis that kept an earlier stack's view.
 */
const ANOTHER_TOPIC = /is not the topic the view counts/;

/** How long the script waits for /readyz: it is already failing, and must not hang there. */
const READYZ_TIMEOUT_MS = 5_000;

/**
 * Why the API's `/readyz` (at `opsUrl`) says it cannot serve; when the view is another topic's,
 * with `rebuild`, the command lines that count this stack's topic instead. "" when it is ready or
 * does not answer.
 */
export async function notReadyReasons(opsUrl: string, rebuild: string): Promise<string> {
  const res = await fetch(`${opsUrl}/readyz`, { signal: AbortSignal.timeout(READYZ_TIMEOUT_MS) }).catch(
    () => undefined,
  );
  if (res === undefined || res.ok) return "";
  const { reasons = [] } = (await res.json().catch(() => ({}))) as { reasons?: string[] };
  const said = `/readyz: ${reasons.join("; ") || `answered ${res.status}`}`;
  if (!reasons.some((reason) => ANOTHER_TOPIC.test(reason))) return said;
  return (
    `${said}\nThis Redis holds a view counted from another Kafka (an earlier stack's data directory). ` +
    `To count this stack's topic instead: ${rebuild}`
  );
}
