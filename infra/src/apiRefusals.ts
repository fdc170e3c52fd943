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
 * Why the API's `/readyz` (at `opsUrl`) says it cannot serve, with the way out of the most likely
 * case on a developer's machine (`rebuild`: the command line that runs the rebuild there); "" when
 * it is ready or cannot be reached.
 */
export async function notReadyReasons(opsUrl: string, rebuild = "npm run rebuild"): Promise<string> {
  const res = await fetch(`${opsUrl}/readyz`).catch(() => undefined);
  if (res === undefined || res.ok) return "";
  const { reasons = [] } = (await res.json().catch(() => ({}))) as { reasons?: string[] };
  return (
    `/readyz: ${reasons.join("; ") || `answered ${res.status}`}\n` +
    `If this Redis holds a view counted from another Kafka (an earlier stack's), \`${rebuild}\` ` +
    "counts this stack's topic into it; the README's operations section has the other cases."
  );
}
