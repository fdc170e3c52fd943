import type { Page, Request } from "playwright-core";

/** The page has finished a view: ready, empty, an error or the sign-in form. */
export async function settled(page: Page): Promise<string> {
  await page.waitForFunction(() => {
    const state = document.querySelector("main")?.dataset.state;
    return state !== undefined && state !== "loading";
  });
  return (await page.locator("main").getAttribute("data-state")) ?? "";
}

/**
 * The summary cards' exact values (`data-value`), by summary field; with a comparison also the
 * previous period's (`previous`) and the change (`change`, null where the API answered null), as
 * the summary's JSON holds them.
 */
export async function readCards(page: Page): Promise<Record<string, unknown>> {
  return page.$$eval(".card", (cards) => {
    const summary: Record<string, unknown> = {};
    const previous: Record<string, number> = {};
    const change: Record<string, number | null> = {};
    for (const card of cards) {
      const field = card.getAttribute("data-field") ?? "";
      summary[field] = card.hasAttribute("data-null") ? null : Number(card.getAttribute("data-value"));
      const line = card.querySelector(".card-change");
      if (!line) continue;
      previous[field] = Number(line.getAttribute("data-previous"));
      change[field] = line.hasAttribute("data-change-null") ? null : Number(line.getAttribute("data-change"));
    }
    if (Object.keys(previous).length > 0) Object.assign(summary, { previous, change });
    return summary;
  });
}

/**
 * Rows of a table as the API's row objects (from each cell's `data-field` / `data-value`, and the
 * period's `data-complete` when the row says whether it is complete).
 */
async function readRows(
  page: Page,
  rowSelector: string,
): Promise<Record<string, string | number | boolean | null>[]> {
  return page.$$eval(rowSelector, (rows) =>
    rows.map((row) => {
      const fields: [string, string | number | boolean | null][] = [
        ...row.querySelectorAll("[data-field]"),
      ].map((cell) => {
        const field = cell.getAttribute("data-field") ?? "";
        const value = cell.getAttribute("data-value") ?? "";
        const text =
          field === "time_bucket" || cell.hasAttribute("data-null") || !/^-?[\d.e+-]+$/.test(value);
        return [field, cell.hasAttribute("data-null") ? null : text ? value : Number(value)];
      });
      const complete = row.querySelector("[data-complete]")?.getAttribute("data-complete");
      if (complete !== undefined && complete !== null) fields.push(["complete", complete === "true"]);
      return Object.fromEntries(fields);
    }),
  );
}

/** The rows table's rows as the API's row objects. */
export const readTable = (page: Page) => readRows(page, "table.stats tbody tr");

/** The processing-time view's rows (its table twin) as the API's row objects: period, averages, percentiles. */
export const readProcessing = (page: Page) => readRows(page, "table.processing-data tbody tr");

/** A "top 10" table's rows (without their rank) as the API's row objects, "(other)" row included. */
export const readTopTable = (page: Page, dimension: string) =>
  readRows(page, `.top-block[data-dimension="${dimension}"] tbody tr`);

export interface ChartTable {
  labels: string[];
  /** Bucket start (Unix time, ms) and one value per series. */
  rows: { bucketMs: number; values: number[] }[];
}

/** The chart's data, from its table twin (the numbers the chart plots). */
export async function readChart(page: Page): Promise<ChartTable> {
  return page.$eval("table.chart-data", (table) => ({
    labels: [...table.querySelectorAll("thead th")].slice(1).map((th) => th.textContent ?? ""),
    rows: [...table.querySelectorAll("tbody tr")].map((tr) => ({
      bucketMs: Number(tr.querySelector("th")?.getAttribute("data-value")),
      values: [...tr.querySelectorAll("td")].map((td) => Number(td.getAttribute("data-value"))),
    })),
  }));
}

/** Records the API requests the page makes, so a test can ask the API the same questions. */
export function recordApiRequests(page: Page): { urls: () => URL[]; clear: () => void } {
  let seen: URL[] = [];
  page.on("request", (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/v1/")) seen.push(url);
  });
  return {
    urls: () => seen,
    clear: () => {
      seen = [];
    },
  };
}

/** The `X-Data-As-Of` of the last /stats/summary answer the page received. */
export function recordSummaryAsOf(page: Page): () => string | undefined {
  let last: string | undefined;
  page.on("response", (response) => {
    if (new URL(response.url()).pathname === "/api/v1/stats/summary") {
      last = response.headers()["x-data-as-of"];
    }
  });
  return () => last;
}

/** The header's "Data as of": its text and the instant its `<time>` carries (null when hidden). */
export async function readDataAsOf(page: Page): Promise<{ text: string; datetime: string | null } | null> {
  const target = page.locator("#data-as-of");
  if (await target.isHidden()) return null;
  return {
    text: (await target.textContent()) ?? "",
    datetime: await target.locator("time").getAttribute("datetime"),
  };
}
