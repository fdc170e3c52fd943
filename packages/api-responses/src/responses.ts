import { z } from "zod";

// The answers of the three operations as the API publishes them (the OpenAPI document's components
// StatsRow, StatsPage, Summary, Dimensions and Problem), each type inferred from its schema.

const statsRowSchema = z
  .object({
    time_bucket: z.string().meta({ description: "Start of the bucket, ISO 8601 with offset" }),
    member_email: z.string().optional().meta({ description: "Present when group_by=member_email" }),
    voice_model: z.string().optional().meta({ description: "Present when group_by=voice_model" }),
    language_model: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "Present when group_by=language_model" }),
    app_name: z.string().optional().meta({ description: "Present when group_by=app_name" }),
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
      granularity: z.string(),
      group_by: z.string().nullable(),
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
export const dimensionsSchema = z
  .object({
    voice_models: z.array(z.string()),
    language_models: z.array(z.string()),
    app_names: z.array(z.string()),
  })
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
