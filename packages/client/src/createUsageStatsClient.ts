import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./generated/schema";

export interface UsageStatsClientOptions {
  /** The API's origin, e.g. `https://stats.example.com`; empty for the page's own origin. */
  baseUrl?: string;
  /** An `sk-vu-…` access token; sent only as `Authorization: Bearer …`. */
  token: string;
  /** Another fetch (retries, tests); it receives a Request. */
  fetch?: (request: Request) => Promise<Response>;
}

export type UsageStatsClient = Client<paths>;

/**
 * Query parameters as the API reads them: one `name=value` pair each, written by URLSearchParams
 * (so `filter[app_name]` and a comma-separated list travel percent-encoded), undefined left out.
 * openapi-fetch's default would write objects and arrays in OpenAPI styles the API does not use.
 */
export function serializeQuery(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(name, String(value));
  }
  return params.toString();
}

/**
 * A typed client of the three operations (`/api/v1/stats`, `/stats/summary`, `/stats/dimensions`):
 * paths, parameters and answers are those of the API's OpenAPI document. Runs in browsers and Node.
 */
export function createUsageStatsClient({
  baseUrl = "",
  token,
  fetch,
}: UsageStatsClientOptions): UsageStatsClient {
  return createClient<paths>({
    baseUrl,
    headers: { authorization: `Bearer ${token}` },
    querySerializer: serializeQuery,
    // The token is a header, never a cookie or a URL: nothing for a browser to keep or leak.
    credentials: "omit",
    referrerPolicy: "no-referrer",
    ...(fetch ? { fetch } : {}),
  });
}
