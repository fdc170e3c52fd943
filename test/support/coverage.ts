import { DIMENSIONS, GRANULARITIES } from "../oracle";
import type { QueryCase } from "../workload/queries";
import type { expectationOf } from "./differential";

/** What the random queries must have exercised at least once for the run to mean anything. */
export const REQUIRED_COVERAGE = [
  "endpoint:stats",
  "endpoint:summary",
  "endpoint:dimensions",
  "format:csv",
  "format:json",
  ...GRANULARITIES.map((g) => `granularity:${g}`),
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
  ...DIMENSIONS.map((d) => `group_by:${d}`),
  ...DIMENSIONS.map((d) => `filter:${d}`),
  "filters combined",
  "page past the end",
  "page inside, not first",
  "400",
  // docs/contract.md §7, alone and with the seed's parameters, in zones other than UTC.
  "exclude",
  "exclude with filter",
  "exclude language_model null",
  "granularity:all",
  "group_by:several",
  "group_by:four",
  "sort",
  "sort by a group field",
  "limit",
  "limit with other",
  "(other) row",
  "fill",
  "fill grouped",
  "fill with limit",
  "zero row",
  "§7 alone:exclude",
  "§7 alone:group_by several",
  "§7 alone:granularity all",
  "§7 alone:sort",
  "§7 alone:limit",
  "§7 alone:fill",
  "§7 with format:csv",
  "§7 with page inside",
  "§7 in a zone not UTC",
  "§7 older than 35 days",
  "§7 400",
  "summary exclude",
  "summary exclude with filter",
  "compare:previous_period",
  "compare:previous_year",
  "compare grouped",
  "compare with limit and other",
  "compare with fill",
  "compare with format:csv",
  "compare granularity all",
  "compare in a zone not UTC",
  "§7 alone:compare",
  "summary compare:previous_period",
  "summary compare:previous_year",
  "summary compare with exclude",
  "summary change null",
  // docs/contract.md §9's calendar (its granularities are among GRANULARITIES above), alone and
  // with §7's parameters, in zones other than UTC.
  "week_start:sunday",
  "week_start:monday",
  "week_start:sunday by week",
  "§9 alone",
  "§9 with §7",
  "§9 with compare",
  "§9 with fill",
  "§9 with format:csv",
  "§9 in a zone not UTC",
  "§9 older than 35 days",
  "§9 400",
  "complete on a bucket ended before now",
  "complete on a bucket ending after now",
  // docs/contract.md §9 `include=active_members`, with §7's parameters, in zones other than UTC.
  "active_members",
  "active_members grouped",
  "active_members filtered or excluded",
  "active_members sort",
  "active_members (other) row",
  "active_members (other) fewer than summed",
  "active_members fill",
  "active_members compare",
  "active_members granularity all",
  "active_members with format:csv",
  "active_members in a zone not UTC",
  "active_members older than 35 days",
  "summary active_members",
  "summary active_members compare",
  // Naming include brings complete as §9's calendar does; the two together cut and count alike.
  "active_members with §9's calendar",
  "active_members complete without §9's calendar",
  // docs/contract.md §9 `percentiles`, within 1 % of the exact nearest-rank value.
  "percentiles",
  "percentiles grouped",
  "percentiles filtered or excluded",
  "percentiles with format:csv",
  "percentiles in a zone not UTC",
  "percentiles null",
  "summary percentiles",
] as const;

const BEYOND_SEED = /^(exclude\[|sort$|limit$|other$|fill$|compare$|include$)/;

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
    beyondSeedCoverage(query, answer, nowMs, add);
    section9Coverage(query, answer, nowMs, add);
    activeMembersCoverage(query, answer, nowMs, add);
    percentilesCoverage(query, answer, nowMs, add);
    if (answer && answer.status === 200 && "metrics" in answer) {
      summaryCoverage(query, add);
      if (answer.change && Object.values(answer.change).some((v) => v === null)) add("summary change null");
    }
  });
  return tally;
}

