import { DIMENSIONS, type Dimension } from "@vu/events";
import { z } from "zod";

// The answers of the three operations as the API publishes them (the OpenAPI document's components
// StatsRow, StatsPage, Summary, Dimensions and Problem), each type inferred from its schema.

/** The dimension that can be null in a row: recordings without a language model. */
type NullableDimension = "language_model";
type GroupField<D extends Dimension> = z.ZodOptional<
  D extends NullableDimension ? z.ZodNullable<z.ZodString> : z.ZodString
>;

/** A grouped row's field per dimension (events' DIMENSIONS, in their order). */
const groupFields = Object.fromEntries(
  DIMENSIONS.map((d) => [
    d,
    (d === "language_model" ? z.string().nullable() : z.string()).optional().meta({
      description: `Present when group_by names ${d}; "(other)" in the row that holds what limit cut (other=true)`,
    }),
  ]),
) as { [D in Dimension]: GroupField<D> };

const statsRowSchema = z.object({
  time_bucket: z.string().meta({ description: "Start of the bucket, ISO 8601 with offset" }),
  ...groupFields,
  recording_count: z.number(),
  total_words: z.number(),
  total_duration: z.number().meta({ description: "Milliseconds" }),
  avg_llm_processing_time: z.number().meta({ description: "Milliseconds" }),
  avg_voice_processing_time: z.number().meta({ description: "Milliseconds" }),
  avg_wpm: z.number(),
});

/**
 * docs/contract.md §7 `compare`: a row's `previous_<metric>`, the metric of the same group in the
 * paired bucket of the previous range; present only when compare is asked.
 */
const previousFields = (metrics: readonly string[]) =>
  Object.fromEntries(
    metrics.map((m) => [
      `previous_${m}`,
      z
        .number()
        .optional()
        .meta({
          description: `With compare: ${m} of the same group in the paired bucket of the previous range`,
        }),
    ]),
  );

/** A row's metric fields: the numbers, as opposed to its bucket and group fields. */
export type StatsMetricColumn = {
  [K in keyof z.infer<typeof statsRowSchema>]-?: z.infer<typeof statsRowSchema>[K] extends number ? K : never;
}[keyof z.infer<typeof statsRowSchema>];

/**
 * The metric columns in their published order (docs/contract.md §5: JSON fields, CSV columns), read off
 * the row schema so that the order is written once.
 */
export const STATS_METRIC_COLUMNS = Object.entries(statsRowSchema.shape)
  .filter(([, schema]) => schema instanceof z.ZodNumber)
  .map(([column]) => column) as readonly StatsMetricColumn[];

/**
 * docs/contract.md §9 `include=active_members`: the field a row (and the summary) gains, after the
 * metrics; with `compare`, `previous_active_members` after the previous metrics.
 */
export const ACTIVE_MEMBERS_FIELD = "active_members";
export const PREVIOUS_ACTIVE_MEMBERS_FIELD = `previous_${ACTIVE_MEMBERS_FIELD}` as const;

/**
 * docs/contract.md §9 `percentiles=50,95,99`: the most percentiles one request names, and the
 * fields each adds (per percentile, the voice time's, then the LLM time's): `/stats` rows in
 * milliseconds, the summary in seconds; null where no recording has the time.
 */
export const MAX_PERCENTILES = 4;
export const PERCENTILE_TIMES = ["voice", "llm"] as const;
export type PercentileTime = (typeof PERCENTILE_TIMES)[number];
export type PercentileRowField = `p${number}_${PercentileTime}_processing_time`;
export type PercentileSummaryField = `p${number}_${PercentileTime}_processing_seconds`;
export const percentileRowField = (q: number, time: PercentileTime): PercentileRowField =>
  `p${q}_${time}_processing_time`;
export const percentileSummaryField = (q: number, time: PercentileTime): PercentileSummaryField =>
  `p${q}_${time}_processing_seconds`;
