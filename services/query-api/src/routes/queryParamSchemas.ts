import "zod-openapi";
import { z } from "zod";

/** Query parameters shared by `/stats` and `/stats/summary` (seed "Shared query parameters"). */
const dateParam = (description: string) =>
  z
    .string()
    .optional()
    .meta({
      description: `${description} ISO 8601: YYYY-MM-DD, optionally Thh:mm:ss, fractional seconds and a zone (Z or ±hh:mm, colon optional).`,
      example: "2026-11-01",
    });

const listParam = (description: string, example: string) =>
  z
    .string()
    .optional()
    .meta({ description: `${description} Comma-separated; a row matches any item.`, example });

export const rangeParams = {
  start_date: dateParam("Start of the range (inclusive). Default: 7 days before end_date."),
  end_date: dateParam("End of the range; a date-only value includes that whole day. Default: now."),
  timezone: z.string().optional().meta({
    description:
      "IANA zone or ±hh:mm offset for reading dates and cutting buckets. Default: start_date's offset, else UTC.",
    example: "Europe/Berlin",
  }),
};

export const filterParams = {
  "filter[member_email]": listParam(
    "Member e-mail addresses (case-insensitive).",
    "ada@example.com,bob@example.com",
  ),
  "filter[voice_model]": listParam("Voice models.", "whisper-large"),
  "filter[language_model]": listParam(
    "Language models; the item `null` selects recordings without one.",
    "gpt-4o,null",
  ),
  "filter[app_name]": listParam("Application names.", "Zoom"),
};

/** A whole number in a query string, without the surprises of coercion ("", "1e3", " 7"). */
export const intParam = (fallback: number, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .default(fallback)
    .meta({ override: { type: "integer", minimum: min, maximum: max, default: fallback } });

export type FilterQuery = { [K in keyof typeof filterParams]?: string | undefined };

export function rawFilters(query: FilterQuery) {
  return {
    member_email: query["filter[member_email]"],
    voice_model: query["filter[voice_model]"],
    language_model: query["filter[language_model]"],
    app_name: query["filter[app_name]"],
  };
}
