import { describe, expect, it } from "vitest";
import { statsQuery, summaryQuery, viewRange } from "./apiQuery";
import { defaultViewState, updateView, viewStateFromUrl, viewStateToUrl } from "./viewState";

describe("view state ⇄ URL", () => {
  it("round-trips every setting", () => {
    const view = {
      ...defaultViewState("Europe/Berlin"),
      range: "custom" as const,
      from: "2026-03-01",
      to: "2026-03-31",
      timezone: "Asia/Kathmandu",
      granularity: "week" as const,
      groupBy: "app_name" as const,
      filters: {
        member_email: ["ada@example.com"],
        voice_model: [],
        language_model: ["gpt-4o", "null"],
        app_name: ["Zoom", "Slack & Teams"],
      },
      metric: "minutes" as const,
      page: 3,
      pageSize: 100,
    };
    const url = viewStateToUrl(view).toString();
    expect(viewStateFromUrl(url, "UTC")).toEqual(view);
    expect(url).toBe(
      "range=custom&from=2026-03-01&to=2026-03-31&timezone=Asia%2FKathmandu&granularity=week&group_by=app_name" +
        "&filter%5Bmember_email%5D=ada%40example.com&filter%5Blanguage_model%5D=gpt-4o%2Cnull" +
        "&filter%5Bapp_name%5D=Zoom%2CSlack+%26+Teams&metric=minutes&page=3&page_size=100",
    );
  });

  it("writes the range and zone always, other defaults never", () => {
    expect(viewStateToUrl(defaultViewState("America/New_York")).toString()).toBe(
      "range=last_30_days&timezone=America%2FNew_York",
    );
  });

  it("opens the default view in the browser's zone for an empty query string", () => {
    expect(viewStateFromUrl("", "Australia/Adelaide")).toEqual(defaultViewState("Australia/Adelaide"));
  });

  it("falls back to defaults for anything it does not understand", () => {
    const view = viewStateFromUrl(
      "range=yesterday&timezone=Mars/Olympus&granularity=minute&group_by=org&metric=bytes&page=0&page_size=7",
      "UTC",
    );
    expect(view).toEqual(defaultViewState("UTC"));
    // A custom range needs two real dates.
    expect(viewStateFromUrl("range=custom&from=2026-02-30&to=2026-03-01", "UTC").range).toBe("last_30_days");
  });

  it("reads filter lists as the API does: trimmed, empty items and repeats dropped", () => {
    const view = viewStateFromUrl("filter[app_name]= Zoom ,,Slack,Zoom&filter[voice_model]=,", "UTC");
    expect(view.filters.app_name).toEqual(["Zoom", "Slack"]);
    expect(view.filters.voice_model).toEqual([]);
  });

  it("sends the table back to page 1 when anything but the page changes", () => {
    const onPage3 = { ...defaultViewState("UTC"), page: 3 };
    expect(updateView(onPage3, { page: 4 }).page).toBe(4);
    expect(updateView(onPage3, { granularity: "hour" }).page).toBe(1);
  });
});

describe("view state → API parameters", () => {
  const now = Date.parse("2026-03-31T10:15:00Z");

  it("gives the summary the range, zone and filters, and /stats also grouping and paging", () => {
    const view = viewStateFromUrl(
      "range=last_7_days&timezone=Europe/Berlin&granularity=hour&group_by=voice_model&filter[app_name]=Zoom,Slack&page=2",
      "UTC",
    );
    const range = viewRange(view, now);
    expect(Object.fromEntries(summaryQuery(view, range))).toEqual({
      start_date: "2026-03-25T00:00:00+01:00",
      end_date: "2026-04-01T00:00:00+02:00",
      timezone: "Europe/Berlin",
      "filter[app_name]": "Zoom,Slack",
    });
    expect(
      Object.fromEntries(statsQuery(view, range, { page: view.page, pageSize: 50, format: "csv" })),
    ).toEqual({
      start_date: "2026-03-25T00:00:00+01:00",
      end_date: "2026-04-01T00:00:00+02:00",
      timezone: "Europe/Berlin",
      "filter[app_name]": "Zoom,Slack",
      granularity: "hour",
      group_by: "voice_model",
      page: "2",
      page_size: "50",
      format: "csv",
    });
  });

  it("sends a custom range as whole local days, the last one included", () => {
    const view = viewStateFromUrl("range=custom&from=2026-10-20&to=2026-10-25&timezone=Europe/London", "UTC");
    const params = summaryQuery(view, viewRange(view, now));
    expect(params.get("start_date")).toBe("2026-10-20T00:00:00+01:00");
    // 25 October 2026 is the day London leaves summer time: the day after starts at +00:00.
    expect(params.get("end_date")).toBe("2026-10-26T00:00:00+00:00");
  });
});
