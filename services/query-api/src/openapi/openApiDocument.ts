import { problemSchema, statsPageSchema, summarySchema } from "@vu/api-responses";
import { z } from "zod";
import { createDocument, type ZodOpenApiResponsesObject } from "zod-openapi";
import { STATS_PATH, statsQuerySchema } from "../routes/v1Stats";
import { DIMENSIONS_PATH, dimensionsAnswerSchema, dimensionsQuerySchema } from "../routes/v1StatsDimensions";
import { SUMMARY_PATH, summaryQuerySchema } from "../routes/v1StatsSummary";

const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: problemSchema } },
});

const common: ZodOpenApiResponsesObject = {
  "401": problem("Missing, malformed, unknown or revoked bearer token"),
  "429": problem("Rate limit exceeded; see Retry-After"),
  "503": problem("The statistics store is unavailable"),
};

/** A repeated query is answered from a kept answer (always exact); `no-cache` asks for it computed now. */
const freshnessHeaders = z.object({
  "cache-control": z.string().optional().meta({
    description:
      "`no-cache` (or `no-store`): compute the answer now instead of serving the kept one. Kept answers are exact: they are served only while no recording of the organization was counted since.",
  }),
});

/** docs/contract.md §9: a conditional request, answered 304 without computing the answer. */
const conditionalHeaders = freshnessHeaders.extend({
  "if-none-match": z.string().optional().meta({
    description:
      "Entity tags of answers the client holds (an ETag of an earlier 200): when one is the tag the answer has now, the answer is 304 Not Modified with no body, and is not computed. `*` matches any answer.",
    example: '"hG2h0H4cQXWf2s5ZxYb6Eg"',
  }),
});

const entityTagHeader = {
  ETag: z.string().meta({
    description:
      'Strong entity tag of this answer: the same for every answer with the same body (the parameters as read, the organization\'s data, the range as resolved and, with complete, which buckets are complete), another whenever the body could differ. X-Data-As-Of is not covered. A compressed body\'s tag names its coding ("…-gzip", "…-br").',
    example: '"hG2h0H4cQXWf2s5ZxYb6Eg"',
  }),
};

/** docs/contract.md §7: how complete the answer is, sent with every answer of /stats and /stats/summary. */
const asOfHeader = z.object({
  "X-Data-As-Of": z.string().optional().meta({
    format: "date-time",
    description:
      "The instant (ISO 8601, UTC, milliseconds) up to which every partition of the topic has been applied: the answer holds every event produced before it. Absent while the store knows no such instant yet.",
    example: "2026-03-04T12:34:56.789Z",
  }),
});

/** The headers of every 200 of /stats and /stats/summary, and of their 304s. */
const answerHeaders = asOfHeader.extend(entityTagHeader);

const notModified = {
  description:
    "Not Modified: If-None-Match holds this answer's entity tag; no body. ETag names the answer the client holds; X-Data-As-Of is the current one.",
  headers: answerHeaders,
};

/** OpenAPI 3.1 of the three operations, generated from the zod schemas that validate them. */
export function createOpenApiDocument(): ReturnType<typeof createDocument> {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Usage Statistics Service",
      version: "1.0.0",
      description: "Read-only usage statistics of an organization's voice-transcription recordings.",
    },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "sk-vu-… access token" } },
    },
    security: [{ bearer: [] }],
    paths: {
      [DIMENSIONS_PATH]: {
        get: {
          operationId: "getDimensions",
          summary: "Distinct values available for filtering",
          description:
            "Without q, limit and include (the seed's form) the query string is not read and the answer is never a 400. With any of them, every parameter is validated: an unknown, repeated or malformed one is a 400.",
          requestParams: { query: dimensionsQuerySchema, header: freshnessHeaders },
          responses: {
            "200": {
              description: "Dimensions",
              content: { "application/json": { schema: dimensionsAnswerSchema } },
            },
            "400": problem("Invalid parameters (only when q, limit or include is given)"),
            ...common,
          },
        },
      },
      [SUMMARY_PATH]: {
        get: {
          operationId: "getSummary",
          summary: "Totals for a date range",
          description:
            "Beyond the seed (all optional; a request with none of them answers as the seed's did): exclude[...] lists, compare (previous and change), include=active_members (the range's distinct members), percentiles (p<q>_…_processing_seconds, within 1 % of the exact nearest-rank value). Every 200 has a strong ETag; If-None-Match with it is a 304.",
          requestParams: { query: summaryQuerySchema, header: conditionalHeaders },
          responses: {
            "200": {
              description: "Summary",
              headers: answerHeaders,
              content: { "application/json": { schema: summarySchema } },
            },
            "304": notModified,
            "400": problem("Invalid parameters"),
            ...common,
          },
        },
      },
      [STATS_PATH]: {
        get: {
          operationId: "getStats",
          summary: "Time-series statistics with grouping, filters and pagination",
          description:
            "Beyond the seed (all optional; a request with none of them answers as the seed's did): exclude[...] lists, group_by with up to four dimensions, granularity=all, sort, limit with other=true (top N per bucket and an exact rest), fill=zero, compare, include=active_members (each row's distinct members; the (other) row's counted once each, not summed); granularity=quarter and year, week_start=sunday; percentiles (p<q>_…_processing_time per row, within 1 % of the exact nearest-rank value); with any of week_start, granularity=quarter|year, include and percentiles, a complete field on every row. A bad value, or a parameter that needs another it lacks, is a 400 naming it; an unknown parameter is still a 400. Every 200 has a strong ETag; If-None-Match with it is a 304.",
          requestParams: { query: statsQuerySchema, header: conditionalHeaders },
          responses: {
            "200": {
              description: "A page of statistics (JSON), or a CSV file with format=csv",
              headers: answerHeaders,
              content: {
                "application/json": { schema: statsPageSchema },
                "text/csv": { schema: z.string() },
              },
            },
            "304": notModified,
            "400": problem("Invalid parameters"),
            ...common,
          },
        },
      },
    },
  });
}