/** What docs/contract.md §7's parameters (and the answers to them) exercised. */
function beyondSeedCoverage(
  query: QueryCase,
  answer: ReturnType<typeof expectationOf> | undefined,
  nowMs: number,
  add: (key: string) => void,
): void {
  const keys = query.pairs.map(([k]) => k);
  const params = new Map(query.pairs);
  const groupBy = params.get("group_by")?.split(",") ?? [];
  const beyond =
    keys.some((k) => BEYOND_SEED.test(k)) || groupBy.length > 1 || params.get("granularity") === "all";
  if (!beyond) return;
  if (answer?.status === 400) add("§7 400");
  if (!(answer && answer.status === 200 && "meta" in answer)) return;
  if (keys.some((k) => k.startsWith("exclude["))) add("exclude");
  if (keys.some((k) => k.startsWith("exclude[")) && keys.some((k) => k.startsWith("filter[")))
    add("exclude with filter");
  if ((params.get("exclude[language_model]") ?? "").split(",").some((i) => i.trim() === "null"))
    add("exclude language_model null");
  if (groupBy.length > 1) add("group_by:several");
  if (groupBy.length === 4) add("group_by:four");
  const sort = params.get("sort");
  if (sort !== undefined) add("sort");
  if (sort?.split(",").some((k) => groupBy.map((d) => d.trim()).includes(k.replace(/^-/, ""))))
    add("sort by a group field");
  if (params.has("limit")) add("limit");
  if (params.has("limit") && params.get("other") === "true") add("limit with other");
  if (answer.rows.some((r) => r.group?.includes("(other)"))) add("(other) row");
  if (params.has("fill")) add("fill");
  if (params.has("fill") && groupBy.length > 0) add("fill grouped");
  if (params.has("fill") && params.has("limit")) add("fill with limit");
  if (answer.rows.some((r) => r.metrics.recording_count.value === 0)) add("zero row");
  // Each parameter as the query's only one of §7 (beside the seed's).
  const used = [
    ["exclude", keys.some((k) => k.startsWith("exclude["))],
    ["group_by several", groupBy.length > 1],
    ["granularity all", params.get("granularity") === "all"],
    ["sort", params.has("sort")],
    ["limit", params.has("limit") || params.has("other")],
    ["fill", params.has("fill")],
    ["compare", params.has("compare")],
  ] as const;
  const alone = used.filter(([, present]) => present);
  if (alone.length === 1 && alone[0]) add(`§7 alone:${alone[0][0]}`);
  if (answer.format === "csv") add("§7 with format:csv");
  if (answer.pagination.page > 1 && answer.pagination.page <= answer.pagination.total_pages)
    add("§7 with page inside");
  if (answer.meta.timezone !== "UTC") add("§7 in a zone not UTC");
  if (Date.parse(answer.meta.start_date) < nowMs - 35 * 86_400_000) add("§7 older than 35 days");
  const compare = params.get("compare");
  if (compare === undefined) return;
  add(`compare:${compare}`);
  if (groupBy.length > 0) add("compare grouped");
  if (params.get("other") === "true") add("compare with limit and other");
  if (params.has("fill")) add("compare with fill");
  if (answer.format === "csv") add("compare with format:csv");
  if (answer.meta.granularity === "all") add("compare granularity all");
  if (answer.meta.timezone !== "UTC") add("compare in a zone not UTC");
}

/** What docs/contract.md §9's calendar (and `complete`, which comes with it) exercised. */
function section9Coverage(
  query: QueryCase,
  answer: ReturnType<typeof expectationOf> | undefined,
  nowMs: number,
  add: (key: string) => void,
): void {
  const params = new Map(query.pairs);
  const weekStart = params.get("week_start");
  const granularity = params.get("granularity");
  if (weekStart === undefined && granularity !== "quarter" && granularity !== "year") return;
  if (answer?.status === 400) add("§9 400");
  if (!(answer && answer.status === 200 && "meta" in answer)) return;
  if (weekStart !== undefined) add(`week_start:${weekStart}`);
  if (weekStart === "sunday" && granularity === "week") add("week_start:sunday by week");
  const keys = query.pairs.map(([k]) => k);
  const section7 =
    keys.some((k) => BEYOND_SEED.test(k)) || (params.get("group_by")?.split(",").length ?? 0) > 1;
  add(section7 ? "§9 with §7" : "§9 alone");
  if (params.has("compare")) add("§9 with compare");
  if (params.has("fill")) add("§9 with fill");
  if (answer.format === "csv") add("§9 with format:csv");
  if (answer.meta.timezone !== "UTC") add("§9 in a zone not UTC");
  if (Date.parse(answer.meta.start_date) < nowMs - 35 * 86_400_000) add("§9 older than 35 days");
  if (answer.rows.some((r) => r.endMs !== undefined && r.endMs < nowMs - 3_600_000))
    add("complete on a bucket ended before now");
  if (answer.rows.some((r) => r.endMs !== undefined && r.endMs > nowMs))
    add("complete on a bucket ending after now");
}

