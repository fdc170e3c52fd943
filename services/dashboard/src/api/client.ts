import { ApiError, problemOf } from "./apiError";
import { type RetryNotice, retryDelaySeconds } from "./retryPolicy";
import type { Dimensions, StatsPage, Summary } from "./types";

export interface ApiClientOptions {
  /** The API's base path; the dashboard is served by the API, so the same origin. */
  baseUrl?: string;
  token: string;
  /** Told before each wait for a retry, so the page can say what is happening. */
  onRetry?: (notice: RetryNotice) => void;
  fetch?: typeof fetch;
}

export interface CsvFile {
  text: string;
  filename: string;
  /** The URL of the next page (`Link: <...>; rel="next"`), null on the last. */
  next: string | null;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

const FILENAME = /filename="([^"]+)"/;
const NEXT_LINK = /<([^>]+)>;\s*rel="next"/;

/**
 * The three public operations, with the token only ever in the Authorization header. 429 and 503
 * are retried (after Retry-After, or with backoff); every other failure is an ApiError carrying
 * the problem body.
 */
export function createApiClient({
  baseUrl = "/api/v1",
  token,
  onRetry,
  fetch: fetchFn = fetch,
}: ApiClientOptions) {
  async function request(url: string, accept: string, signal?: AbortSignal): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      const response = await fetchFn(url, {
        headers: { authorization: `Bearer ${token}`, accept },
        // The token is a header, never a cookie or a URL: nothing for the browser to remember.
        credentials: "omit",
        cache: "no-store",
        referrerPolicy: "no-referrer",
        ...(signal ? { signal } : {}),
      });
      if (response.ok) return response;
      const wait = retryDelaySeconds(response.status, response.headers.get("retry-after"), attempt);
      if (wait === null) throw new ApiError(response.status, await problemOf(response));
      await response.body?.cancel();
      onRetry?.({ status: response.status as 429 | 503, waitSeconds: wait, attempt });
      await sleep(wait * 1000, signal);
    }
  }
  const url = (path: string, params?: URLSearchParams) =>
    `${baseUrl}${path}${params && params.size > 0 ? `?${params}` : ""}`;
  const json = async <T>(path: string, params?: URLSearchParams, signal?: AbortSignal): Promise<T> =>
    (await (await request(url(path, params), "application/json", signal)).json()) as T;

  return {
    dimensions: (signal?: AbortSignal) => json<Dimensions>("/stats/dimensions", undefined, signal),
    summary: (params: URLSearchParams, signal?: AbortSignal) =>
      json<Summary>("/stats/summary", params, signal),
    stats: (params: URLSearchParams, signal?: AbortSignal) => json<StatsPage>("/stats", params, signal),
    /** One page of `format=csv`, as the API wrote it; `next` follows its Link header. */
    async csv(pageUrl: string | URLSearchParams, signal?: AbortSignal): Promise<CsvFile> {
      const target = typeof pageUrl === "string" ? pageUrl : url("/stats", pageUrl);
      const response = await request(target, "text/csv", signal);
      const filename =
        FILENAME.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "usage-stats.csv";
      const next = NEXT_LINK.exec(response.headers.get("link") ?? "")?.[1] ?? null;
      return { text: await response.text(), filename, next };
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
