import "zod-openapi";
import type { Summary } from "@vu/api-responses";
import { z } from "zod";
import { authOf } from "../http/authenticate";
import { wantsFreshAnswer } from "../http/cacheControl";
import { querySummary } from "../query/statsQuery";
import {
  compareParam,
  excludeParams,
  filterParams,
  includeParam,
  rangeParams,
  rawExclusions,
  rawFilters,
} from "./queryParamSchemas";
import { type Register, withQuery } from "./routeDeps";
import { viewAsOfBefore } from "./v1Stats";

export const SUMMARY_PATH = "/api/v1/stats/summary";

/**
 * The seed's parameters, then docs/contract.md §7's `exclude[...]` (as on /stats) and `compare`,
 * and §9's `include`.
 */
export const summaryQuerySchema = z
  .object({ ...rangeParams, ...filterParams, ...excludeParams, compare: compareParam, include: includeParam })
  .strict();

export const registerV1StatsSummary: Register = (router, deps) => {
  router.get(
    SUMMARY_PATH,
    withQuery(summaryQuerySchema, async (query, req, res) => {
      const sendAsOf = await viewAsOfBefore(deps);
      const { summary } = await querySummary(
        authOf(res.locals).org,
        {
          startDate: query.start_date,
          endDate: query.end_date,
          timezone: query.timezone,
          filters: rawFilters(query),
          exclusions: rawExclusions(query),
          compare: query.compare,
          activeMembers: query.include === "active_members",
          noCache: wantsFreshAnswer(req),
        },
        deps,
      );
      const body: Summary = summary;
      await sendAsOf(res);
      res.json(body);
    }),
  );
};
