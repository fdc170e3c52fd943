import "zod-openapi";
import { z } from "zod";
import { authOf } from "../http/authenticate";
import { querySummary } from "../query/statsQuery";
import { filterParams, rangeParams, rawFilters } from "./queryParamSchemas";
import { type Register, withQuery } from "./routeDeps";

export const SUMMARY_PATH = "/api/v1/stats/summary";

export const summaryQuerySchema = z.object({ ...rangeParams, ...filterParams }).strict();

export const summaryResponseSchema = z
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

export type SummaryResponse = z.infer<typeof summaryResponseSchema>;

export const registerV1StatsSummary: Register = (router, deps) => {
  router.get(
    SUMMARY_PATH,
    withQuery(summaryQuerySchema, async (query, _req, res) => {
      const { summary } = await querySummary(
        authOf(res.locals).org,
        {
          startDate: query.start_date,
          endDate: query.end_date,
          timezone: query.timezone,
          filters: rawFilters(query),
        },
        deps,
      );
      const body: SummaryResponse = summary;
      res.json(body);
    }),
  );
};
