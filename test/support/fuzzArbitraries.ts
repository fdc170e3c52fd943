import fc from "fast-check";

/** Keys a client might send: every real one, near misses, prototype names, odd brackets. */
const KEYS = [
  "start_date",
  "end_date",
  "timezone",
  "granularity",
  "group_by",
  "page",
  "page_size",
  "format",
  "filter[member_email]",
  "filter[voice_model]",
  "filter[language_model]",
  "filter[app_name]",
  "filter[team]",
  "filter[]",
  "filter",
  "page[]",
  "start_date[]",
  "__proto__",
  "constructor",
  "hasOwnProperty",
  "granularty",
  // docs/contract.md §7
  "exclude[member_email]",
  "exclude[language_model]",
  "exclude[app_name]",
  "exclude[team]",
  "exclude",
  "sort",
  "limit",
  "other",
  "fill",
  "compare",
  // docs/contract.md §9
  "week_start",
  "include",
];

const ZONES = [
  "UTC",
  "utc",
  "Z",
  "GMT",
  "Etc/UTC",
  "Europe/Berlin",
  "europe/berlin",
  "America/New_York",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Australia/Lord_Howe",
  "Pacific/Kiritimati",
  "Etc/GMT+12",
  "Etc/GMT-14",
  "America/St_Johns",
  "Africa/Casablanca",
  "Antarctica/Troll",
  "America/Sao_Paulo",
  "Europe/London",
  "+23:59",
  "-23:59",
  "+00:00",
  "-0000",
  "+05:30",
  "+0545",
  "+24:00",
  "05:30",
  "Mars/Olympus",
  "",
];

const pad = (n: number, width: number) => String(Math.abs(n)).padStart(width, "0");

/** Dates in and around the seed's format: any year, impossible days, offsets out of range. */
const dateText = fc.oneof(
  fc
    .date({
      min: new Date("0001-01-01T00:00:00Z"),
      max: new Date("9999-12-31T23:59:59Z"),
      noInvalidDate: true,
    })
    .chain((d) =>
      fc.constantFrom(
        d.toISOString(),
        d.toISOString().slice(0, 10),
        d.toISOString().slice(0, 19),
        d.toISOString().replace("Z", "+0530"),
      ),
    ),
  fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
      fc.option(
        fc.tuple(
          fc.integer({ min: 0, max: 25 }),
          fc.integer({ min: 0, max: 61 }),
          fc.integer({ min: 0, max: 61 }),
        ),
      ),
      fc.option(fc.stringMatching(/^\.\d{1,12}$/)),
      fc.option(fc.constantFrom("Z", "+05:30", "-0800", "+23:59", "+99:99", " 01:00", "+1", "z")),
    )
    .map(([y, m, d, time, fraction, zone]) => {
      const date = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
      const clock = time ? `T${pad(time[0], 2)}:${pad(time[1], 2)}:${pad(time[2], 2)}${fraction ?? ""}` : "";
      return `${date}${clock}${zone ?? ""}`;
    }),
);

const numberText = fc.oneof(
  fc.integer({ min: -5, max: 1_005 }).map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.double().map(String),
  fc.constantFrom("9007199254740991", "9007199254740993", "1e3", "0x10", "0001", " 7", "7 ", "+1", "-0", ""),
);

const valueText = fc.oneof(
  dateText,
  numberText,
  fc.constantFrom(...ZONES),
  fc.constantFrom("hour", "day", "week", "month", "minute", "DAY", "json", "csv", "xml", "null", ",", " , ,"),
  fc.constantFrom("member_email", "voice_model", "language_model", "app_name", "team"),
  // docs/contract.md §7's values, and near misses
  fc.constantFrom(
    "all",
    "zero",
    "true",
    "false",
    "app_name,member_email",
    "app_name,app_name",
    "member_email,voice_model,language_model,app_name",
    "-total_words,app_name",
    "-avg_wpm",
    "--total_words",
    "-",
    "(other)",
    "previous_period",
    "previous_year",
    // docs/contract.md §9
    "active_members",
    "-active_members",
    "active_members,member_emails",
  ),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
);

/** How a pair is written into the query string: encoded, raw (whatever the URL parser makes of it). */
const pair = fc
  .tuple(
    fc.oneof(
      { weight: 20, arbitrary: fc.constantFrom(...KEYS) },
      fc.string({ unit: "grapheme", maxLength: 12 }),
    ),
    valueText,
    fc.constantFrom("encoded", "raw", "broken-percent"),
  )
  .map(([key, value, style]) => {
    if (style === "encoded") return `${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
    if (style === "raw") return `${key}=${value}`;
    return `${encodeURIComponent(key)}=${encodeURIComponent(value)}%E0%A4%A%zz%`;
  });

/** A random query string for any of the three endpoints. */
export const queryStringArbitrary = fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.join("&"));

export const pathArbitrary = fc.constantFrom(
  "/api/v1/stats",
  "/api/v1/stats/summary",
  "/api/v1/stats/dimensions",
);

/**
 * A query of real parameters with plausible-looking values (each at most once), so that random
 * dates, zones and granularities meet in the planner rather than stopping at the first check.
 */
const nearbyRange = fc
  .tuple(
    fc.date({
      min: new Date("0001-01-01T00:00:00Z"),
      max: new Date("9999-01-01T00:00:00Z"),
      noInvalidDate: true,
    }),
    fc.integer({ min: 0, max: 400 * 86_400_000 }),
    fc.boolean(),
  )
  .map(([start, length, dateOnly]) => {
    const text = (d: Date) => (dateOnly ? d.toISOString().slice(0, 10) : d.toISOString().slice(0, 19));
    return {
      start_date: text(start),
      end_date: text(new Date(Math.min(start.getTime() + length, 253_402_300_799_000))),
    };
  });

const plausibleQuery = fc
  .tuple(
    fc.oneof(nearbyRange, fc.record({ start_date: dateText, end_date: dateText }, { requiredKeys: [] })),
    fc.record(
      {
        timezone: fc.constantFrom(...ZONES),
        granularity: fc.constantFrom("hour", "day", "week", "month", "quarter", "year", "all"),
        week_start: fc.constantFrom("monday", "sunday", "saturday", ""),
        group_by: fc.constantFrom(
          "member_email",
          "voice_model",
          "language_model",
          "app_name",
          "app_name,language_model",
          "member_email, voice_model,language_model,app_name",
        ),
        page: numberText,
        page_size: numberText,
        format: fc.constantFrom("json", "csv"),
        "filter[app_name]": fc.string({ unit: "grapheme", maxLength: 20 }),
        "filter[language_model]": fc.constantFrom("null", "A-lm,null", " , "),
        "exclude[language_model]": fc.constantFrom("null", "A-lm", " , "),
        "exclude[app_name]": fc.string({ unit: "grapheme", maxLength: 20 }),
        sort: fc.constantFrom(
          "-total_words",
          "app_name,-recording_count",
          "avg_wpm",
          "-language_model",
          "words",
          "-active_members,app_name",
        ),
        limit: numberText,
        other: fc.constantFrom("true", "false", "yes"),
        fill: fc.constantFrom("zero", "none"),
        compare: fc.constantFrom("previous_period", "previous_year", "previous_month"),
        include: fc.constantFrom("active_members", "active_members", "members"),
      },
      { requiredKeys: [] },
    ),
  )
  .map(([range, rest]) =>
    Object.entries({ ...range, ...rest })
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
      .join("&"),
  );

/** Half chaos (any keys, raw bytes), half plausible queries. */
export const anyQueryArbitrary = fc.oneof(queryStringArbitrary, plausibleQuery);