/** The names the fields above match (JSON Schema `patternProperties`): q from 1 to 99. */
const PERCENTILE_Q = "(?:[1-9]|[1-9][0-9])";
const percentileFieldsSchema = (unit: "time" | "seconds", description: string) => ({
  patternProperties: {
    [`^p${PERCENTILE_Q}_(?:${PERCENTILE_TIMES.join("|")})_processing_${unit}$`]: {
      type: ["number", "null"],
      description,
    },
  },
});
/** Adds the percentile fields' pattern to an object's generated JSON Schema. */
const withPercentileFields =
  (unit: "time" | "seconds", description: string) =>
  ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
    Object.assign(jsonSchema, percentileFieldsSchema(unit, description));
  };
type PercentileRowFields = { [K in PercentileRowField]?: number | null };
type PercentileSummaryFields = { [K in PercentileSummaryField]?: number | null };

const activeMembersFields = {
  [ACTIVE_MEMBERS_FIELD]: z.number().optional().meta({
    description:
      "With include=active_members: how many distinct members have at least one recording in the row (the (other) row: in the groups it holds, each member once)",
  }),
};

/**
 * docs/contract.md §9: whether a row's bucket can still grow, sent last in every row when the
 * request names any of §9's parameters of /stats.
 */
const completeField = {
  complete: z.boolean().optional().meta({
    description:
      "Sent when the request has week_start, granularity=quarter|year, include or percentiles: false when the row's bucket (its part of the range) ends after X-Data-As-Of, so it may still grow; true when it ends at or before it. Without X-Data-As-Of every row is false.",
  }),
};

/**
 * The row with its `previous_<metric>` fields (docs/contract.md §7 `compare`), in the metrics'
 * order, docs/contract.md §9's `active_members` and `previous_active_members`, and `complete` (§9) last.
 */
const comparedRowSchema = statsRowSchema
  .extend(activeMembersFields)
  .extend(
    previousFields(STATS_METRIC_COLUMNS) as {
      [K in StatsMetricColumn as `previous_${K}`]: z.ZodOptional<z.ZodNumber>;
    },
  )
  .extend({
    [PREVIOUS_ACTIVE_MEMBERS_FIELD]: z.number().optional().meta({
      description:
        "With include=active_members and compare: active_members of the same group in the paired bucket of the previous range",
    }),
  })
  .extend(completeField)
  .meta({
    id: "StatsRow",
    override: withPercentileFields(
      "time",
      "With percentiles=q,...: p<q>_voice_processing_time and p<q>_llm_processing_time, milliseconds, after the metrics (before active_members): within 1 % of the exact nearest-rank percentile q of the row's recordings that have the time; null when none has it",
    ),
  });

/** A `previous_<metric>` field of a compared row. */
export type PreviousMetricColumn = `previous_${StatsMetricColumn}`;
export const PREVIOUS_METRIC_COLUMNS = STATS_METRIC_COLUMNS.map(
  (column): PreviousMetricColumn => `previous_${column}`,
);

/** A JSON page of `GET /api/v1/stats`. */
export const statsPageSchema = z
  .object({
    data: z.array(comparedRowSchema),
    pagination: z.object({
      page: z.number(),
      page_size: z.number(),
      total_rows: z.number(),
      total_pages: z.number(),
      count: z.number(),
    }),
    meta: z.object({
      start_date: z.string(),
      end_date: z.string(),
      granularity: z.string().meta({
        description: "hour, day, week, month, quarter, year, or all (one bucket, the whole range)",
      }),
      group_by: z.string().nullable().meta({
        description:
          "The group_by dimensions as asked, comma-separated (member_email,app_name); null without",
      }),
      timezone: z.string(),
      compare: z.enum(["previous_period", "previous_year"]).optional().meta({
        description: "With compare: what the rows' previous_<metric> fields are taken from",
      }),
      previous_start_date: z
        .string()
        .optional()
        .meta({ description: "With compare: the previous range's start" }),
      previous_end_date: z
        .string()
        .optional()
        .meta({ description: "With compare: the previous range's end (exclusive)" }),
    }),
  })
  .meta({ id: "StatsPage" });

