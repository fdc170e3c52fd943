import "zod-openapi";
import type { Summary } from "@vu/api-responses";
import { z } from "zod";
import { authOf } from "../http/authenticate";
import { wantsFreshAnswer } from "../http/cacheControl";
import { querySummary } from "../query/statsQuery";
import { filterParams, rangeParams, rawFilters } from "./queryParamSchemas";
import { type Register, withQuery } from "./routeDeps";

export const SUMMARY_PATH = "/api/v1/stats/summary";

export const summaryQuerySchema = z.object({ ...rangeParams, ...filterParams }).strict();

export const registerV1StatsSummary: Register = (router, deps) => {
  router.get(
    SUMMARY_PATH,
    withQuery(summaryQuerySchema, async (query, req, res) => {
      const { summary } = await querySummary(
        authOf(res.locals).org,
        {
          startDate: query.start_date,
          endDate: query.end_date,
          timezone: query.timezone,
          filters: rawFilters(query),
          noCache: wantsFreshAnswer(req),
        },
        deps,
      );
      const body: Summary = summary;
      res.json(body);
    }),
  );
};
