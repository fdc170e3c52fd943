import "zod-openapi";
import { dimensionsSchema } from "@vu/api-responses";
import type { Dimension } from "@vu/events";
import { z } from "zod";
import { authOf } from "../http/authenticate";
import { wantsFreshAnswer } from "../http/cacheControl";
import { parseQuery } from "../http/queryParams";
import type { ParsedQuery } from "../http/queryString";
import { createRenderedPages, type RenderedPages } from "../http/renderedPages";
import { stampAtStartOf } from "../http/stampAtStart";
import type { DimensionLists } from "../query/dimensionLists";
import { LISTED_DIMENSIONS, queryDimensionLists } from "../query/dimensionsQuery";
import type { Register } from "./routeDeps";

export const DIMENSIONS_PATH = "/api/v1/stats/dimensions";

/** Longer than any e-mail address (254): a longer `q` can match nothing. */
const MAX_Q_LENGTH = 256;

/** docs/contract.md §7: the optional parameters of `/stats/dimensions`. */
export const dimensionsQuerySchema = z
  .object({
    q: z
      .string()
      .max(MAX_Q_LENGTH, `must be at most ${MAX_Q_LENGTH} characters`)
      .optional()
      .meta({ description: "Only values containing this text, ignoring case.", example: "zo" }),
    limit: z
      .string()
      .regex(/^\d+$/, "must be a whole number")
      .transform(Number)
      .pipe(z.int().min(1, "must be at least 1").max(Number.MAX_SAFE_INTEGER, "is too large"))
      .optional()
      .meta({
        description: "At most this many values per list (the first in order).",
        override: { type: "integer", minimum: 1 },
      }),
    include: z
      .enum(["member_emails"])
      .optional()
      .meta({ description: "`member_emails`: list the members' e-mail addresses too." }),
  })
  .strict();

export type DimensionsQuery = z.output<typeof dimensionsQuerySchema>;

/** The answer: the seed's three lists, and `member_emails` when asked for (docs/contract.md §7). */
export const dimensionsAnswerSchema = dimensionsSchema
  .extend({
    member_emails: z.array(z.string()).optional().meta({ description: "Only with include=member_emails." }),
  })
  .meta({
    id: "Dimensions",
    description: "Distinct values ever seen for the organization, ascending; no null.",
  });

export type DimensionsAnswer = z.output<typeof dimensionsAnswerSchema>;

const EXTENSION = Object.keys(dimensionsQuerySchema.shape);

/**
 * The seed gives this operation no parameters and no 400, and it has always ignored its query
 * string: a request naming none of the parameters of docs/contract.md §7 is the seed's operation,
 * and nothing in its query string is read. One naming any of them is validated as strictly as
 * the other operations (an unknown, repeated or malformed parameter is a 400), so that a typo
 * beside `q` is not quietly ignored.
 */
export function parseDimensionsQuery(raw: ParsedQuery): DimensionsQuery {
  if (!EXTENSION.some((name) => Object.hasOwn(raw, name))) return {};
  return parseQuery(dimensionsQuerySchema, raw);
}

const field = <D extends Dimension>(d: D) => `${d}s` as const;

function answerOf(lists: DimensionLists, query: DimensionsQuery): DimensionsAnswer {
  const selection = { q: query.q, limit: query.limit };
  const answer = Object.fromEntries(
    LISTED_DIMENSIONS.map((d) => [field(d), lists.select(d, selection)]),
  ) as DimensionsAnswer;
  if (query.include === "member_emails") {
    answer.member_emails = lists.select("member_email", selection) as string[];
  }
  return answer;
}

export const registerV1StatsDimensions: Register = (router, deps) => {
  // A body rendered from kept lists is kept with them, so a repeated request renders nothing.
  const bodies: RenderedPages = createRenderedPages();
  router.get(DIMENSIONS_PATH, async (req, res) => {
    const query = parseDimensionsQuery(req.query as ParsedQuery);
    const which: Dimension[] = [...LISTED_DIMENSIONS];
    if (query.include === "member_emails") which.push("member_email");
    const stampAtStart = stampAtStartOf(res.locals);
    const lists = await queryDimensionLists(authOf(res.locals).org, which, wantsFreshAnswer(req), {
      ...deps,
      stampAtStart,
    });
    const key = JSON.stringify([query.q ?? "", query.limit ?? null, query.include ?? null]);
    res.type("json").send(bodies.body(lists, key, () => JSON.stringify(answerOf(lists, query))));
  });
};