/** `GET /api/v1/stats/summary`: minutes and seconds, unlike the rows (the seed's note on units). */
const summaryFieldsSchema = z.object({
  total_recordings: z.number().meta({ description: "Count of recordings in the range" }),
  total_duration_minutes: z.number().meta({ description: "Total recording duration, minutes" }),
  total_words: z.number().meta({ description: "Total words transcribed" }),
  avg_llm_processing_seconds: z
    .number()
    .meta({ description: "Average language-model processing time, seconds" }),
  avg_voice_processing_seconds: z.number().meta({ description: "Average voice processing time, seconds" }),
  [ACTIVE_MEMBERS_FIELD]: z.number().optional().meta({
    description:
      "With include=active_members: how many distinct members have at least one recording in the range",
  }),
});

/**
 * docs/contract.md §7 `compare`: each field's relative change, null where the previous value is 0;
 * `active_members` only when asked (§9).
 */
const summaryChangeSchema = z
  .object(
    Object.fromEntries(
      Object.entries(summaryFieldsSchema.shape).map(([k, field]) => [
        k,
        field instanceof z.ZodOptional ? z.number().nullable().optional() : z.number().nullable(),
      ]),
    ) as {
      [K in keyof typeof summaryFieldsSchema.shape]: (typeof summaryFieldsSchema.shape)[K] extends z.ZodOptional
        ? z.ZodOptional<z.ZodNullable<z.ZodNumber>>
        : z.ZodNullable<z.ZodNumber>;
    },
  )
  .meta({
    id: "SummaryChange",
    description:
      "(current − previous) ÷ previous per field, from the exact values, rounded to 3 decimals (halves away from zero); null where the previous value is 0",
  });

export const summarySchema = summaryFieldsSchema
  .extend({
    previous: summaryFieldsSchema
      .optional()
      .meta({ description: "With compare: the same fields for the previous range" }),
    change: summaryChangeSchema.optional(),
  })
  .meta({
    id: "Summary",
    // Not in `previous` nor `change`: percentiles are the range's only.
    override: withPercentileFields(
      "seconds",
      "With percentiles=q,...: p<q>_voice_processing_seconds and p<q>_llm_processing_seconds, seconds, after the seed's fields (before active_members): within 1 % of the exact nearest-rank percentile q of the range's recordings that have the time; null when none has it",
    ),
  });

/** `GET /api/v1/stats/dimensions`. */
type ListedDimension = Exclude<Dimension, "member_email">;
/** Every dimension but the members', whose addresses are not listed (seed: `/stats/dimensions`). */
const LISTED_DIMENSIONS = DIMENSIONS.filter((d): d is ListedDimension => d !== "member_email");

export const dimensionsSchema = z
  .object(
    Object.fromEntries(LISTED_DIMENSIONS.map((d) => [`${d}s`, z.array(z.string())])) as {
      [D in ListedDimension as `${D}s`]: z.ZodArray<z.ZodString>;
    },
  )
  .meta({
    id: "Dimensions",
    description: "Distinct values ever seen for the organization, ascending; no null.",
  });

/** Every error answer (`application/problem+json`), with the 400's parameter list (docs/contract.md §3). */
export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number(),
    detail: z.string(),
    errors: z.array(z.object({ parameter: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details" });

/** A row of `/stats`; a grouped row carries the group's value under the dimension's name. */
export type StatsRow = z.infer<typeof comparedRowSchema> & PercentileRowFields;
export type StatsPage = z.infer<typeof statsPageSchema>;
export type Summary = z.infer<typeof summarySchema> & PercentileSummaryFields;
/** The summary's numbers alone (also its `previous`, which never has percentiles). */
export type SummaryFields = z.infer<typeof summaryFieldsSchema> & PercentileSummaryFields;
export type SummaryChange = z.infer<typeof summaryChangeSchema>;
export type Dimensions = z.infer<typeof dimensionsSchema>;
export type Problem = z.infer<typeof problemSchema>;
