import { createUsageStatsClient } from "@vu/client";
import { ApiError, problemOf } from "./apiError";
import { createRetryingFetch } from "./retryingFetch";
import type { RetryNotice } from "./retryPolicy";
import type { DimensionsQuery, Problem, StatsPage, StatsQuery, Summary, SummaryQuery } from "./types";

export interface ApiClientOptions {
  /** The API's origin; the dashboard is served by the API, so its own (empty). */
  baseUrl?: string;
  token: string;
  /** Told before each wait for a retry, so the page can say what is happening. */
  onRetry?: (notice: RetryNotice) => void;
  fetch?: (request: Request) => Promise<Response>;
}

export interface CsvFile {
  text: string;
  filename: string;
  /** The page named by `Link: <...>; rel="next"`, null on the last. */
  nextPage: number | null;
}

/** A summary with the instant up to which the view was complete when it answered. */
export interface SummaryAnswer {
  summary: Summary;
  /** `X-Data-As-Of` (docs/contract.md §7): null from an API that does not send it. */
  dataAsOf: string | null;
}

const FILENAME = /filename="([^"]+)"/;
const NEXT_LINK = /<([^>]+)>;\s*rel="next"/;

/** The page number of the API's `rel="next"` link, null without one. */
export function nextPageOf(link: string | null): number | null {
  const target = NEXT_LINK.exec(link ?? "")?.[1];
  if (target === undefined) return null;
  const page = new URL(target, "http://next.invalid").searchParams.get("page");
  return page !== null && /^\d+$/.test(page) ? Number(page) : null;
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The answer's data, or an ApiError carrying the problem the API sent (docs/contract.md §3). */
async function dataOf<T>(answer: Answer<T>): Promise<T> {
  if (answer.response.ok && answer.data !== undefined) return answer.data;
  const problem =
    answer.error && typeof answer.error === "object"
      ? (answer.error as Problem)
      : await problemOf(answer.response);
  throw new ApiError(answer.response.status, problem);
}

/**
 * The three public operations through the typed client (@vu/client), the token only ever in the
 * Authorization header. 429 and 503 are retried (after Retry-After, or with backoff); every other
 * failure is an ApiError carrying the problem body.
 */
export function createApiClient({ baseUrl = "", token, onRetry, fetch: fetchFn }: ApiClientOptions) {
  const client = createUsageStatsClient({
    baseUrl,
    token,
    fetch: createRetryingFetch(fetchFn ?? ((request) => fetch(request)), onRetry),
  });
  return {
    dimensions: async (query?: DimensionsQuery, signal?: AbortSignal) =>
      dataOf(await client.GET("/api/v1/stats/dimensions", { params: { query }, signal })),
    async summary(query: SummaryQuery, signal?: AbortSignal): Promise<SummaryAnswer> {
      const answer = await client.GET("/api/v1/stats/summary", { params: { query }, signal });
      return { summary: await dataOf(answer), dataAsOf: answer.response.headers.get("x-data-as-of") };
    },
    // The operation answers JSON or CSV (format=csv); without `format`, always the JSON page.
    stats: async (query: Omit<StatsQuery, "format">, signal?: AbortSignal): Promise<StatsPage> =>
      (await dataOf(await client.GET("/api/v1/stats", { params: { query }, signal }))) as StatsPage,
    /** One page of `format=csv`, as the API wrote it; `nextPage` follows its Link header. */
    async csv(query: StatsQuery, signal?: AbortSignal): Promise<CsvFile> {
      const answer = await client.GET("/api/v1/stats", {
        params: { query: { ...query, format: "csv" } },
        parseAs: "text",
        headers: { accept: "text/csv" },
        signal,
      });
      const text = await dataOf(answer);
      const disposition = answer.response.headers.get("content-disposition") ?? "";
      return {
        text,
        filename: FILENAME.exec(disposition)?.[1] ?? "usage-stats.csv",
        nextPage: nextPageOf(answer.response.headers.get("link")),
      };
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
