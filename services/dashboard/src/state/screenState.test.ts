import { describe, expect, it } from "vitest";
import { cardsQuery, chartQuery, statsQuery, summaryQuery, topQuery, viewRange } from "./apiQuery";
import { defaultScreenState, screenStateFromUrl, screenStateToUrl, updateView } from "./screenState";

describe("view state ⇄ URL", () => {
  it("round-trips every setting", () => {
    const view = {
      ...defaultScreenState("Europe/Berlin"),
      range: "custom" as const,
      from: "2026-03-01",
      to: "2026-03-31",
      timezone: "Asia/Kathmandu",
      granularity: "week" as const,
      weekStart: "sunday" as const,
      groupBy: ["app_name", "voice_model"] as const,
      filters: {
        member_email: ["ada@example.com"],
        voice_model: [],
        language_model: ["gpt-4o", "null"],
        app_name: ["Zoom", "Slack & Teams"],
      },
      exclude: { member_email: [], voice_model: ["v2"], language_model: [], app_name: [] },
      metric: "minutes" as const,
      compare: "previous_year" as const,
      page: 3,
      pageSize: 100,
    };
    const url = screenStateToUrl(view).toString();
    expect(screenStateFromUrl(url, "UTC")).toEqual(view);
    expect(url).toBe(
      "range=custom&from=2026-03-01&to=2026-03-31&timezone=Asia%2FKathmandu&granularity=week&week_start=sunday&group_by=app_name%2Cvoice_model" +
        "&filter%5Bmember_email%5D=ada%40example.com&filter%5Blanguage_model%5D=gpt-4o%2Cnull" +
        "&filter%5Bapp_name%5D=Zoom%2CSlack+%26+Teams&exclude%5Bvoice_model%5D=v2&metric=minutes&compare=previous_year&page=3&page_size=100",
    );
  });

  it("writes the range and zone always, other defaults never", () => {
    expect(screenStateToUrl(defaultScreenState("America/New_York")).toString()).toBe(
      "range=last_30_days&timezone=America%2FNew_York",
    );
  });

  it("opens the default view in the browser's zone for an empty query string", () => {
    expect(screenStateFromUrl("", "Australia/Adelaide")).toEqual(defaultScreenState("Australia/Adelaide"));
  });

  it("reads group_by as up to two known dimensions, and anything else as no grouping", () => {
    expect(screenStateFromUrl("group_by=app_name, voice_model", "UTC").groupBy).toEqual([
      "app_name",
      "voice_model",
    ]);
    expect(screenStateFromUrl("group_by=app_name,org", "UTC").groupBy).toEqual([]);
    expect(screenStateFromUrl("group_by=app_name,voice_model,member_email", "UTC").groupBy).toEqual([]);
  });

  it("keeps one list per dimension: a filter drops the same dimension's exclusions", () => {
    const view = screenStateFromUrl(
      "filter[app_name]=Zoom&exclude[app_name]=Slack&exclude[voice_model]=v1",
      "UTC",
    );
    expect(view.filters.app_name).toEqual(["Zoom"]);
    expect(view.exclude.app_name).toEqual([]);
    expect(view.exclude.voice_model).toEqual(["v1"]);
  });

  it("falls back to defaults for anything it does not understand", () => {
    const view = screenStateFromUrl(
      "range=yesterday&timezone=Mars/Olympus&granularity=minute&week_start=saturday&group_by=org&metric=bytes&compare=previous_month&page=0&page_size=7",
      "UTC",
    );
    expect(view).toEqual(defaultScreenState("UTC"));
    // A custom range needs two real dates.
    expect(screenStateFromUrl("range=custom&from=2026-02-30&to=2026-03-01", "UTC").range).toBe(
      "last_30_days",
    );
  });

  it("reads filter lists as the API does: trimmed, empty items and repeats dropped", () => {
    const view = screenStateFromUrl("filter[app_name]= Zoom ,,Slack,Zoom&filter[voice_model]=,", "UTC");
    expect(view.filters.app_name).toEqual(["Zoom", "Slack"]);
    expect(view.filters.voice_model).toEqual([]);
  });

  it("sends the table back to page 1 when anything but the page changes", () => {
    const onPage3 = { ...defaultScreenState("UTC"), page: 3 };
    expect(updateView(onPage3, { page: 4 }).page).toBe(4);
    expect(updateView(onPage3, { granularity: "hour" }).page).toBe(1);
  });
});

