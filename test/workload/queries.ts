import { STATS_METRIC_COLUMNS } from "@vu/api-responses";
import {
  CALENDAR_GRANULARITIES,
  DIMENSIONS,
  type Dimension,
  type QueryPairs,
  SEED_GRANULARITIES,
} from "../oracle";
import type { Random } from "../support/random";
import { generateRange, type RangeContext } from "./queryRanges";
import type { OrgVocabulary } from "./vocabulary";

export type Endpoint = "stats" | "summary" | "dimensions";

/** One query of the differential test: which endpoint, for which organization's token, with what. */
export interface QueryCase {
  endpoint: Endpoint;
  org: string;
  pairs: QueryPairs;
}

function valuesOf(org: OrgVocabulary, dimension: Dimension): string[] {
  switch (dimension) {
    case "member_email":
      return org.members;
    case "voice_model":
      return org.voiceModels;
    case "language_model":
      return org.languageModels.map((m) => m ?? "null");
    case "app_name":
      return org.apps;
  }
}

/** A comma list as people type it: spaces around items, empty items, other cases, unknown values. */
function filterList(org: OrgVocabulary, dimension: Dimension, random: Random): string {
  const items = random.some(valuesOf(org, dimension), 3);
  if (random.chance(0.2)) items.push("no-such-value");
  if (dimension === "member_email" && random.chance(0.5)) items.push((items.shift() ?? "").toUpperCase());
  if (random.chance(0.1)) return random.pick([" , ", ",", ""]);
  return items.map((item) => (random.chance(0.3) ? ` ${item} ` : item)).join(random.chance(0.2) ? ",," : ",");
}

function filterPairs(org: OrgVocabulary, random: Random): Array<[string, string]> {
  if (random.chance(0.45)) return [];
  return random
    .some(DIMENSIONS, 3)
    .map((d): [string, string] => [`filter[${d}]`, filterList(org, d, random)]);
}

/** Parameters broken on purpose, one per query: each must be a 400 naming it (docs/contract.md §3). */
const BROKEN: ReadonlyArray<readonly [string, string]> = [
  ["granularity", "minute"],
  ["group_by", "team"],
  ["page", "0"],
  ["page", "1.5"],
  ["page_size", "1001"],
  ["page_size", ""],
  ["format", "xml"],
  ["granularty", "day"],
  ["filter[team]", "x"],
  ["timezone", "Mars/Olympus"],
  ["timezone", "+24:00"],
  ["start_date", "2026-02-30"],
  ["end_date", "2026-11-01T24:00:00"],
  ["start_date", "2026-11-01 10:00"],
  // docs/contract.md §7
  ["granularity", "decade"],
  ["group_by", "app_name,app_name"],
  ["group_by", "app_name,team"],
  ["group_by", "app_name,"],
  ["sort", "words"],
  ["sort", "+total_words"],
  ["sort", "-total_words,-total_words"],
  ["limit", "0"],
  ["limit", "1001"],
  ["other", "yes"],
  ["other", "true"],
  ["fill", "none"],
  ["exclude[team]", "x"],
  ["compare", "previous_month"],
  // docs/contract.md §9
  ["week_start", "saturday"],
  ["week_start", "Sunday"],
  ["granularity", "Quarter"],
  ["include", "active_member"],
  ["include", "member_emails"],
  ["percentiles", "0"],
  ["percentiles", "100"],
  ["percentiles", "50,50"],
  ["percentiles", "1,2,3,4,5"],
  ["percentiles", "p95"],
  ["percentiles", "9.5"],
  ["percentiles", ""],
];

function breakOne(pairs: Array<[string, string]>, random: Random): Array<[string, string]> {
  const [key, value] = random.pick(BROKEN);
  return [...pairs.filter(([k]) => k !== key), [key, value]];
}

