import "zod-openapi";
import type { Summary } from "@vu/api-responses";
import { z } from "zod";
import { authOf } from "../http/authenticate";
import { wantsFreshAnswer } from "../http/cacheControl";
import { answeredNotModified, sendTagged } from "../http/conditionalRequests";
import { entityTag } from "../http/entityTag";
import { stampAtStartOf } from "../http/stampAtStart";
import type { AnswerValidator } from "../query/answerState";
import { stateNow, summaryFrame } from "../query/answerValidator";
import { querySummary, type SummaryRequest } from "../query/statsQuery";
import { confirmedAsOf, setDataAsOf } from "./dataAsOf";
import {
  compareParam,
  excludeParams,
  filterParams,
  includeParam,
  percentilesParam,
  rangeParams,
  rawExclusions,
  rawFilters,
} from "./queryParamSchemas";
import { type Register, withQuery } from "./routeDeps";

export const SUMMARY_PATH = "/api/v1/stats/summary";

/**
 * The seed's parameters, then docs/contract.md §7's `exclude[...]` (as on /stats) and `compare`,
 * and §9's `include` and `percentiles`.
 */
export const summaryQuerySchema = z
  .object({
    ...rangeParams,
    ...filterParams,
    ...excludeParams,
    compare: compareParam,
    include: includeParam,
    percentiles: percentilesParam,
  })
  .strict();

export const registerV1StatsSummary: Register = (router, deps) => {
  router.get(
    SUMMARY_PATH,
    withQuery(summaryQuerySchema, async (query, req, res) => {
      const org = authOf(res.locals).org;
      const stampAtStart = stampAtStartOf(res.locals);
      const request: SummaryRequest = {
        startDate: query.start_date,
        endDate: query.end_date,
        timezone: query.timezone,
        filters: rawFilters(query),
        exclusions: rawExclusions(query),
        compare: query.compare,
        activeMembers: query.include === "active_members",
        percentiles: query.percentiles,
        noCache: wantsFreshAnswer(req),
      };
      // One moment for the tag and the answer: a range without end_date ends at it.
      const context = deps.planContext();
      const before = await deps.reader.view();
      // docs/contract.md §9: the parameters as read, the state and the range decide the body.
      const tagOf = (validator: AnswerValidator) =>
        entityTag(["summary", org, query, validator.state, validator.frame]);
      const unchanged = await answeredNotModified(req, res, {
        tagNow: async () =>
          tagOf({
            state: await stateNow(deps.reader, before, org, stampAtStart),
            frame: summaryFrame(request, context),
          }),
        setHeaders: () => setDataAsOf(res, before.asOfMs),
      });
      if (unchanged) return;
      const { summary, validator } = await querySummary(org, request, {
        ...deps,
        planContext: () => context,
        stampAtStart,
      });
      const body: Summary = summary;
      setDataAsOf(res, await confirmedAsOf(deps, before));
      sendTagged(req, res, tagOf(validator), () => res.json(body));
    }),
  );
};
