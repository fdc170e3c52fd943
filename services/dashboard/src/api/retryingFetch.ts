import { type RetryNotice, retryDelaySeconds } from "./retryPolicy";

const sleep = (ms: number, signal: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/**
 * A fetch for the typed client that retries 429 (after Retry-After) and 503 (with backoff), telling
 * the page before each wait; any other answer, and the last one, goes back to the client as it is.
 */
export function createRetryingFetch(
  fetchFn: (request: Request) => Promise<Response>,
  onRetry?: (notice: RetryNotice) => void,
): (request: Request) => Promise<Response> {
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      // A GET has no body, so a clone is the same request again.
      const response = await fetchFn(request.clone());
      const wait = retryDelaySeconds(response.status, response.headers.get("retry-after"), attempt);
      if (wait === null) return response;
      await response.body?.cancel();
      onRetry?.({ status: response.status as 429 | 503, waitSeconds: wait, attempt });
      await sleep(wait * 1000, request.signal);
    }
  };
}