/** `exclude[...]` lists (docs/contract.md §7), written as filters are, on one or two dimensions. */
function excludePairs(org: OrgVocabulary, random: Random): Array<[string, string]> {
  if (random.chance(0.7)) return [];
  return random
    .some(DIMENSIONS, 2)
    .map((d): [string, string] => [`exclude[${d}]`, filterList(org, d, random)]);
}

/** docs/contract.md §7 `compare`, on a third of the queries that carry §7's parameters. */
function comparePairs(random: Random): Array<[string, string]> {
  if (random.chance(0.67)) return [];
  return [["compare", random.pick(["previous_period", "previous_year"])]];
}

/** docs/contract.md §9 `include=active_members`, on a third of the queries that carry §7's parameters. */
function includePairs(random: Random): Array<[string, string]> {
  return random.chance(0.67) ? [] : [["include", "active_members"]];
}

/**
 * docs/contract.md §9 `percentiles`, on a third of the queries that carry §7's parameters: one to
 * four distinct percentiles in any order, the usual ones and any other, a blank now and then.
 */
function percentilePairs(random: Random): Array<[string, string]> {
  if (random.chance(0.67)) return [];
  const usual = [50, 90, 95, 99, 1];
  const picked = new Set<number>();
  const wanted = random.int(1, 4);
  while (picked.size < wanted) picked.add(random.chance(0.7) ? random.pick(usual) : random.int(1, 99));
  const items = [...picked].map((q) => (random.chance(0.1) ? ` ${q}` : String(q)));
  return [["percentiles", items.join(",")]];
}

/** One to four dimensions in a random order, written with a blank now and then. */
function groupByList(random: Random): string {
  const dims = random.some(DIMENSIONS, 4);
  return dims.join(random.chance(0.2) ? ", " : ",");
}

/**
 * docs/contract.md §7's shaping parameters: sort keys (metrics, the grouped fields, §9's
 * active_members when counted, now and then a field the rows lack, which is a 400), a limit with
 * or without other=true, fill=zero.
 */
function shapePairs(
  groupBy: readonly string[],
  granularity: string | undefined,
  activeMembers: boolean,
  random: Random,
) {
  const pairs: Array<[string, string]> = [];
  if (random.chance(0.4)) {
    const counted = activeMembers ? ["active_members", "active_members"] : [];
    const fields = random.chance(0.05)
      ? [...STATS_METRIC_COLUMNS, ...DIMENSIONS, "active_members"]
      : [...STATS_METRIC_COLUMNS, ...groupBy, ...counted];
    const keys = random.some(fields, 3);
    pairs.push(["sort", keys.map((k) => (random.chance(0.6) ? `-${k}` : k)).join(",")]);
  }
  // Counting members, more often a short limit with a rest: the (other) row is where a count of
  // distinct members differs from a sum.
  const cutting = activeMembers && groupBy.length > 0;
  if (random.chance(cutting ? 0.7 : 0.45)) {
    pairs.push(["limit", String(random.pick(cutting ? [1, 1, 2, 3] : [1, 1, 2, 3, 5, 1000]))]);
    if (random.chance(0.8))
      pairs.push(["other", groupBy.length > 0 && random.chance(0.9) ? "true" : "false"]);
  } else if (random.chance(0.03)) {
    pairs.push(["other", "true"]);
  }
  // Hours over months, zero-filled for every group, would only make the run slow.
  if (granularity !== "hour" && random.chance(0.25)) pairs.push(["fill", "zero"]);
  return pairs;
}

/**
 * A random query: endpoint, organization, range (see queryRanges), granularity, grouping, filters,
 * paging inside and past the end, JSON or CSV; about 4% carry one invalid parameter. Half the
 * /stats and /stats/summary queries add docs/contract.md §7's parameters and §9's
 * `include=active_members` and `percentiles` (the other half are what a seed client sends); a third of /stats
 * queries add §9's calendar (quarters, years, week_start), with or without §7's and `include`.
 */
