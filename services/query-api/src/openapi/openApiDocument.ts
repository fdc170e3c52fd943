import { z } from "zod";
import { createDocument, type ZodOpenApiResponsesObject } from "zod-openapi";
import { STATS_PATH, statsQuerySchema, statsResponseSchema } from "../routes/v1Stats";
import { DIMENSIONS_PATH, dimensionsResponseSchema } from "../routes/v1StatsDimensions";
import { SUMMARY_PATH, summaryQuerySchema, summaryResponseSchema } from "../routes/v1StatsSummary";

const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number(),
    detail: z.string(),
    errors: z.array(z.object({ parameter: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details" });

const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: problemSchema } },
});

const common: ZodOpenApiResponsesObject = {
  "401": problem("Missing, malformed, unknown or revoked bearer token"),
  "429": problem("Rate limit exceeded; see Retry-After"),
  "503": problem("The statistics store is unavailable"),
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
          responses: {
            "200": {
              description: "Dimensions",
              content: { "application/json": { schema: dimensionsResponseSchema } },
            },
            ...common,
          },
        },
      },
      [SUMMARY_PATH]: {
        get: {
          operationId: "getSummary",
          summary: "Totals for a date range",
          requestParams: { query: summaryQuerySchema },
          responses: {
            "200": {
              description: "Summary",
              content: { "application/json": { schema: summaryResponseSchema } },
            },
            "400": problem("Invalid parameters"),
            ...common,
          },
        },
      },
      [STATS_PATH]: {
        get: {
          operationId: "getStats",
          summary: "Time-series statistics with grouping, filters and pagination",
          requestParams: { query: statsQuerySchema },
          responses: {
            "200": {
              description: "A page of statistics (JSON), or a CSV file with format=csv",
              content: {
                "application/json": { schema: statsResponseSchema },
                "text/csv": { schema: z.string() },
              },
            },
            "400": problem("Invalid parameters"),
            ...common,
          },
        },
      },
    },
  });
}
