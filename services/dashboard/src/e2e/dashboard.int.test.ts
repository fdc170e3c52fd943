import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Dimension } from "@vu/events/vocabulary";
import { stderrLog } from "@vu/infra";
import { recording } from "@vu/testkit";
import { DateTime } from "luxon";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StatsPage, StatsRow, Summary } from "../api/types";
import { type DashboardStack, startDashboardStack } from "./dashboardStack";
import {
  readCards,
  readChart,
  readDataAsOf,
  readProcessing,
  readTable,
  readTopTable,
  recordApiRequests,
  recordSummaryAsOf,
  settled,
} from "./pageReaders";

// The dashboard as a user meets it: headless Chromium (Debian's package, driven by playwright-core)
// against the real API, over recordings produced to Kafka and counted by the real worker. What the
// page shows is compared with what the API answers for the same query.

let stack: DashboardStack;
/**
 * For every `expect.poll`: Chromium and the API share two cores, so what the page does after an
 * action can take well over vitest's default second; a poll waits for it to happen, not for speed.
 */
const POLL = { timeout: 30_000 } as const;
beforeAll(async () => {
  stack = await startDashboardStack({ suite: "dashboard", recordings: 2_500, days: 200, log: stderrLog });
});
afterAll(async () => {
  await stack?.close();
});

const apiJson = async <T>(url: URL, token = stack.token): Promise<T> => {
  const res = await stack.api.get(`${url.pathname}${url.search}`, token);
  expect(res.status, `${url}`).toBe(200);
  return (await res.json()) as T;
};
const last = <T>(items: T[]): T => {
  const item = items.at(-1);
  if (item === undefined) throw new Error("the page made no such request");
  return item;
};

