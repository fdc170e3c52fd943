import "zod-openapi";
import { ACTIVE_MEMBERS_FIELD, STATS_METRIC_COLUMNS } from "@vu/api-responses";
import { DIMENSIONS, type Dimension } from "@vu/events";
import { z } from "zod";
import type { SortKey } from "../query/rowOrder";
import { optionalIntParam } from "./queryParamSchemas";

// docs/contract.md §7's parameters of `/stats` that shape the rows: several group_by dimensions,
// sort, limit with other, fill. Each is read here, value by value; what one needs of another
// (sort by a group field needs it in group_by, other needs limit) is the query's to refuse.

/** The most `group_by` dimensions: all four. */
const MAX_GROUP_BY = DIMENSIONS.length;
/** The most groups `limit` keeps per bucket. */
export const MAX_LIMIT = 1000;

const NAMES = DIMENSIONS.join(", ");

/** A comma list, items trimmed; an empty item is refused rather than guessed at. */
function commaItems(text: string): string[] {
  return text.split(",").map((item) => item.trim());
}

/** `group_by=a,b`: up to four distinct dimensions, in the order asked (that order orders the rows). */
export const groupByParam = z
  .string()
  .transform((text, ctx): Dimension[] => {
    const items = commaItems(text);
    const unknown = items.find((item) => !(DIMENSIONS as readonly string[]).includes(item));
    if (unknown !== undefined) {
      ctx.addIssue({
        code: "custom",
        message: `must be up to ${MAX_GROUP_BY} of ${NAMES}, comma-separated: ${JSON.stringify(unknown)} is not one`,
      });
      return z.NEVER;
    }
    if (new Set(items).size !== items.length) {
      ctx.addIssue({ code: "custom", message: "names a dimension twice" });
      return z.NEVER;
    }
    return items as Dimension[];
  })
  .optional()
  .meta({
    override: {
      type: "string",
      description: `One row per bucket and combination of these dimensions (up to ${MAX_GROUP_BY}, comma-separated: ${NAMES}), a field for each; rows by bucket, then by the groups in the order named. meta.group_by repeats the list.`,
      example: "member_email,app_name",
    },
  });

const SORT_FIELDS: readonly string[] = [...STATS_METRIC_COLUMNS, ACTIVE_MEMBERS_FIELD, ...DIMENSIONS];

/**
 * `sort=-total_words,app_name` (JSON:API): metrics or group fields, `-` descending; §9's
 * active_members too (with include=active_members, which the query checks).
 */
export const sortParam = z
  .string()
  .transform((text, ctx): SortKey[] => {
    const keys = commaItems(text).map((item) => ({
      field: item.startsWith("-") ? item.slice(1) : item,
      descending: item.startsWith("-"),
    }));
    const unknown = keys.find((key) => !SORT_FIELDS.includes(key.field));
    if (unknown !== undefined) {
      ctx.addIssue({
        code: "custom",
        message: `${JSON.stringify(unknown.field)} is not a metric or a dimension; sort by ${SORT_FIELDS.join(", ")}, each optionally led by -`,
      });
      return z.NEVER;
    }
    if (new Set(keys.map((k) => k.field)).size !== keys.length) {
      ctx.addIssue({ code: "custom", message: "names a field twice" });
      return z.NEVER;
    }
    return keys as SortKey[];
  })
  .optional()
  .meta({
    override: {
      type: "string",
      description:
        "Orders the rows of each bucket (buckets stay in time order): comma-separated metrics or group_by fields (active_members with include=active_members), each led by - for descending; ties by the next key, then the default order. A metric orders by the value shown.",
      example: "-total_words,app_name",
    },
  });

export const limitParam = optionalIntParam(
  1,
  MAX_LIMIT,
  "Keeps the first N rows of each bucket once sorted (top N per bucket).",
);

export const otherParam = z
  .enum(["true", "false"])
  .optional()
  .transform((value) => value === "true")
  .meta({
    override: {
      type: "string",
      enum: ["true", "false"],
      default: "false",
      description:
        'With limit and group_by: one more row per bucket that lost rows to the limit, holding their exact sum, every group field "(other)".',
    },
  });

export const fillParam = z.enum(["zero"]).optional().meta({
  description:
    "Every bucket of the range appears: without group_by a zero row for each empty bucket; with it a zero row for each group of the answer that a bucket lacks (before sort and limit).",
});
