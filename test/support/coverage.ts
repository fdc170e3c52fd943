import type { QueryCase } from "../workload/queries";
import type { expectationOf } from "./differential";

/** What the random queries must have exercised at least once for the run to mean anything. */
export const REQUIRED_COVERAGE = [
  "endpoint:stats",
  "endpoint:summary",
  "endpoint:dimensions",
  "format:csv",
  "format:json",
  "granularity:hour",
  "granularity:day",
  "granularity:week",
  "granularity:month",
  "timezone:UTC",
  "timezone:Europe/Berlin",
  "timezone:America/New_York",
  "timezone:Asia/Kolkata",
  "timezone:Asia/Kathmandu",
  "timezone:Australia/Adelaide",
  "timezone:America/St_Johns",
  // Exact beyond the minute retention thanks to quarter-hour blocks (docs/contract.md §2: 400 days).
  "older than 35 days:Asia/Kolkata",
  "older than 35 days:Asia/Kathmandu",
  "older than 35 days:Australia/Adelaide",
  "older than 35 days:America/St_Johns",
  "zone from start_date offset",
  "date-only bound",
  "datetime bound with fraction",
  "offset without colon",
  "group_by:member_email",
  "group_by:voice_model",
  "group_by:language_model",
  "group_by:app_name",
  "filter:member_email",
  "filter:voice_model",
  "filter:language_model",
  "filter:app_name",
  "filters combined",
  "page past the end",
  "page inside, not first",
  "400",
] as const;

/** Tallies the features of the queries compared (printed, and checked against REQUIRED_COVERAGE). */
export function coverageOf(
  queries: readonly QueryCase[],
  expected: readonly ReturnType<typeof expectationOf>[],
  nowMs: number,
): Map<string, number> {
  const tally = new Map<string, number>();
  const add = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
  queries.forEach((query, i) => {
    const answer = expected[i];
    add(`endpoint:${query.endpoint}`);
    const params = new Map(query.pairs);
    if (answer?.status === 400) add("400");
    if (answer && answer.status === 200 && "meta" in answer) {
      add(`format:${answer.format}`);
      add(`granularity:${answer.meta.granularity}`);
      add(`timezone:${answer.meta.timezone}`);
      if (Date.parse(answer.meta.start_date) < nowMs - 35 * 86_400_000) {
        add(`older than 35 days:${answer.meta.timezone}`);
      }
      if (answer.meta.group_by) add(`group_by:${answer.meta.group_by}`);
      const { page, total_pages } = answer.pagination;
      if (page > total_pages) add("page past the end");
      else if (page > 1) add("page inside, not first");
    }
    if (!params.has("timezone") && /[+-]\d{2}:?\d{2}$|Z$/.test(params.get("start_date") ?? ""))
      add("zone from start_date offset");
    for (const key of ["start_date", "end_date"]) {
      const value = params.get(key) ?? "";
      if (/^\d{4}-\d{2}-\d{2}$/.test(value)) add("date-only bound");
      if (/\.\d+/.test(value)) add("datetime bound with fraction");
      if (/T.*[+-]\d{4}$/.test(value)) add("offset without colon");
    }
    const filters = query.pairs.filter(([k]) => k.startsWith("filter["));
    for (const [k] of filters) add(`filter:${k.slice(7, -1)}`);
    if (filters.length > 1) add("filters combined");
  });
  return tally;
}

export function missingCoverage(tally: ReadonlyMap<string, number>): string[] {
  return REQUIRED_COVERAGE.filter((key) => (tally.get(key) ?? 0) === 0);
}