async function signIn(page: Page, token = stack.token): Promise<void> {
  await page.getByLabel("API token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Runs a user action and waits until the view it started has settled. */
async function act(page: Page, recorder: ReturnType<typeof recordApiRequests>, action: () => Promise<void>) {
  recorder.clear();
  await action();
  await expect.poll(() => recorder.urls().length, POLL).toBeGreaterThan(0);
  return settled(page);
}

/** The rows table's /stats requests: neither the chart's (fill) nor the top 10's (limit). */
const tableQueries = (recorder: ReturnType<typeof recordApiRequests>) =>
  recorder
    .urls()
    .filter(
      (u) => u.pathname === "/api/v1/stats" && !u.searchParams.has("fill") && !u.searchParams.has("limit"),
    );

/** Every row of a /stats query, all pages (the chart's input). */
async function allRows(firstPage: URL, token = stack.token): Promise<StatsRow[]> {
  const rows: StatsRow[] = [];
  for (let page = 1; ; page++) {
    const url = new URL(firstPage);
    url.searchParams.set("page", String(page));
    const answer = await apiJson<StatsPage>(url, token);
    rows.push(...answer.data);
    if (page >= answer.pagination.total_pages) return rows;
  }
}

const METRIC_FIELD = {
  recordings: "recording_count",
  minutes: "total_duration",
  words: "total_words",
} as const;
/** The chart plots minutes; rows carry milliseconds. */
const inChartUnit = (metric: keyof typeof METRIC_FIELD, sum: number) =>
  metric === "minutes" ? sum / 60_000 : sum;

/** The processing times the processing-time view shows, in the API's row order: each average, then its p95. */
const processingFields = (percentile: boolean) =>
  ["voice", "llm"].flatMap((time) => [
    `avg_${time}_processing_time`,
    ...(percentile ? [`p95_${time}_processing_time`] : []),
  ]);

/**
 * Cards, chart, processing-time view and table equal the API's JSON for the queries the page made
 * (with `token`'s organization); `percentile`: whether that organization keeps percentile sketches,
 * so that the cards and the processing-time view show p95 (else they say it is not kept).
 */
async function expectPageMatchesApi(
  page: Page,
  urls: URL[],
  { token = stack.token, percentile = true }: { token?: string; percentile?: boolean } = {},
): Promise<void> {
  const summaryUrl = last(urls.filter((u) => u.pathname === "/api/v1/stats/summary"));
  const stats = urls.filter((u) => u.pathname === "/api/v1/stats");
  // The chart asks for every bucket (fill=zero) of the view's groups, the top tables for a ranking
  // (limit), the table neither; the processing-time view for every bucket, ungrouped.
  const viewGroupBy = new URL(page.url()).searchParams.get("group_by");
  const chartUrl = last(
    stats.filter(
      (u) => u.searchParams.get("fill") === "zero" && u.searchParams.get("group_by") === viewGroupBy,
    ),
  );
  const processingUrl = last(
    stats.filter((u) => u.searchParams.get("fill") === "zero" && !u.searchParams.has("group_by")),
  );
  const tableUrl = last(stats.filter((u) => !u.searchParams.has("fill") && !u.searchParams.has("limit")));
  const topUrls = TOP.map((dimension) =>
    last(stats.filter((u) => u.searchParams.has("limit") && u.searchParams.get("group_by") === dimension)),
  );
  // One resolved range, and the same filters and exclusions, for every part of the view.
  const shared = (url: URL) =>
    [...url.searchParams].filter(([key]) => /^(start_date|end_date|timezone|filter\[|exclude\[)/.test(key));
  for (const url of [chartUrl, processingUrl, tableUrl, ...topUrls]) {
    expect(shared(url), `${url}`).toEqual(shared(summaryUrl));
  }

  // The cards: the totals, and each one's change against the previous period, as the API answers.
  // As the view asks (the page's URL), the previous period unless it says otherwise.
  const compare = new URL(page.url()).searchParams.get("compare") ?? "previous_period";
  expect(summaryUrl.searchParams.get("compare")).toBe(compare);
  const summary = await apiJson<Summary>(summaryUrl, token);
  expect(summary.previous).toBeDefined();
  expect(await readCards(page)).toEqual(summary);

  // p95 beside the averages, from the same requests (docs/contract.md §9 `percentiles`); an
  // organization counted without sketches is asked again without, and the page says so.
  const p95 = percentile ? "95" : null;
  expect(summaryUrl.searchParams.get("percentiles")).toBe(p95);
  expect(processingUrl.searchParams.get("percentiles")).toBe(p95);
  if (percentile) {
    expect(summary).toHaveProperty("p95_voice_processing_seconds");
    expect(summary).toHaveProperty("p95_llm_processing_seconds");
  }
  expect(await page.locator(".card.percentile").count()).toBe(percentile ? 2 : 0);
  expect(await page.locator(".percentile-note").count()).toBe(percentile ? 0 : 2);
  const fields = processingFields(percentile);
  expect(
    await page
      .locator(".legend [data-line]")
      .evaluateAll((items) => items.map((li) => li.getAttribute("data-line"))),
  ).toEqual(fields);
  const processingRows = await allRows(processingUrl, token);
  expect(processingRows.some((r) => r.recording_count > 0)).toBe(true);
  expect(await readProcessing(page)).toEqual(
    processingRows.map((row) => ({
      time_bucket: row.time_bucket,
      ...Object.fromEntries(fields.map((field) => [field, row[field as keyof StatsRow]])),
      complete: row.complete,
    })),
  );
  if (percentile) {
    // The API has p95 where the bucket has recordings, and the page shows each.
    const shown = await readProcessing(page);
    expect(shown.some((r) => typeof r.p95_voice_processing_time === "number")).toBe(true);
  }

  const table = await apiJson<StatsPage>(tableUrl, token);
  expect(await readTable(page)).toEqual(table.data);
  await expect
    .poll(() => page.locator(".pager-position").textContent(), POLL)
    .toContain(`${table.pagination.total_rows.toLocaleString("en")} rows`);

  const view = new URL(page.url()).searchParams;
  const metric = (view.get("metric") ?? "recordings") as keyof typeof METRIC_FIELD;
  const field = METRIC_FIELD[metric];
  const groupBy = (chartUrl.searchParams.get("group_by")?.split(",") ?? []) as Dimension[];
  const rows = await allRows(chartUrl, token);
  const chart = await readChart(page);
  // Per bucket, the stack's height is the API's sum of that bucket.
  const perBucket = new Map<number, number>();
  for (const row of rows)
    perBucket.set(
      Date.parse(row.time_bucket),
      (perBucket.get(Date.parse(row.time_bucket)) ?? 0) + row[field],
    );
  const chartTotals = new Map(chart.rows.map((r) => [r.bucketMs, r.values.reduce((a, b) => a + b, 0)]));
  for (const [bucket, sum] of perBucket) {
    expect(chartTotals.get(bucket), new Date(bucket).toISOString()).toBeCloseTo(inChartUnit(metric, sum), 6);
  }
  const emptyBuckets = [...chartTotals].filter(([bucket]) => !perBucket.has(bucket));
  expect(emptyBuckets.every(([, sum]) => sum === 0)).toBe(true);
  // Per group, each named series is the API's rows of that group.
  // fill=zero: every bucket of the range is in the API's answer and on the chart.
  expect(chart.rows.map((r) => r.bucketMs)).toEqual([...perBucket.keys()].sort((a, b) => a - b));
  if (groupBy.length > 0) {
    chart.labels.forEach((label, i) => {
      if (label.startsWith("Other (")) return;
      const fromApi = rows.filter((r) => labelOf(r, groupBy) === label);
      expect(fromApi.length, label).toBeGreaterThan(0);
      const plotted = chart.rows.reduce((n, r) => n + (r.values[i] ?? 0), 0);
      expect(plotted, label).toBeCloseTo(
        inChartUnit(
          metric,
          fromApi.reduce((n, r) => n + r[field], 0),
        ),
        6,
      );
    });
  }

  // The top 10 tables: the API's ranking, "(other)" last; together they are the whole range.
  for (const [i, dimension] of TOP.entries()) {
    const top = await apiJson<StatsPage>(topUrls[i] as URL, token);
    // One bucket, the whole range: the table leaves out its time_bucket, and the complete that
    // include=active_members brings (docs/contract.md §9), the same on every row of that bucket.
    expect(new Set(top.data.map((r) => r.time_bucket))).toEqual(new Set([top.meta.start_date]));
    expect(top.data.every((r) => typeof r.complete === "boolean")).toBe(true);
    const ranked = top.data.map(({ time_bucket: _, complete: __, ...row }) => row);
    expect(await readTopTable(page, dimension), dimension).toEqual(ranked);
    expect(top.data.reduce((n, r) => n + r.recording_count, 0)).toBe(summary.total_recordings);
  }
}

const TOP = ["member_email", "app_name"] as const;

/** With DASHBOARD_E2E_SCREENSHOTS=<dir>, a full-page picture of the view, to look at by eye. */
async function screenshot(page: Page, file: string): Promise<void> {
  const dir = process.env.DASHBOARD_E2E_SCREENSHOTS;
  if (dir) await page.screenshot({ path: `${dir}/${file}`, fullPage: true });
}

/** A group's label as the chart writes it: the values in the order grouped, null in words. */
const labelOf = (row: StatsRow, groupBy: readonly Dimension[]) =>
  groupBy.map((d) => row[d] ?? (d === "language_model" ? "(no language model)" : "(none)")).join(" · ");

describe("the dashboard in headless Chromium", () => {
  it("signs in, follows zone, granularity, group_by and a filter, and shows exactly the API's numbers", async () => {
    const context = await stack.newContext({
      viewport: { width: 1280, height: 800 },
      timezoneId: "Europe/Berlin",
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    page.on("pageerror", (e) => problems.push(e.message));
    const recorder = recordApiRequests(page);
    const summaryAsOf = recordSummaryAsOf(page);

    const response = await page.goto("/");
    expect(new URL(page.url()).pathname).toBe("/dashboard/");
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
    expect(await settled(page)).toBe("signed-out");

    expect(await act(page, recorder, () => signIn(page))).toBe("ready");
    // The token is kept in this tab's sessionStorage, never in the URL; the zone is the browser's.
    expect(page.url()).not.toContain(stack.token);
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([stack.token]);
    expect(new URL(page.url()).searchParams.get("timezone")).toBe("Europe/Berlin");
    await expectPageMatchesApi(page, recorder.urls());
    await screenshot(page, "p95-1280.png");
    // The 30 days before had recordings too: every card shows a change, in numbers and in words.
    const { change } = (await readCards(page)) as { change: Record<string, number | null> };
    expect(Object.values(change).every((v) => typeof v === "number")).toBe(true);
    // docs/contract.md §9: a card counts the members who recorded in the range, as the API does
    // (readCards compared its number with the summary's), and the table has their column.
    const activeCard = page.locator('.card[data-field="active_members"]');
    expect(await activeCard.locator(".card-label").textContent()).toBe("Active members");
    expect(Number(await activeCard.getAttribute("data-value"))).toBeGreaterThan(0);
    expect(await page.locator("table.stats thead th").allTextContents()).toContain("Active members");
    expect(await page.locator(".card-change").first().textContent()).toMatch(/%.* in the previous period$/);
    // The header says how current the numbers are: the summary's X-Data-As-Of, in the view's zone.
    const asOf = summaryAsOf();
    expect(asOf, "the API sends X-Data-As-Of").toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(Date.parse(asOf ?? "")).toBeLessThanOrEqual(Date.now());
    const berlin = DateTime.fromISO(asOf ?? "", { zone: "Europe/Berlin" }).toFormat("d LLL yyyy, HH:mm:ss");
    expect(await readDataAsOf(page)).toEqual({ text: `Data as of ${berlin}`, datetime: asOf });

    // Finance compares with the same dates last year: the cards then carry that period's numbers.
    await act(page, recorder, () =>
      page
        .getByLabel("Compare with")
        .selectOption("previous_year")
        .then(() => undefined),
    );
    const yearBack = last(recorder.urls().filter((u) => u.pathname === "/api/v1/stats/summary"));
    expect(yearBack.searchParams.get("compare")).toBe("previous_year");
    expect(new URL(page.url()).searchParams.get("compare")).toBe("previous_year");
    await expectPageMatchesApi(page, recorder.urls());
    expect(await page.locator(".card-change").first().textContent()).toMatch(
      / in the same period last year$/,
    );

    await act(page, recorder, async () => {
      await page.getByLabel("Time zone").fill("America/New_York");
      await page.getByLabel("Time zone").press("Enter");
    });
    expect(last(recorder.urls()).searchParams.get("timezone")).toBe("America/New_York");
    await expectPageMatchesApi(page, recorder.urls());

    await act(page, recorder, () =>
      page
        .getByLabel("Granularity")
        .selectOption("week")
        .then(() => undefined),
    );
    await act(page, recorder, () =>
      page
        .getByLabel("Range")
        .selectOption("last_quarter")
        .then(() => undefined),
    );
    expect(last(tableQueries(recorder)).searchParams.get("granularity")).toBe("week");
    await expectPageMatchesApi(page, recorder.urls());

    await act(page, recorder, () =>
      page
        .getByLabel("Group by")
        .selectOption("member_email")
        .then(() => undefined),
    );
    await expectPageMatchesApi(page, recorder.urls());
    await screenshot(page, "p95-grouped-1280.png");
    // About a dozen members: the top groups and "Other".
    expect((await readChart(page)).labels.at(-1)).toMatch(/^Other \(\d+ groups?\)$/);

    // The table pages with the API: 25 rows a page, then page 2 (a quarter of weekly rows per member).
    await act(page, recorder, () =>
      page
        .getByLabel("Rows per page")
        .selectOption("25")
        .then(() => undefined),
    );
    await act(page, recorder, () => page.getByRole("button", { name: "Next" }).click());
    expect(new URL(page.url()).searchParams.get("page")).toBe("2");
    expect(last(tableQueries(recorder)).searchParams.get("page_size")).toBe("25");
    await expectPageMatchesApi(page, recorder.urls());

    const apps = await page.locator('select[name="filter-app_name"] option').allTextContents();
    const chosen = apps.slice(0, 2);
    await act(page, recorder, () =>
      page
        .locator('select[name="filter-app_name"]')
        .selectOption(chosen)
        .then(() => undefined),
    );
    expect(last(recorder.urls()).searchParams.get("filter[app_name]")).toBe(chosen.join(","));
    await expectPageMatchesApi(page, recorder.urls());

    // Minutes for the chart: no new request needed, the same rows plotted in another unit.
    await page.getByLabel("Chart shows").selectOption("minutes");
    await expectPageMatchesApi(page, recorder.urls());

    // A bookmark: the URL alone restores the view.
    const bookmark = page.url();
    await act(page, recorder, () => page.reload().then(() => undefined));
    expect(page.url()).toBe(bookmark);
    await expect.poll(() => page.getByLabel("Group by").inputValue(), POLL).toBe("member_email");
    expect(await page.getByLabel("Time zone").inputValue()).toBe("America/New_York");
    await expectPageMatchesApi(page, recorder.urls());

    expect(problems).toEqual([]);
    await context.close();
  });

  it("groups by two dimensions, leaves values out, picks members from the API and ranks the top 10", async () => {
    const context = await stack.newContext({
      viewport: { width: 1280, height: 800 },
      timezoneId: "Asia/Kathmandu",
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    const recorder = recordApiRequests(page);
    // Every recording of the stack (its 200 days), so every member is in the range.
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const from = day(Date.now() - 202 * 86_400_000);
    await page.goto(
      `/dashboard/?range=custom&from=${from}&to=${day(Date.now() + 86_400_000)}&granularity=month`,
    );
    expect(await act(page, recorder, () => signIn(page))).toBe("ready");
    await expectPageMatchesApi(page, recorder.urls());
    expect((await readCards(page)).total_recordings).toBe(stack.recordings);
    // Before the stack's first recording there is nothing to compare with: the API's null, in words.
    const cards = (await readCards(page)) as { change: Record<string, number | null> };
    expect(Object.values(cards.change).every((v) => v === null)).toBe(true);
    expect(await page.locator(".card-change").first().textContent()).toBe("none in the previous period");
    // Twelve members: ten ranked, and the exact rest in one "(other)" row, last.
    const everyone = await apiJson<{ member_emails: string[] }>(
      new URL("/api/v1/stats/dimensions?include=member_emails", stack.api.baseUrl),
    );
    expect(everyone.member_emails.length).toBeGreaterThan(10);
    const members = await readTopTable(page, "member_email");
    expect(members).toHaveLength(11);
    expect(members.at(-1)?.member_email).toBe("(other)");
    // Every member recorded: the card counts them all, each ranked row is one member, and the rest
    // row is every other member, each once.
    expect((await readCards(page)).active_members).toBe(everyone.member_emails.length);
    expect(members.slice(0, 10).every((row) => row.active_members === 1)).toBe(true);
    expect(members.at(-1)?.active_members).toBe(everyone.member_emails.length - 10);

    // Two dimensions: app × voice model, one column and one chart series per combination.
    await act(page, recorder, () =>
      page
        .getByLabel("Group by")
        .selectOption("app_name")
        .then(() => undefined),
    );
    await act(page, recorder, () =>
      page
        .getByLabel("And by")
        .selectOption("voice_model")
        .then(() => undefined),
    );
    expect(new URL(page.url()).searchParams.get("group_by")).toBe("app_name,voice_model");
    expect(
      last(
        recorder.urls().filter((u) => u.searchParams.has("fill") && u.searchParams.has("group_by")),
      ).searchParams.get("group_by"),
    ).toBe("app_name,voice_model");
    await expectPageMatchesApi(page, recorder.urls());
    expect(Object.keys((await readTable(page))[0] ?? {})).toEqual(
      expect.arrayContaining(["app_name", "voice_model"]),
    );
    expect((await readChart(page)).labels[0]).toContain(" · ");

    // Leave an app out: exclude[app_name] on every request, and the app gone from every part.
    const unfiltered = await readCards(page);
    const apps = await page.locator('select[name="filter-app_name"] option').allTextContents();
    const leftOut = apps[0] ?? "";
    await act(page, recorder, () =>
      page
        .locator('select[name="filter-app_name"]')
        .selectOption([leftOut])
        .then(() => undefined),
    );
    await act(page, recorder, () => page.getByRole("checkbox", { name: "Leave these out (App)" }).check());
    expect(new URL(page.url()).searchParams.get("exclude[app_name]")).toBe(leftOut);
    expect(new URL(page.url()).searchParams.has("filter[app_name]")).toBe(false);
    for (const url of recorder.urls().filter((u) => u.pathname !== "/api/v1/stats/dimensions")) {
      expect(url.searchParams.get("exclude[app_name]"), `${url}`).toBe(leftOut);
    }
    await expectPageMatchesApi(page, recorder.urls());
    expect((await readTable(page)).some((row) => row.app_name === leftOut)).toBe(false);
    expect((await readTopTable(page, "app_name")).some((row) => row.app_name === leftOut)).toBe(false);
    expect((await readCards(page)).total_recordings).toBeLessThan(Number(unfiltered.total_recordings));

    // The member picker asks /stats/dimensions for what is typed and offers the API's members.
    const member = String(members[0]?.member_email);
    const typed = member.slice(0, 3);
    recorder.clear();
    await page.getByLabel("Members", { exact: true }).fill(typed);
    await expect.poll(() => page.locator("#member-suggestions").getAttribute("data-for"), POLL).toBe(typed);
    const asked = last(recorder.urls().filter((u) => u.pathname === "/api/v1/stats/dimensions"));
    expect(asked.searchParams.get("q")).toBe(typed);
    expect(asked.searchParams.get("include")).toBe("member_emails");
    const offered = await page
      .locator("#member-suggestions option")
      .evaluateAll((options) => options.map((o) => o.getAttribute("value")));
    const { member_emails } = await apiJson<{ member_emails: string[] }>(asked);
    expect(offered).toEqual(member_emails);
    expect(offered).toContain(member);
    // "Leave these out" before choosing: no new view yet, the member chosen next is left out.
    const leaveOutMembers = page.getByRole("checkbox", { name: "Leave these out (Member)" });
    await leaveOutMembers.check();
    expect(new URL(page.url()).searchParams.has("exclude[member_email]")).toBe(false);
    await act(page, recorder, async () => {
      await page.getByLabel("Members", { exact: true }).fill(member);
      await page.getByLabel("Members", { exact: true }).press("Enter");
    });
    expect(new URL(page.url()).searchParams.get("exclude[member_email]")).toBe(member);
    expect(await leaveOutMembers.isChecked()).toBe(true);
    await expectPageMatchesApi(page, recorder.urls());
    expect((await readTopTable(page, "member_email")).some((row) => row.member_email === member)).toBe(false);
    // Unchecked, the same member is the only one kept: filter[member_email].
    await act(page, recorder, () => leaveOutMembers.uncheck());
    expect(new URL(page.url()).searchParams.get("filter[member_email]")).toBe(member);
    expect(new URL(page.url()).searchParams.has("exclude[member_email]")).toBe(false);
    await expectPageMatchesApi(page, recorder.urls());
    expect((await readTopTable(page, "member_email")).map((row) => row.member_email)).toEqual([member]);

    // The whole view, exclusions and both dimensions, comes back from the URL alone.
    const bookmark = page.url();
    await act(page, recorder, () => page.reload().then(() => undefined));
    expect(page.url()).toBe(bookmark);
    await expect.poll(() => page.getByLabel("And by").inputValue(), POLL).toBe("voice_model");
    expect(await page.getByRole("checkbox", { name: "Leave these out (App)" }).isChecked()).toBe(true);
    await expectPageMatchesApi(page, recorder.urls());
    expect(problems).toEqual([]);
    await context.close();
  });

  it("cuts quarters and Sunday weeks and marks the periods still counting, as the API says", async () => {
    const context = await stack.newContext({
      viewport: { width: 1280, height: 800 },
      timezoneId: "Europe/Berlin",
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    const recorder = recordApiRequests(page);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const from = day(Date.now() - 202 * 86_400_000);
    await page.goto(
      `/dashboard/?range=custom&from=${from}&to=${day(Date.now() + 86_400_000)}&granularity=quarter`,
    );
    expect(await act(page, recorder, () => signIn(page))).toBe("ready");
    await expectPageMatchesApi(page, recorder.urls());
    const quarters = last(tableQueries(recorder));
    expect(quarters.searchParams.get("granularity")).toBe("quarter");
    // Named though it is the default: the rows then say whether they are complete.
    expect(quarters.searchParams.get("week_start")).toBe("monday");
    const rows = await readTable(page);
    // Over 200 days: earlier quarters have ended, the current one (ending tomorrow or later) has not.
    expect(rows.map((row) => row.complete)).toContain(true);
    expect(rows.at(-1)?.complete).toBe(false);
    const periods = page.locator("table.stats tbody th");
    for (const [i, row] of rows.entries()) {
      const text = await periods.nth(i).textContent();
      expect(text, String(row.time_bucket)).toMatch(row.complete ? /^Q[1-4] \d{4}$/ : /still counting$/);
    }
    expect(await page.locator("table.chart-data tbody tr").last().locator("th").textContent()).toMatch(
      /still counting$/,
    );

    await act(page, recorder, () =>
      page
        .getByLabel("Granularity")
        .selectOption("week")
        .then(() => undefined),
    );
    await act(page, recorder, () =>
      page
        .getByLabel("Weeks start on")
        .selectOption("sunday")
        .then(() => undefined),
    );
    expect(new URL(page.url()).searchParams.get("week_start")).toBe("sunday");
    expect(last(tableQueries(recorder)).searchParams.get("week_start")).toBe("sunday");
    await expectPageMatchesApi(page, recorder.urls());
    // Each row is labelled with its week's full local start, the first (cut by the range) too.
    for (const row of await readTable(page))
      expect(DateTime.fromISO(String(row.time_bucket), { zone: "Europe/Berlin" }).toFormat("ccc HH:mm")).toBe(
        "Sun 00:00",
      );
    expect(problems).toEqual([]);
    await context.close();
  });

  it("downloads the view as the API's CSV", async () => {
    const context = await stack.newContext({
      viewport: { width: 1280, height: 800 },
      timezoneId: "Australia/Adelaide",
    });
    const page = await context.newPage();
    const recorder = recordApiRequests(page);
    await page.goto("/dashboard/?range=last_30_days&group_by=app_name&granularity=day");
    await act(page, recorder, () => signIn(page));
    recorder.clear();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    const csvUrl = last(recorder.urls().filter((u) => u.searchParams.get("format") === "csv"));
    expect(csvUrl.searchParams.get("timezone")).toBe("Australia/Adelaide");
    const res = await stack.api.get(`${csvUrl.pathname}${csvUrl.search}`, stack.token);
    const expected = await res.text();
    expect(await readFile(await download.path(), "utf8")).toBe(expected);
    expect(download.suggestedFilename()).toBe(
      /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1],
    );
    expect(expected.split("\n")[0]).toContain("app_name");
    expect(expected.split("\n")[0]).toContain("active_members");
    await context.close();
  });

  it("shows an organization counted without percentile sketches without p95, saying so, and all else", async () => {
    // Counted by a writer that keeps no sketches (the worker's default): the API refuses its
    // `percentiles` with a 400 naming them (docs/contract.md §9).
    const org = `${stack.org}-plain`;
    const token = await stack.api.createToken(org);
    const day = (daysBack: number, hour: number) =>
      new Date(Date.now() - daysBack * 86_400_000 + hour * 3_600_000).toISOString();
    await stack.api.writeWithoutSketches(
      org,
      [2, 3, 5, 8, 13].flatMap((daysBack, i) => [
        recording(`plain-${i}-a`, day(daysBack, 0), {
          app_name: "Zoom",
          voice_processing_ms: 1_000 + 100 * i,
        }),
        recording(`plain-${i}-b`, day(daysBack, 1), { app_name: "Slack", llm_processing_ms: 700 + 50 * i }),
      ]),
    );
    const refused = await stack.api.get("/api/v1/stats/summary?percentiles=95", token);
    expect(refused.status).toBe(400);

    const context = await stack.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: "UTC" });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    const recorder = recordApiRequests(page);
    await page.goto("/dashboard/?range=last_30_days&timezone=UTC");
    expect(await act(page, recorder, () => signIn(page, token))).toBe("ready");
    expect(await page.locator(".failure").count()).toBe(0);
    expect((await readCards(page)).total_recordings).toBe(10);
    await expectPageMatchesApi(page, recorder.urls(), { token, percentile: false });
    expect(await page.locator(".percentile-note").first().textContent()).toMatch(
      /^p95 is not kept for this organization/,
    );
    await screenshot(page, "no-sketches-1280.png");

    // Grouped, the same: the chart by app, the processing-time view still the whole view's.
    await act(page, recorder, () =>
      page
        .getByLabel("Group by")
        .selectOption("app_name")
        .then(() => undefined),
    );
    await expectPageMatchesApi(page, recorder.urls(), { token, percentile: false });
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("sends a revoked token back to sign-in with the API's reason, and names a refused parameter", async () => {
    const context = await stack.newContext();
    const page = await context.newPage();
    const recorder = recordApiRequests(page);
    const { token, record } = await stack.api.tokenStore.create(stack.org, "to revoke");
    await page.goto("/dashboard/");
    expect(await act(page, recorder, () => signIn(page, token))).toBe("ready");

    // A query the API refuses: more than 10,000 hourly buckets.
    await page.goto("/dashboard/?range=custom&from=2020-01-01&to=2026-01-01&granularity=hour&timezone=UTC");
    expect(await settled(page)).toBe("error");
    // No numbers shown, so no "data as of" either.
    expect(await readDataAsOf(page)).toBeNull();
    // The rows table's query (the top 10 ask for one bucket, which the API answers).
    const tableQuery = last(recorder.urls().filter((u) => u.searchParams.get("granularity") === "hour"));
    const refused = await stack.api.get(`${tableQuery.pathname}${tableQuery.search}`, token);
    const problem = (await refused.json()) as { errors: { parameter: string; message: string }[] };
    expect(refused.status).toBe(400);
    const failure = await page.locator(".failure").textContent();
    for (const e of problem.errors) expect(failure).toContain(`${e.parameter}: ${e.message}`);

    await stack.api.tokenStore.revoke(stack.org, record.id);
    // Refused once the API's token cache (100 ms in tests) lets go of it.
    let refusedToken = await stack.api.get("/api/v1/stats/dimensions", token);
    await expect
      .poll(async () => {
        refusedToken = await stack.api.get("/api/v1/stats/dimensions", token);
        return refusedToken.status;
      }, POLL)
      .toBe(401);
    const { detail } = (await refusedToken.json()) as { detail: string };
    await act(page, recorder, () =>
      page
        .getByLabel("Granularity")
        .selectOption("day")
        .then(() => undefined),
    );
    expect(await settled(page)).toBe("signed-out");
    expect(await readDataAsOf(page)).toBeNull();
    await expect.poll(() => page.getByRole("alert").textContent(), POLL).toBe(detail);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await context.close();
  });

  it("has no serious or critical axe-core violations, at 1280×800 and at phone width", async () => {
    const axeSource = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      // bypassCSP only lets the test inject axe; the page itself runs under its CSP.
      const context = await stack.newContext({ viewport, bypassCSP: true });
      const page = await context.newPage();
      const recorder = recordApiRequests(page);
      const audit = async () => {
        await page.addScriptTag({ content: axeSource });
        const results = await page.evaluate(async () => {
          const axe = (
            window as unknown as {
              axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
            }
          ).axe;
          return (await axe.run()).violations.map((v) => ({
            id: v.id,
            impact: v.impact,
            nodes: v.nodes.length,
          }));
        });
        return results.filter((v) => v.impact === "serious" || v.impact === "critical");
      };
      await page.goto("/dashboard/?range=last_30_days&group_by=voice_model");
      await settled(page);
      expect(await audit(), `sign-in at ${viewport.width}px`).toEqual([]);
      await act(page, recorder, () => signIn(page));
      await page.getByText("Chart data as a table").click();
      expect(await audit(), `dashboard at ${viewport.width}px`).toEqual([]);
      // Nothing wider than the screen but the tables, which scroll in their own region.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await context.close();
    }
  });
});
