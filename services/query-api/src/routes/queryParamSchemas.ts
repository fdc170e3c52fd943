import "zod-openapi";
import { ACTIVE_MEMBERS_FIELD, MAX_PERCENTILES } from "@vu/api-responses";
import { DIMENSIONS, type Dimension } from "@vu/events";
import { z } from "zod";
import { COMPARE_KINDS } from "../planner";
import type { RawFilters } from "../query/filters";

/** Query parameters shared by `/stats` and `/stats/summary` (seed "Shared query parameters"). */
const dateParam = (description: string) =>
  z
    .string()
    .optional()
    .meta({
      description: `${description} ISO 8601: YYYY-MM-DD, optionally Thh:mm:ss, fractional seconds and a zone (Z or ±hh:mm, colon optional).`,
      example: "2026-11-01",
    });

const listParam = (description: string, example: string) =>
  z
    .string()
    .optional()
    .meta({ description: `${description} Comma-separated; a row matches any item.`, example });

export const rangeParams = {
  start_date: dateParam("Start of the range (inclusive). Default: 7 days before end_date."),
  end_date: dateParam("End of the range; a date-only value includes that whole day. Default: now."),
  timezone: z.string().optional().meta({
    description:
      "IANA zone or ±hh:mm offset for reading dates and cutting buckets. Default: start_date's offset, else UTC.",
    example: "Europe/Berlin",
  }),
};

/** What the OpenAPI document says of each dimension's filter; the parameters derive from DIMENSIONS. */
const FILTER_DOCS: Record<Dimension, { description: string; example: string }> = {
  member_email: {
    description: "Member e-mail addresses (case-insensitive).",
    example: "ada@example.com,bob@example.com",
  },
  voice_model: { description: "Voice models.", example: "whisper-large" },
  language_model: {
    description: "Language models; the item `null` selects recordings without one.",
    example: "gpt-4o,null",
  },
  app_name: { description: "Application names.", example: "Zoom" },
};

type FilterParam<D extends Dimension> = `filter[${D}]`;
const filterParam = <D extends Dimension>(dimension: D): FilterParam<D> => `filter[${dimension}]`;

export const filterParams = Object.fromEntries(
  DIMENSIONS.map((d) => [filterParam(d), listParam(FILTER_DOCS[d].description, FILTER_DOCS[d].example)]),
) as { [D in Dimension as FilterParam<D>]: ReturnType<typeof listParam> };

type ExcludeParam<D extends Dimension> = `exclude[${D}]`;
const excludeParam = <D extends Dimension>(dimension: D): ExcludeParam<D> => `exclude[${dimension}]`;

/** docs/contract.md §7: `exclude[<dimension>]`, the filters' lists read as NOT IN. */
export const excludeParams = Object.fromEntries(
  DIMENSIONS.map((d) => [
    excludeParam(d),
    z
      .string()
      .optional()
      .meta({
        description: `Leaves out recordings whose value is one of these (NOT IN), ANDed with the filters. ${FILTER_DOCS[d].description} Comma-separated.`,
        example: FILTER_DOCS[d].example,
      }),
  ]),
) as { [D in Dimension as ExcludeParam<D>]: z.ZodOptional<z.ZodString> };

export type ExcludeQuery = { [K in keyof typeof excludeParams]?: string | undefined };

export function rawExclusions(query: ExcludeQuery): RawFilters {
  return Object.fromEntries(DIMENSIONS.map((d) => [d, query[excludeParam(d)]]));
}

/** A whole number in a query string, without the surprises of coercion ("", "1e3", " 7"). */
export const intParam = (fallback: number, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .default(fallback)
    .meta({ override: { type: "integer", minimum: min, maximum: max, default: fallback } });

/** An optional whole number, as intParam without a default. */
export const optionalIntParam = (min: number, max: number, description: string) =>
  z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .optional()
    .meta({ override: { type: "integer", minimum: min, maximum: max, description } });

export type FilterQuery = { [K in keyof typeof filterParams]?: string | undefined };

export function rawFilters(query: FilterQuery): RawFilters {
  return Object.fromEntries(DIMENSIONS.map((d) => [d, query[filterParam(d)]]));
}

/** docs/contract.md §9 `include`, on /stats and /stats/summary alike: what the answer adds. */
export const includeParam = z.enum([ACTIVE_MEMBERS_FIELD]).optional().meta({
  description:
    "`active_members`: each row (on /stats/summary, the summary) gains active_members, the exact number of distinct members with at least one recording in it; with compare, previous_active_members too (the summary: in previous and change). On /stats, naming it adds complete to every row.",
});

/** docs/contract.md §7 `compare`, on /stats and /stats/summary alike. */
export const compareParam = z.enum(COMPARE_KINDS).optional().meta({
  description:
    "Also answers for the previous range: previous_period ends where the range starts and is as long on the wall clock; previous_year is one calendar year earlier in the query zone. /stats rows gain previous_<metric> (the same group in the paired bucket); the summary gains previous and change.",
});

/**
 * docs/contract.md §9 `percentiles=50,95,99`, on /stats and /stats/summary alike: up to
 * MAX_PERCENTILES distinct whole numbers from 1 to 99, in any order; answered in ascending order.
 */
export const percentilesParam = z
  .string()
  .transform((text, ctx): number[] => {
    const items = text.split(",").map((item) => item.trim());
    const bad = items.find((item) => !/^\d{1,2}$/.test(item) || Number(item) < 1);
    if (bad !== undefined) {
      ctx.addIssue({
        code: "custom",
        message: `must be whole numbers from 1 to 99, comma-separated: ${JSON.stringify(bad)} is not one`,
      });
      return z.NEVER;
    }
    if (items.length > MAX_PERCENTILES) {
      ctx.addIssue({
        code: "custom",
        message: `names ${items.length} percentiles; at most ${MAX_PERCENTILES}`,
      });
      return z.NEVER;
    }
    const values = items.map(Number);
    if (new Set(values).size !== values.length) {
      ctx.addIssue({ code: "custom", message: "names a percentile twice" });
      return z.NEVER;
    }
    return values.sort((a, b) => a - b);
  })
  .optional()
  .meta({
    override: {
      type: "string",
      description: `Up to ${MAX_PERCENTILES} whole numbers from 1 to 99, comma-separated. /stats rows gain p<q>_voice_processing_time and p<q>_llm_processing_time (milliseconds), the summary p<q>_voice_processing_seconds and p<q>_llm_processing_seconds, in ascending q after the metrics: within 1 % of the exact nearest-rank percentile of the recordings that have the time, null when none has it. Not compared (no previous_ fields). On /stats, naming it adds complete to every row. Only where the deployment keeps percentile sketches for every recording of the organization; else a 400 naming percentiles.`,
      example: "50,95,99",
    },
  });