describe("view state → API parameters", () => {
  const now = Date.parse("2026-03-31T10:15:00Z");

  it("gives the summary the range, zone and filters, and /stats also grouping and paging", () => {
    const view = screenStateFromUrl(
      "range=last_7_days&timezone=Europe/Berlin&granularity=hour&group_by=voice_model&filter[app_name]=Zoom,Slack&page=2",
      "UTC",
    );
    const range = viewRange(view, now);
    expect(summaryQuery(view, range)).toEqual({
      start_date: "2026-03-25T00:00:00+01:00",
      end_date: "2026-04-01T00:00:00+02:00",
      timezone: "Europe/Berlin",
      "filter[app_name]": "Zoom,Slack",
    });
    expect(statsQuery(view, range, { page: view.page, pageSize: 50, format: "csv" })).toEqual({
      start_date: "2026-03-25T00:00:00+01:00",
      end_date: "2026-04-01T00:00:00+02:00",
      timezone: "Europe/Berlin",
      "filter[app_name]": "Zoom,Slack",
      granularity: "hour",
      week_start: "monday",
      group_by: "voice_model",
      page: 2,
      page_size: 50,
      format: "csv",
      include: "active_members",
    });
  });

  it("sends exclusions to every operation, two-dimension grouping and fill=zero to the chart", () => {
    const view = screenStateFromUrl(
      "range=last_7_days&timezone=UTC&group_by=app_name,voice_model&exclude[member_email]=bot@example.com&exclude[language_model]=null",
      "UTC",
    );
    const range = viewRange(view, now);
    const exclusions = {
      "exclude[member_email]": "bot@example.com",
      "exclude[language_model]": "null",
    };
    expect(summaryQuery(view, range)).toMatchObject(exclusions);
    // The cards compare with the previous period; nothing else asks for it.
    expect(cardsQuery(view, range)).toEqual({
      ...summaryQuery(view, range),
      compare: "previous_period",
      include: "active_members",
    });
    // Or with the same dates a year back, when the view says so.
    expect(cardsQuery({ ...view, compare: "previous_year" }, range).compare).toBe("previous_year");
    expect(chartQuery(view, range, { page: 1, pageSize: 1000 })).not.toHaveProperty("compare");
    expect(chartQuery(view, range, { page: 1, pageSize: 1000 })).toMatchObject({
      ...exclusions,
      group_by: "app_name,voice_model",
      fill: "zero",
    });
    expect(statsQuery(view, range, { page: 1, pageSize: 50 }).fill).toBeUndefined();
    // The chart plots sums: it does not ask for the members the table shows.
    expect(chartQuery(view, range, { page: 1, pageSize: 1000 })).not.toHaveProperty("include");
  });

  it("asks the top 10 of a dimension over the whole range by minutes, with the exact rest", () => {
    const view = screenStateFromUrl(
      "range=last_7_days&timezone=UTC&group_by=voice_model&filter[app_name]=Zoom",
      "UTC",
    );
    expect(topQuery(view, viewRange(view, now), "member_email")).toEqual({
      start_date: "2026-03-25T00:00:00Z",
      end_date: "2026-04-01T00:00:00Z",
      timezone: "UTC",
      "filter[app_name]": "Zoom",
      granularity: "all",
      group_by: "member_email",
      sort: "-total_duration",
      limit: 10,
      other: "true",
      page_size: 11,
      include: "active_members",
    });
  });

  it("sends a custom range as whole local days, the last one included", () => {
    const view = screenStateFromUrl(
      "range=custom&from=2026-10-20&to=2026-10-25&timezone=Europe/London",
      "UTC",
    );
    const query = summaryQuery(view, viewRange(view, now));
    expect(query.start_date).toBe("2026-10-20T00:00:00+01:00");
    // 25 October 2026 is the day London leaves summer time: the day after starts at +00:00.
    expect(query.end_date).toBe("2026-10-26T00:00:00+00:00");
  });
});
