import { ApiError } from "../api/apiError";
import type { RetryNotice } from "../api/retryPolicy";
import { el } from "./dom";

/** What the page says while it waits to retry a 429 or a 503. */
export function retryMessage(notice: RetryNotice): string {
  const wait = `${notice.waitSeconds} s`;
  return notice.status === 429
    ? `Too many requests for this token: trying again in ${wait}, as the server asked.`
    : `The statistics service is unavailable: trying again in ${wait} (attempt ${notice.attempt + 1}).`;
}

/** A failure in words: a 400 names each parameter the API refused, anything else its detail. */
export function renderFailure(error: unknown, onRetry: () => void): HTMLElement {
  const retry = el("button", { type: "button" }, "Try again");
  retry.addEventListener("click", onRetry);
  if (error instanceof ApiError && error.status === 400) {
    const errors = error.problem.errors ?? [];
    return el(
      "div",
      { class: "failure" },
      el(
        "p",
        {},
        el("strong", {}, "The API refused this view. "),
        errors.length === 0 ? (error.problem.detail ?? "") : null,
      ),
      errors.length > 0
        ? el("ul", {}, ...errors.map((e) => el("li", {}, el("code", {}, e.parameter), `: ${e.message}`)))
        : null,
      el("p", {}, "Change the settings above, or try again."),
      retry,
    );
  }
  const what =
    error instanceof ApiError
      ? `${error.problem.title ?? `HTTP ${error.status}`}: ${error.problem.detail ?? ""}`
      : `Could not reach the service (${error instanceof Error ? error.message : String(error)}).`;
  return el("div", { class: "failure" }, el("p", {}, what), retry);
}
