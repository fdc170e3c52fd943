import type { QueryPairs } from "../oracle";

/** A query string with every key and value percent-encoded (so `+` stays a plus, `[` a bracket). */
export function queryString(pairs: QueryPairs): string {
  if (pairs.length === 0) return "";
  return `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")}`;
}

export interface HttpReply {
  url: string;
  status: number;
  headers: Headers;
  text: string;
}

export async function httpGet(
  baseUrl: string,
  path: string,
  token: string | undefined,
  query = "",
): Promise<HttpReply> {
  const url = `${baseUrl}${path}${query}`;
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const res = await fetch(url, { headers });
  return { url, status: res.status, headers: res.headers, text: await res.text() };
}

/** Runs `fn` over `items` with at most `limit` in flight, keeping results in order. */
export async function mapConcurrently<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
