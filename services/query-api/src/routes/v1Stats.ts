import "zod-openapi";
import { DIMENSIONS } from "@vu/events";
import type { Request, Response } from "express";
import { DateTime } from "luxon";
import { z } from "zod";
import { authOf } from "../http/authenticate";
import { GRANULARITIES } from "../planner";
import { queryStats, type StatsResult } from "../query/statsQuery";
import { renderStatsCsv } from "../render/statsCsv";
import { filterParams, intParam, rangeParams, rawFilters } from "./queryParamSchemas";
import { type Register, withQuery } from "./routeDeps";

export const STATS_PATH = "/api/v1/stats";
export const MAX_PAGE_SIZE = 1000;

export const statsQuerySchema = z
  .object({
    ...rangeParams,
    ...filterParams,
    granularity: z.enum(GRANULARITIES).default("day").meta({ description: "Bucket size in the query zone." }),
    group_by: z
      .enum(DIMENSIONS)
      .optional()
      .meta({ description: "One row per bucket and value of this dimension." }),
    page: intParam(1, 1, Number.MAX_SAFE_INTEGER),
    page_size: intParam(200, 1, MAX_PAGE_SIZE),
    format: z.enum(["json", "csv"]).default("json"),
  })
  .strict();

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

export const statsResponseSchema = z
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

/** What a JSON page of `/stats` is: derived from the schema the OpenAPI document publishes. */
export type StatsResponse = z.infer<typeof statsResponseSchema>;

function compactStamp(iso: string): string {
  return DateTime.fromISO(iso, { setZone: true }).toFormat("yyyyMMdd'T'HHmmZZZ");
}

/** `Link: <...page=n+1>; rel="next"` while more pages exist (CONTRACT §5). */
function nextLink(req: Request, result: StatsResult): string | undefined {
  const { page, total_pages } = result.pagination;
  if (page >= total_pages) return undefined;
  const params = new URLSearchParams(req.query as Record<string, string>);
  params.set("page", String(page + 1));
  return `<${req.baseUrl}${req.path}?${params.toString()}>; rel="next"`;
}

function sendCsv(req: Request, res: Response, result: StatsResult): void {
  const { pagination, meta } = result;
  const filename = `usage-stats_${compactStamp(meta.start_date)}_${compactStamp(meta.end_date)}.csv`;
  res.set({
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${filename}"`,
    "X-Total-Rows": String(pagination.total_rows),
    "X-Total-Pages": String(pagination.total_pages),
    "X-Page": String(pagination.page),
    "X-Page-Size": String(pagination.page_size),
  });
  const link = nextLink(req, result);
  if (link) res.set("Link", link);
  res.send(renderStatsCsv(result.data, meta.group_by ?? undefined));
}

export const registerV1Stats: Register = (router, deps) => {
  router.get(
    STATS_PATH,
    withQuery(statsQuerySchema, async (query, req, res) => {
      const result = await queryStats(
        authOf(res.locals).org,
        {
          startDate: query.start_date,
          endDate: query.end_date,
          timezone: query.timezone,
          granularity: query.granularity,
          groupBy: query.group_by,
          filters: rawFilters(query),
          page: query.page,
          pageSize: query.page_size,
        },
        deps,
      );
      if (query.format === "csv") return sendCsv(req, res, result);
      // Typed as the published response, so a result that drifts from the schema does not compile.
      const body: StatsResponse = result;
      res.json(body);
    }),
  );
};
