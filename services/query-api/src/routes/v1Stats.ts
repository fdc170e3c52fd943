import "zod-openapi";
import type { StatsPage } from "@vu/api-responses";
import type { Request, Response } from "express";
import { DateTime } from "luxon";
import { z } from "zod";
import { authOf } from "../http/authenticate";
import { wantsFreshAnswer } from "../http/cacheControl";
import { createRenderedPages, type RenderedPages } from "../http/renderedPages";
import { STATS_GRANULARITIES } from "../planner";
import { MAX_PAGE_SIZE } from "../query/pagination";
import { queryStats, type StatsResult } from "../query/statsQuery";
import { renderStatsCsv } from "../render/statsCsv";
import {
  compareParam,
  excludeParams,
  filterParams,
  includeParam,
  intParam,
  rangeParams,
  rawExclusions,
  rawFilters,
} from "./queryParamSchemas";
import { type Register, type RouteDeps, withQuery } from "./routeDeps";
import { fillParam, groupByParam, limitParam, otherParam, sortParam } from "./statsShapeParams";

export const STATS_PATH = "/api/v1/stats";

export const statsQuerySchema = z
  .object({
    ...rangeParams,
    ...filterParams,
    ...excludeParams,
    granularity: z.enum(STATS_GRANULARITIES).default("day").meta({
      description:
        "Bucket size in the query zone; `all`: one bucket, the whole range, labelled with its start.",
    }),
    group_by: groupByParam,
    sort: sortParam,
    limit: limitParam,
    other: otherParam,
    fill: fillParam,
    compare: compareParam,
    include: includeParam,
    page: intParam(1, 1, Number.MAX_SAFE_INTEGER),
    page_size: intParam(200, 1, MAX_PAGE_SIZE),
    format: z.enum(["json", "csv"]).default("json"),
  })
  .strict();

/** docs/contract.md §7: the header naming the instant up to which the answer holds every event. */
export const DATA_AS_OF_HEADER = "X-Data-As-Of";

/**
 * Sends `X-Data-As-Of` with an answer (docs/contract.md §7). `before` is the store's view taken
 * before the answer was read or found kept (the reader's view, cached for a moment, so a request
 * costs no round trip for it): its "as of" was read from the log hash before the answer's data, so
 * the answer holds every event produced before it. A kept answer is exact for the current state,
 * so it gets the current header. Nothing is sent when no instant is known, or when the epoch
 * changed under the request (the instant described another state).
 */
export async function viewAsOfBefore(
  deps: Pick<RouteDeps, "reader">,
): Promise<(res: Response) => Promise<void>> {
  const before = await deps.reader.view();
  return async (res) => {
    const asOfMs = before.asOfMs;
    if (asOfMs === undefined || asOfMs === null) return;
    // The answer was confirmed already; a store that stopped being live since only loses the header.
    const after = await deps.reader.view().catch(() => undefined);
    if (after?.epoch !== before.epoch) return;
    res.set(DATA_AS_OF_HEADER, new Date(asOfMs).toISOString());
  };
}

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

export const registerV1Stats: Register = (router, deps) => {
  const pages: RenderedPages = createRenderedPages();
  router.get(
    STATS_PATH,
    withQuery(statsQuerySchema, async (query, req, res) => {
      const sendAsOf = await viewAsOfBefore(deps);
      const result = await queryStats(
        authOf(res.locals).org,
        {
          startDate: query.start_date,
          endDate: query.end_date,
          timezone: query.timezone,
          granularity: query.granularity,
          groupBy: query.group_by ?? [],
          filters: rawFilters(query),
          exclusions: rawExclusions(query),
          sort: query.sort ?? [],
          limit: query.limit,
          other: query.other,
          fill: query.fill === "zero",
          compare: query.compare,
          activeMembers: query.include === "active_members",
          page: query.page,
          pageSize: query.page_size,
          noCache: wantsFreshAnswer(req),
        },
        deps,
      );
      const page = `${query.format}:${query.page}:${query.page_size}`;
      const render = (): string => {
        if (query.format === "csv")
          return renderStatsCsv(result.data(), {
            groupBy: query.group_by,
            compared: query.compare !== undefined,
            activeMembers: query.include === "active_members",
          });
        // Typed as the published response, so a result that drifts from the schema does not compile.
        const body: StatsPage = { data: result.data(), pagination: result.pagination, meta: result.meta };
        return JSON.stringify(body);
      };
      const body = () => pages.body(result.source, page, render);
      await sendAsOf(res);
      if (query.format === "csv") return sendCsv(req, res, result, body);
      res.type("json").send(body());
    }),
  );
};
