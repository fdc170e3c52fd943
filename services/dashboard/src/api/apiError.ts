import type { Problem } from "./types";

/** An answer other than 2xx, with the problem body the API sent (docs/contract.md §3). */
export class ApiError extends Error {
  readonly status: number;
  readonly problem: Problem;

  constructor(status: number, problem: Problem) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.problem = problem;
  }
}

/** Reads a problem body; an answer that is not one (a proxy's page) still gives a status line. */
export async function problemOf(response: Response): Promise<Problem> {
  try {
    const body: unknown = await response.json();
    if (body && typeof body === "object") return body as Problem;
  } catch {
    // not JSON: fall through
  }
  return { status: response.status, title: response.statusText || `HTTP ${response.status}` };
}

/**
 * Whether the API refused the request over one parameter (a 400 whose problem names it,
 * docs/contract.md §3), as it refuses `percentiles` for an organization counted without sketches.
 */
export const refusesParameter = (error: unknown, parameter: string): boolean =>
  error instanceof ApiError &&
  error.status === 400 &&
  (error.problem.errors ?? []).some((entry) => entry.parameter === parameter);
