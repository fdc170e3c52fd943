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

const statsRowSchema = z
  .object({
    time_bucket: z.string().meta({ description: "Start of the bucket, ISO 8601 with offset" }),
    ...groupFields,
    recording_count: z.number(),
    total_words: z.number(),
    total_duration: z.number().meta({ description: "Milliseconds" }),
    avg_llm_processing_time: z.number().meta({ description: "Milliseconds" }),
    avg_voice_processing_time: z.number().meta({ description: "Milliseconds" }),
    avg_wpm: z.number(),
  })
  .meta({ id: "StatsRow" });

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

/** A JSON page of `GET /api/v1/stats`. */
export const statsPageSchema = z
  .object({
    data: z.array(statsRowSchema),
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
      granularity: z
        .string()
        .meta({ description: "hour, day, week, month, or all (one bucket, the whole range)" }),
      group_by: z.string().nullable().meta({
        description:
          "The group_by dimensions as asked, comma-separated (member_email,app_name); null without",
      }),
      timezone: z.string(),
    }),
  })
  .meta({ id: "StatsPage" });

/** `GET /api/v1/stats/summary`: minutes and seconds, unlike the rows (the seed's note on units). */
export const summarySchema = z
  .object({
    total_recordings: z.number().meta({ description: "Count of recordings in the range" }),
    total_duration_minutes: z.number().meta({ description: "Total recording duration, minutes" }),
    total_words: z.number().meta({ description: "Total words transcribed" }),
    avg_llm_processing_seconds: z
      .number()
      .meta({ description: "Average language-model processing time, seconds" }),
    avg_voice_processing_seconds: z.number().meta({ description: "Average voice processing time, seconds" }),
  })
  .meta({ id: "Summary" });

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
export type StatsRow = z.infer<typeof statsRowSchema>;
export type StatsPage = z.infer<typeof statsPageSchema>;
export type Summary = z.infer<typeof summarySchema>;
export type Dimensions = z.infer<typeof dimensionsSchema>;
export type Problem = z.infer<typeof problemSchema>;