/** What docs/contract.md §9's `include=active_members` (and the answers to it) exercised. */
function activeMembersCoverage(
  query: QueryCase,
  answer: ReturnType<typeof expectationOf> | undefined,
  nowMs: number,
  add: (key: string) => void,
): void {
  const params = new Map(query.pairs);
  if (params.get("include") !== "active_members" || answer?.status !== 200) return;
  if ("metrics" in answer) {
    add("summary active_members");
    if (params.has("compare")) add("summary active_members compare");
    return;
  }
  if (!("meta" in answer)) return;
  add("active_members");
  if (answer.meta.group_by) add("active_members grouped");
  if (query.pairs.some(([k]) => k.startsWith("filter[") || k.startsWith("exclude[")))
    add("active_members filtered or excluded");
  if (params.get("sort")?.includes("active_members")) add("active_members sort");
  const others = answer.rows.filter((r) => r.group?.includes("(other)"));
  if (others.length > 0) add("active_members (other) row");
  // Members of the folded groups overlap: a sum of their counts would be more.
  if (others.some((r) => (r.metrics.active_members?.value ?? 0) < (r.summedMembers ?? 0)))
    add("active_members (other) fewer than summed");
  if (params.has("fill")) add("active_members fill");
  if (params.has("compare")) add("active_members compare");
  if (answer.meta.granularity === "all") add("active_members granularity all");
  if (answer.format === "csv") add("active_members with format:csv");
  if (answer.meta.timezone !== "UTC") add("active_members in a zone not UTC");
  if (Date.parse(answer.meta.start_date) < nowMs - 35 * 86_400_000) add("active_members older than 35 days");
  const granularity = params.get("granularity");
  const calendar = params.has("week_start") || granularity === "quarter" || granularity === "year";
  if (calendar) add("active_members with §9's calendar");
  else if (answer.complete) add("active_members complete without §9's calendar");
}

/** What docs/contract.md §9's `percentiles` (and the answers to it) exercised. */
function percentilesCoverage(
  query: QueryCase,
  answer: ReturnType<typeof expectationOf> | undefined,
  nowMs: number,
  add: (key: string) => void,
): void {
  const params = new Map(query.pairs);
  if (!params.has("percentiles") || answer?.status !== 200) return;
  if ("metrics" in answer) {
    add("summary percentiles");
    return;
  }
  if (!("meta" in answer)) return;
  add("percentiles");
  if (answer.meta.group_by) add("percentiles grouped");
  if (query.pairs.some(([k]) => k.startsWith("filter[") || k.startsWith("exclude[")))
    add("percentiles filtered or excluded");
  if (answer.rows.some((r) => r.group?.includes("(other)"))) add("percentiles (other) row");
  if (params.has("compare")) add("percentiles compare");
  if (answer.format === "csv") add("percentiles with format:csv");
  if (answer.meta.timezone !== "UTC") add("percentiles in a zone not UTC");
  if (Date.parse(answer.meta.start_date) < nowMs - 35 * 86_400_000) add("percentiles older than 35 days");
  const fields = answer.rows.flatMap((r) => Object.entries(r.metrics).filter(([k]) => k.startsWith("p")));
  if (fields.some(([, v]) => v.value === null)) add("percentiles null");
}

/** What docs/contract.md §7's parameters of /stats/summary exercised. */
function summaryCoverage(query: QueryCase, add: (key: string) => void): void {
  const keys = query.pairs.map(([k]) => k);
  const excludes = keys.some((k) => k.startsWith("exclude["));
  if (excludes) add("summary exclude");
  if (excludes && keys.some((k) => k.startsWith("filter["))) add("summary exclude with filter");
  const compare = new Map(query.pairs).get("compare");
  if (compare === undefined) return;
  add(`summary compare:${compare}`);
  if (excludes) add("summary compare with exclude");
}

export function missingCoverage(tally: ReadonlyMap<string, number>): string[] {
  return REQUIRED_COVERAGE.filter((key) => (tally.get(key) ?? 0) === 0);
}