export function generateQuery(orgs: readonly OrgVocabulary[], ctx: RangeContext, random: Random): QueryCase {
  const org = random.pick(orgs);
  const roll = random.float();
  const endpoint: Endpoint = roll < 0.78 ? "stats" : roll < 0.96 ? "summary" : "dimensions";
  if (endpoint === "dimensions") return { endpoint, org: org.id, pairs: [] };

  const beyondSeed = random.chance(0.5);
  // docs/contract.md §9's calendar on a third of /stats queries, alone or with §7's parameters.
  const section9 = endpoint === "stats" && random.chance(0.33);
  const calendar = endpoint === "stats" && random.chance(0.85) ? random.pick(SEED_GRANULARITIES) : undefined;
  const granularity =
    section9 && random.chance(0.45)
      ? random.pick(CALENDAR_GRANULARITIES)
      : beyondSeed && random.chance(0.2)
        ? "all"
        : calendar;
  const pairs: Array<[string, string]> = [
    ...generateRange(granularity === "all" ? undefined : granularity, ctx, random).pairs,
  ];
  pairs.push(...filterPairs(org, random));
  if (endpoint === "stats") {
    if (granularity !== undefined) pairs.push(["granularity", granularity]);
    // Sunday weeks mostly on weekly queries; any value of week_start asks for complete.
    if (section9 && (granularity === "week" || random.chance(0.4)))
      pairs.push(["week_start", random.chance(0.75) ? "sunday" : "monday"]);
    let groupBy: string[] = [];
    if (random.chance(0.55)) {
      const list = beyondSeed && random.chance(0.4) ? groupByList(random) : random.pick(DIMENSIONS);
      pairs.push(["group_by", list]);
      groupBy = list.split(",").map((d) => d.trim());
    }
    if (beyondSeed) {
      const included = includePairs(random);
      pairs.push(
        ...excludePairs(org, random),
        ...shapePairs(groupBy, granularity, included.length > 0, random),
        ...comparePairs(random),
        ...included,
        ...percentilePairs(random),
      );
    }
    // Small pages of shaped answers, so that paging through them is exercised too.
    if (beyondSeed && random.chance(0.2)) {
      pairs.push(["page_size", String(random.int(1, 3))], ["page", "2"]);
    } else {
      if (random.chance(0.6)) pairs.push(["page_size", String(random.pick([1, 2, 3, 7, 25, 200, 1000]))]);
      if (random.chance(0.35)) pairs.push(["page", String(random.pick([1, 2, 3, 5, 40, 9_999]))]);
    }
    if (random.chance(0.3)) pairs.push(["format", "csv"]);
    else if (random.chance(0.1)) pairs.push(["format", "json"]);
  } else if (beyondSeed) {
    pairs.push(
      ...excludePairs(org, random),
      ...comparePairs(random),
      ...includePairs(random),
      ...percentilePairs(random),
    );
  }
  if (random.chance(0.04)) return { endpoint, org: org.id, pairs: breakOne(pairs, random) };
  // Parameter order never matters.
  return { endpoint, org: org.id, pairs: random.chance(0.3) ? pairs.reverse() : pairs };
}

/** Draws until the oracle can compare the query exactly (its edges on the kept grid). */
export function generateComparable(
  orgs: readonly OrgVocabulary[],
  ctx: RangeContext,
  random: Random,
  comparable: (query: QueryCase) => boolean,
): QueryCase {
  for (let attempt = 0; attempt < 200; attempt++) {
    const query = generateQuery(orgs, ctx, random);
    if (comparable(query)) return query;
  }
  throw new Error("query generator: 200 draws in a row were not comparable; the generator is off");
}

/**
 * Moves a paged query's `page` to a random page between the first and one past the last, now that
 * the oracle has said how many pages there are (drawn blind, most pages would be past the end).
 */
export function retargetPage(query: QueryCase, totalPages: number, random: Random): QueryCase {
  if (!query.pairs.some(([key]) => key === "page") || random.chance(0.3)) return query;
  const page = String(random.int(1, totalPages + 1));
  return {
    ...query,
    pairs: query.pairs.map(([key, value]) => [key, key === "page" ? page : value] as const),
  };
}
