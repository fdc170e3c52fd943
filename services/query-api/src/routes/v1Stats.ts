import "zod-openapi";
import type { StatsPage } from "@vu/api-responses";
import type { Request, Response } from "express";
import { DateTime } from "luxon";
import { z } from "zod";
import { authOf } from "../http/authenticate";
import { wantsFreshAnswer } from "../http/cacheControl";
import { answeredNotModified, sendTagged } from "../http/conditionalRequests";
import { entityTag } from "../http/entityTag";
import { createRenderedPages, type RenderedPages } from "../http/renderedPages";
import { stampAtStartOf } from "../http/stampAtStart";
import { STATS_GRANULARITIES } from "../planner";
import type { AnswerValidator } from "../query/answerState";
import { stateNow, statsFrame } from "../query/answerValidator";
import { completeCount } from "../query/bucketCompleteness";
import { MAX_PAGE_SIZE } from "../query/pagination";
import { queryStats, type StatsRequest, type StatsResult } from "../query/statsQuery";
import { renderStatsCsv } from "../render/statsCsv";
import { sendsComplete, weekStartParam } from "./calendarParams";
import { confirmedAsOf, setDataAsOf } from "./dataAsOf";
import {
  compareParam,
  excludeParams,
  filterParams,
  includeParam,
  intParam,
  percentilesParam,
  rangeParams,
  rawExclusions,
  rawFilters,
} from "./queryParamSchemas";
import { type Register, withQuery } from "./routeDeps";
import { fillParam, groupByParam, limitParam, otherParam, sortParam } from "./statsShapeParams";

export const STATS_PATH = "/api/v1/stats";

export const statsQuerySchema = z
  .object({
    ...rangeParams,
    ...filterParams,
    ...excludeParams,
    granularity: z.enum(STATS_GRANULARITIES).default("day").meta({
      description:
        "Bucket size in the query zone's calendar (quarters start on 1 January, April, July and October); `all`: one bucket, the whole range, labelled with its start.",
    }),
    week_start: weekStartParam,
    group_by: groupByParam,
    sort: sortParam,
    limit: limitParam,
    other: otherParam,
    fill: fillParam,
    compare: compareParam,
    include: includeParam,
    percentiles: percentilesParam,
    page: intParam(1, 1, Number.MAX_SAFE_INTEGER),
    page_size: intParam(200, 1, MAX_PAGE_SIZE),
    format: z.enum(["json", "csv"]).default("json"),
  })
  .strict();

function compactStamp(iso: string): string {
  return DateTime.fromISO(iso, { setZone: true }).toFormat("yyyyMMdd'T'HHmmZZZ");
}

/** `Link: <...page=n+1>; rel="next"` while more pages exist (docs/contract.md §5). */
function nextLink(req: Request, result: Pick<StatsResult, "pagination">): string | undefined {
  const { page, total_pages } = result.pagination;
  if (page >= total_pages) return undefined;
  const params = new URLSearchParams(req.query as Record<string, string>);
  params.set("page", String(page + 1));
  return `<${req.baseUrl}${req.path}?${params.toString()}>; rel="next"`;
}

function sendCsv(req: Request, res: Response, result: StatsResult, body: () => Buffer): void {
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
  res.send(body());
}

type StatsQuery = z.output<typeof statsQuerySchema>;

/** The question the query layer answers, from the validated parameters. */
function statsRequestOf(query: StatsQuery, noCache: boolean): StatsRequest {
  return {
    complete: sendsComplete(query),
    startDate: query.start_date,
    endDate: query.end_date,
    timezone: query.timezone,
    granularity: query.granularity,
    weekStart: query.week_start,
    groupBy: query.group_by ?? [],
    filters: rawFilters(query),
    exclusions: rawExclusions(query),
    sort: query.sort ?? [],
    limit: query.limit,
    other: query.other,
    fill: query.fill === "zero",
    compare: query.compare,
    activeMembers: query.include === "active_members",
    percentiles: query.percentiles,
    page: query.page,
    pageSize: query.page_size,
    noCache,
  };
}

export const registerV1Stats: Register = (router, deps) => {
  const pages: RenderedPages = createRenderedPages();
  router.get(
    STATS_PATH,
    withQuery(statsQuerySchema, async (query, req, res) => {
      const org = authOf(res.locals).org;
      const stampAtStart = stampAtStartOf(res.locals);
      const request = statsRequestOf(query, wantsFreshAnswer(req));
      // One moment for the tag and the answer: a range without end_date ends at it.
      const context = deps.planContext();
      const before = await deps.reader.view();
      const withComplete = request.complete ?? false;
      // docs/contract.md §9: what decides the body (the parameters as read, the state and the
      // frame), and which buckets are complete when rows say so; never a header.
      const tagOf = (validator: AnswerValidator, completeBuckets: number) =>
        entityTag([
          "stats",
          org,
          query,
          validator.state,
          validator.frame,
          withComplete ? completeBuckets : null,
        ]);
      const unchanged = await answeredNotModified(req, res, {
        tagNow: async () => {
          const { frame, ends } = statsFrame(request, context);
          const state = await stateNow(deps.reader, before, org, stampAtStart);
          return tagOf({ state, frame }, completeCount(ends, before.asOfMs));
        },
        setHeaders: () => setDataAsOf(res, before.asOfMs),
      });
      if (unchanged) return;
      const result = await queryStats(org, request, { ...deps, planContext: () => context, stampAtStart });
      const asOfMs = await confirmedAsOf(deps, before);
      const completeness = withComplete ? result.completenessAt(asOfMs) : undefined;
      const page = `${query.format}:${query.page}:${query.page_size}:${completeness?.count ?? ""}`;
      const render = (): string => {
        const data = result.data(completeness);
        if (query.format === "csv")
          return renderStatsCsv(data, {
            groupBy: query.group_by,
            compared: query.compare !== undefined,
            activeMembers: request.activeMembers ?? false,
            percentiles: query.percentiles,
            complete: withComplete,
          });
        // Typed as the published response, so a result that drifts from the schema does not compile.
        const body: StatsPage = { data, pagination: result.pagination, meta: result.meta };
        return JSON.stringify(body);
      };
      const body = () => pages.body(result.source, page, render);
      setDataAsOf(res, asOfMs);
      sendTagged(req, res, tagOf(result.validator, completeness?.count ?? 0), () => {
        if (query.format === "csv") return sendCsv(req, res, result, body);
        res.type("json").send(body());
      });
    }),
  );
};
