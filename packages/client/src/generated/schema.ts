// Generated from the API's OpenAPI document (packages/client/openapi.json) by openapi-typescript.
// Do not edit: `pnpm --filter @vu/client generate` writes it again; src/generatedSchema.test.ts
// fails when it is stale.

export interface paths {
  "/api/v1/stats/dimensions": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Distinct values available for filtering
     * @description Without q, limit and include (the seed's form) the query string is not read and the answer is never a 400. With any of them, every parameter is validated: an unknown, repeated or malformed one is a 400.
     */
    get: operations["getDimensions"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/stats/summary": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Totals for a date range
     * @description Beyond the seed (all optional; a request with none of them answers as the seed's did): exclude[...] lists, compare (previous and change), include=active_members (the range's distinct members), percentiles (p<q>_…_processing_seconds, within 1 % of the exact nearest-rank value). Every 200 has a strong ETag; If-None-Match with it is a 304.
     */
    get: operations["getSummary"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/stats": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Time-series statistics with grouping, filters and pagination
     * @description Beyond the seed (all optional; a request with none of them answers as the seed's did): exclude[...] lists, group_by with up to four dimensions, granularity=all, sort, limit with other=true (top N per bucket and an exact rest), fill=zero, compare, include=active_members (each row's distinct members; the (other) row's counted once each, not summed); granularity=quarter and year, week_start=sunday; percentiles (p<q>_…_processing_time per row, within 1 % of the exact nearest-rank value); with any of week_start, granularity=quarter|year, include and percentiles, a complete field on every row. A bad value, or a parameter that needs another it lacks, is a 400 naming it; an unknown parameter is still a 400. Every 200 has a strong ETag; If-None-Match with it is a 304.
     */
    get: operations["getStats"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /** @description Distinct values ever seen for the organization, ascending; no null. */
    Dimensions: {
      voice_models: string[];
      language_models: string[];
      app_names: string[];
      /** @description Only with include=member_emails. */
      member_emails?: string[];
    };
    /** @description RFC 9457 problem details */
    Problem: {
      type: string;
      title: string;
      status: number;
      detail: string;
      errors?: {
        parameter: string;
        message: string;
      }[];
    };
    Summary: {
      /** @description Count of recordings in the range */
      total_recordings: number;
      /** @description Total recording duration, minutes */
      total_duration_minutes: number;
      /** @description Total words transcribed */
      total_words: number;
      /** @description Average language-model processing time, seconds */
      avg_llm_processing_seconds: number;
      /** @description Average voice processing time, seconds */
      avg_voice_processing_seconds: number;
      /** @description With include=active_members: how many distinct members have at least one recording in the range */
      active_members?: number;
      /** @description With compare: the same fields for the previous range */
      previous?: {
        /** @description Count of recordings in the range */
        total_recordings: number;
        /** @description Total recording duration, minutes */
        total_duration_minutes: number;
        /** @description Total words transcribed */
        total_words: number;
        /** @description Average language-model processing time, seconds */
        avg_llm_processing_seconds: number;
        /** @description Average voice processing time, seconds */
        avg_voice_processing_seconds: number;
        /** @description With include=active_members: how many distinct members have at least one recording in the range */
        active_members?: number;
      };
      change?: components["schemas"]["SummaryChange"];
    } & {
      [key: `p${number}_${string}`]: number | null;
    };
    /** @description (current − previous) ÷ previous per field, from the exact values, rounded to 3 decimals (halves away from zero); null where the previous value is 0 */
    SummaryChange: {
      total_recordings: number | null;
      total_duration_minutes: number | null;
      total_words: number | null;
      avg_llm_processing_seconds: number | null;
      avg_voice_processing_seconds: number | null;
      active_members?: number | null;
    };
    StatsPage: {
      data: components["schemas"]["StatsRow"][];
      pagination: {
        page: number;
        page_size: number;
        total_rows: number;
        total_pages: number;
        count: number;
      };
      meta: {
        start_date: string;
        end_date: string;
        /** @description hour, day, week, month, quarter, year, or all (one bucket, the whole range) */
        granularity: string;
        /** @description The group_by dimensions as asked, comma-separated (member_email,app_name); null without */
        group_by: string | null;
        timezone: string;
        /**
         * @description With compare: what the rows' previous_<metric> fields are taken from
         * @enum {string}
         */
        compare?: "previous_period" | "previous_year";
        /** @description With compare: the previous range's start */
        previous_start_date?: string;
        /** @description With compare: the previous range's end (exclusive) */
        previous_end_date?: string;
      };
    };
    StatsRow: {
      /** @description Start of the bucket, ISO 8601 with offset */
      time_bucket: string;
      /** @description Present when group_by names member_email; "(other)" in the row that holds what limit cut (other=true) */
      member_email?: string;
      /** @description Present when group_by names voice_model; "(other)" in the row that holds what limit cut (other=true) */
      voice_model?: string;
      /** @description Present when group_by names language_model; "(other)" in the row that holds what limit cut (other=true) */
      language_model?: string | null;
      /** @description Present when group_by names app_name; "(other)" in the row that holds what limit cut (other=true) */
      app_name?: string;
      recording_count: number;
      total_words: number;
      /** @description Milliseconds */
      total_duration: number;
      /** @description Milliseconds */
      avg_llm_processing_time: number;
      /** @description Milliseconds */
      avg_voice_processing_time: number;
      avg_wpm: number;
      /** @description With include=active_members: how many distinct members have at least one recording in the row (the (other) row: in the groups it holds, each member once) */
      active_members?: number;
      /** @description With compare: recording_count of the same group in the paired bucket of the previous range */
      previous_recording_count?: number;
      /** @description With compare: total_words of the same group in the paired bucket of the previous range */
      previous_total_words?: number;
      /** @description With compare: total_duration of the same group in the paired bucket of the previous range */
      previous_total_duration?: number;
      /** @description With compare: avg_llm_processing_time of the same group in the paired bucket of the previous range */
      previous_avg_llm_processing_time?: number;
      /** @description With compare: avg_voice_processing_time of the same group in the paired bucket of the previous range */
      previous_avg_voice_processing_time?: number;
      /** @description With compare: avg_wpm of the same group in the paired bucket of the previous range */
      previous_avg_wpm?: number;
      /** @description With include=active_members and compare: active_members of the same group in the paired bucket of the previous range */
      previous_active_members?: number;
      /** @description Sent when the request has week_start, granularity=quarter|year, include or percentiles: false when the row's bucket (its part of the range) ends after X-Data-As-Of, so it may still grow; true when it ends at or before it. Without X-Data-As-Of every row is false. */
      complete?: boolean;
    } & {
      [key: `p${number}_${string}`]: number | null;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getDimensions: {
    parameters: {
      query?: {
        /** @description Only values containing this text, ignoring case. */
        q?: string;
        /** @description At most this many values per list (the first in order). */
        limit?: number;
        /** @description `member_emails`: list the members' e-mail addresses too. */
        include?: "member_emails";
      };
      header?: {
        /** @description `no-cache` (or `no-store`): compute the answer now instead of serving the kept one. Kept answers are exact: they are served only while no recording of the organization was counted since. */
        "cache-control"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Dimensions */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Dimensions"];
        };
      };
      /** @description Invalid parameters (only when q, limit or include is given) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Missing, malformed, unknown or revoked bearer token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description The statistics store is unavailable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
  getSummary: {
    parameters: {
      query?: {
        /** @description Start of the range (inclusive). Default: 7 days before end_date. ISO 8601: YYYY-MM-DD, optionally Thh:mm:ss, fractional seconds and a zone (Z or ±hh:mm, colon optional). */
        start_date?: string;
        /** @description End of the range; a date-only value includes that whole day. Default: now. ISO 8601: YYYY-MM-DD, optionally Thh:mm:ss, fractional seconds and a zone (Z or ±hh:mm, colon optional). */
        end_date?: string;
        /** @description IANA zone or ±hh:mm offset for reading dates and cutting buckets. Default: start_date's offset, else UTC. */
        timezone?: string;
        /** @description Member e-mail addresses (case-insensitive). Comma-separated; a row matches any item. */
        "filter[member_email]"?: string;
        /** @description Voice models. Comma-separated; a row matches any item. */
        "filter[voice_model]"?: string;
        /** @description Language models; the item `null` selects recordings without one. Comma-separated; a row matches any item. */
        "filter[language_model]"?: string;
        /** @description Application names. Comma-separated; a row matches any item. */
        "filter[app_name]"?: string;
        /** @description Leaves out recordings whose value is one of these (NOT IN), ANDed with the filters. Member e-mail addresses (case-insensitive). Comma-separated. */
        "exclude[member_email]"?: string;
        /** @description Leaves out recordings whose value is one of these (NOT IN), ANDed with the filters. Voice models. Comma-separated. */
        "exclude[voice_model]"?: string;
        /** @description Leaves out recordings whose value is one of these (NOT IN), ANDed with the filters. Language models; the item `null` selects recordings without one. Comma-separated. */
        "exclude[language_model]"?: string;
        /** @description Leaves out recordings whose value is one of these (NOT IN), ANDed with the filters. Application names. Comma-separated. */
        "exclude[app_name]"?: string;
        /** @description Also answers for the previous range: previous_period ends where the range starts and is as long on the wall clock; previous_year is one calendar year earlier in the query zone. /stats rows gain previous_<metric> (the same group in the paired bucket); the summary gains previous and change. */
        compare?: "previous_period" | "previous_year";
        /** @description `active_members`: each row (on /stats/summary, the summary) gains active_members, the exact number of distinct members with at least one recording in it; with compare, previous_active_members too (the summary: in previous and change). On /stats, naming it adds complete to every row. */
        include?: "active_members";
        percentiles?: string;
      };
      header?: {
        /** @description `no-cache` (or `no-store`): compute the answer now instead of serving the kept one. Kept answers are exact: they are served only while no recording of the organization was counted since. */
        "cache-control"?: string;
        /** @description Entity tags of answers the client holds (an ETag of an earlier 200): when one is the tag the answer has now, the answer is 304 Not Modified with no body, and is not computed. `*` matches any answer. */
        "if-none-match"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Summary */
      200: {
        headers: {
          /** @description The instant (ISO 8601, UTC, milliseconds) up to which every partition of the topic has been applied: the answer holds every event produced before it. Absent while the store knows no such instant yet. */
          "X-Data-As-Of"?: string;
          /** @description Strong entity tag of this answer: the same for every answer with the same body (the parameters as read, the organization's data, the range as resolved and, with complete, which buckets are complete), another whenever the body could differ. X-Data-As-Of is not covered. A compressed body's tag names its coding ("…-gzip", "…-br"). */
          ETag: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Summary"];
        };
      };
      /** @description Not Modified: If-None-Match holds this answer's entity tag; no body. ETag names the answer the client holds; X-Data-As-Of is the current one. */
      304: {
        headers: {
          /** @description The instant (ISO 8601, UTC, milliseconds) up to which every partition of the topic has been applied: the answer holds every event produced before it. Absent while the store knows no such instant yet. */
          "X-Data-As-Of"?: string;
          /** @description Strong entity tag of this answer: the same for every answer with the same body (the parameters as read, the organization's data, the range as resolved and, with complete, which buckets are complete), another whenever the body could differ. X-Data-As-Of is not covered. A compressed body's tag names its coding ("…-gzip", "…-br"). */
          ETag: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Invalid parameters */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Missing, malformed, unknown or revoked bearer token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description The statistics store is unavailable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
  getStats: {
    parameters: {
      query?: {
        /** @description Start of the range (inclusive). Default: 7 days before end_date. ISO 8601: YYYY-MM-DD, optionally Thh:mm:ss, fractional seconds and a zone (Z or ±hh:mm, colon optional). */
        start_date?: string;
        /** @description End of the range; a date-only value includes that whole day. Default: now. ISO 8601: YYYY-MM-DD, optionally Thh:mm:ss, fractional seconds and a zone (Z or ±hh:mm, colon optional). */
        end_date?: string;
        /** @description IANA zone or ±hh:mm offset for reading dates and cutting buckets. Default: start_date's offset, else UTC. */
        timezone?: string;
        /** @description Member e-mail addresses (case-insensitive). Comma-separated; a row matches any item. */
        "filter[member_email]"?: string;
        /** @description Voice models. Comma-separated; a row matches any item. */
        "filter[voice_model]"?: string;
        /** @description Language models; the item `null` selects recordings without one. Comma-separated; a row matches any item. */
        "filter[language_model]"?: string;
        /** @description Application names. Comma-separated; a row matches any item. */
        "filter[app_name]"?: string;
        /** @description Leaves out recordings whose value is one of these (NOT IN), ANDed with the filters. Member e-mail addresses (case-insensitive). Comma-separated. */
        "exclude[member_email]"?: string;
        /** @description Leaves out recordings whose value is one of these (NOT IN), ANDed with the filters. Voice models. Comma-separated. */
        "exclude[voice_model]"?: string;
        /** @description Leaves out recordings whose value is one of these (NOT IN), ANDed with the filters. Language models; the item `null` selects recordings without one. Comma-separated. */
        "exclude[language_model]"?: string;
        /** @description Leaves out recordings whose value is one of these (NOT IN), ANDed with the filters. Application names. Comma-separated. */
        "exclude[app_name]"?: string;
        /** @description Bucket size in the query zone's calendar (quarters start on 1 January, April, July and October); `all`: one bucket, the whole range, labelled with its start. */
        granularity?: "hour" | "day" | "week" | "month" | "quarter" | "year" | "all";
        /** @description The day weeks start on (granularity=week), at local midnight in the query zone: monday (ISO weeks, the default) or sunday. Naming it, either value, adds complete to every row. */
        week_start?: "monday" | "sunday";
        group_by?: string;
        sort?: string;
        limit?: number;
        other?: "true" | "false";
        /** @description Every bucket of the range appears: without group_by a zero row for each empty bucket; with it a zero row for each group of the answer that a bucket lacks (before sort and limit). */
        fill?: "zero";
        /** @description Also answers for the previous range: previous_period ends where the range starts and is as long on the wall clock; previous_year is one calendar year earlier in the query zone. /stats rows gain previous_<metric> (the same group in the paired bucket); the summary gains previous and change. */
        compare?: "previous_period" | "previous_year";
        /** @description `active_members`: each row (on /stats/summary, the summary) gains active_members, the exact number of distinct members with at least one recording in it; with compare, previous_active_members too (the summary: in previous and change). On /stats, naming it adds complete to every row. */
        include?: "active_members";
        percentiles?: string;
        page?: number;
        page_size?: number;
        format?: "json" | "csv";
      };
      header?: {
        /** @description `no-cache` (or `no-store`): compute the answer now instead of serving the kept one. Kept answers are exact: they are served only while no recording of the organization was counted since. */
        "cache-control"?: string;
        /** @description Entity tags of answers the client holds (an ETag of an earlier 200): when one is the tag the answer has now, the answer is 304 Not Modified with no body, and is not computed. `*` matches any answer. */
        "if-none-match"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of statistics (JSON), or a CSV file with format=csv */
      200: {
        headers: {
          /** @description The instant (ISO 8601, UTC, milliseconds) up to which every partition of the topic has been applied: the answer holds every event produced before it. Absent while the store knows no such instant yet. */
          "X-Data-As-Of"?: string;
          /** @description Strong entity tag of this answer: the same for every answer with the same body (the parameters as read, the organization's data, the range as resolved and, with complete, which buckets are complete), another whenever the body could differ. X-Data-As-Of is not covered. A compressed body's tag names its coding ("…-gzip", "…-br"). */
          ETag: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["StatsPage"];
          "text/csv": string;
        };
      };
      /** @description Not Modified: If-None-Match holds this answer's entity tag; no body. ETag names the answer the client holds; X-Data-As-Of is the current one. */
      304: {
        headers: {
          /** @description The instant (ISO 8601, UTC, milliseconds) up to which every partition of the topic has been applied: the answer holds every event produced before it. Absent while the store knows no such instant yet. */
          "X-Data-As-Of"?: string;
          /** @description Strong entity tag of this answer: the same for every answer with the same body (the parameters as read, the organization's data, the range as resolved and, with complete, which buckets are complete), another whenever the body could differ. X-Data-As-Of is not covered. A compressed body's tag names its coding ("…-gzip", "…-br"). */
          ETag: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Invalid parameters */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Missing, malformed, unknown or revoked bearer token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
      /** @description The statistics store is unavailable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/problem+json": components["schemas"]["Problem"];
        };
      };
    };
  };
}
