import { ApiError } from "./api/apiError";
import { type ApiClient, createApiClient } from "./api/client";
import type { Dimensions } from "./api/types";
import { tokenStorage } from "./auth/tokenStorage";
import { buildSeries } from "./chart/series";
import { statsQuery } from "./state/apiQuery";
import { type LoadedView, loadScreen } from "./state/loadScreen";
import { browserZone } from "./state/presets";
import { type ScreenState, screenStateFromUrl, screenStateToUrl, updateView } from "./state/screenState";
import { TOP_DIMENSIONS } from "./state/vocabulary";
import { renderCards } from "./ui/cards";
import { type ChartPanel, createChartPanel } from "./ui/chartPanel";
import { type Controls, createControls } from "./ui/controls";
import { CSV_PAGE_SIZE, downloadCsv } from "./ui/csvDownload";
import { el } from "./ui/dom";
import { formatInstant, formatRange } from "./ui/format";
import { renderFailure, retryMessage } from "./ui/messages";
import { createProcessingPanel, percentileNotKept } from "./ui/processingPanel";
import { renderSignIn } from "./ui/signIn";
import { renderStatsTable } from "./ui/statsTable";
import { renderTopTable } from "./ui/topTable";

/** What the page is doing, on `<main data-state>`: for styling, and for tests to wait on. */
type PageState = "signed-out" | "loading" | "ready" | "empty" | "error";

/** How many members the picker offers for what was typed. */
const MEMBER_SUGGESTIONS = 20;

const isAbort = (error: unknown) => error instanceof DOMException && error.name === "AbortError";
const zoneNames = (): string[] => {
  try {
    return ["UTC", ...Intl.supportedValuesOf("timeZone")];
  } catch {
    return ["UTC"];
  }
};

/** The page's header parts the dashboard drives. */
export interface HeaderParts {
  signOut: HTMLButtonElement;
  /** "Data as of …": how current the numbers shown are. */
  dataAsOf: HTMLElement;
}

/** The dashboard: sign-in, then one view at a time, its state in the URL and its token in sessionStorage. */
export function startDashboard(main: HTMLElement, header: HeaderParts): void {
  const signOutButton = header.signOut;
  let view = screenStateFromUrl(location.search, browserZone());
  history.replaceState(null, "", `?${screenStateToUrl(view)}`);
  let api: ApiClient | null = null;
  let controls: Controls | null = null;
  let loaded: { view: ScreenState; data: LoadedView } | null = null;
  let inFlight: AbortController | null = null;
  let chart: ChartPanel | null = null;
  let processing: ChartPanel | null = null;

  const status = el("p", { id: "status", class: "status", role: "status", "aria-live": "polite" });
  const rangeLine = el("p", { class: "range-line" });
  const summarySection = el(
    "section",
    { "aria-labelledby": "summary-title" },
    el("h2", { id: "summary-title" }, "Summary"),
  );
  const chartSection = el(
    "section",
    { "aria-labelledby": "chart-title" },
    el("h2", { id: "chart-title" }, "Over time"),
  );
  const processingSection = el(
    "section",
    { "aria-labelledby": "processing-title" },
    el("h2", { id: "processing-title" }, "Processing time"),
  );
  const topSection = el(
    "section",
    { "aria-labelledby": "top-title" },
    el("h2", { id: "top-title" }, "Top 10"),
  );
  const csvButton = el("button", { type: "button", class: "secondary" }, "Download CSV");
  const rowsSection = el(
    "section",
    { "aria-labelledby": "rows-title" },
    el("div", { class: "section-head" }, el("h2", { id: "rows-title" }, "Rows"), csvButton),
  );
  const body = el(
    "div",
    { class: "view-body" },
    summarySection,
    chartSection,
    processingSection,
    topSection,
    rowsSection,
  );
  // A view that failed shows only why (and a retry), not empty sections.
  const failure = el("div", { class: "view-failure", hidden: true });

  const setState = (state: PageState) => {
    main.dataset.state = state;
    body.setAttribute("aria-busy", String(state === "loading"));
  };
  const replaceContent = (section: HTMLElement, content: Node | null) => {
    const heading = section.firstElementChild;
    section.replaceChildren(...(heading ? [heading] : []), ...(content ? [content] : []));
  };

  function signOut(problem: string | null) {
    inFlight?.abort();
    destroyCharts();
    tokenStorage.clear();
    api = null;
    controls = null;
    loaded = null;
    signOutButton.hidden = true;
    header.dataAsOf.hidden = true;
    setState("signed-out");
    main.replaceChildren(renderSignIn(problem, (token) => void signIn(token)));
  }

  /** A 401 anywhere ends the session and shows the API's reason on the sign-in form. */
  const handleUnauthorized = (error: unknown): boolean => {
    if (error instanceof ApiError && error.status === 401) {
      signOut(error.problem.detail ?? "The token was refused.");
      return true;
    }
    return false;
  };

  async function signIn(token: string) {
    tokenStorage.write(token);
    api = createApiClient({ token, onRetry: (notice) => (status.textContent = retryMessage(notice)) });
    signOutButton.hidden = false;
    setState("loading");
    status.textContent = "Signing in…";
    let dimensions: Dimensions;
    try {
      dimensions = await api.dimensions();
    } catch (error) {
      if (handleUnauthorized(error)) return;
      setState("error");
      main.replaceChildren(
        status,
        renderFailure(error, () => void signIn(token)),
      );
      status.textContent = "";
      return;
    }
    const client = api;
    controls = createControls({
      initial: view,
      dimensions,
      zones: zoneNames(),
      suggestMembers: async (typed) =>
        (await client.dimensions({ q: typed, limit: MEMBER_SUGGESTIONS, include: "member_emails" }))
          .member_emails ?? [],
      onChange: (change) => navigate(updateView(view, change)),
    });
    main.replaceChildren(controls.element, rangeLine, status, failure, body);
    await refresh();
  }

  function navigate(next: ScreenState) {
    const onlyMetric = loaded !== null && sameExceptMetric(loaded.view, next);
    view = next;
    history.pushState(null, "", `?${screenStateToUrl(view)}`);
    controls?.show(view);
    if (onlyMetric && loaded) render({ view, data: loaded.data });
    else void refresh();
  }

  async function refresh() {
    if (!api) return;
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    setState("loading");
    status.textContent = "Loading…";
    try {
      const data = await loadScreen(api, view, Date.now(), controller.signal);
      if (controller.signal.aborted) return;
      loaded = { view, data };
      render(loaded);
    } catch (error) {
      if (isAbort(error) || controller.signal.aborted || handleUnauthorized(error)) return;
      setState("error");
      status.textContent = "";
      rangeLine.textContent = "";
      header.dataAsOf.hidden = true;
      destroyCharts();
      failure.replaceChildren(renderFailure(error, () => void refresh()));
      failure.hidden = false;
      body.hidden = true;
    }
  }

  function destroyCharts() {
    chart?.destroy();
    chart = null;
    processing?.destroy();
    processing = null;
  }

  function render({ view: shown, data }: { view: ScreenState; data: LoadedView }) {
    const empty = data.summary.total_recordings === 0;
    failure.hidden = true;
    body.hidden = false;
    const meta = data.table.meta;
    rangeLine.textContent = `${formatRange(meta.start_date, meta.end_date)} · ${shown.timezone}`;
    const cards = renderCards(data.summary, shown.compare);
    replaceContent(summarySection, data.percentileKept ? cards : el("div", {}, cards, percentileNotKept()));
    showDataAsOf(header.dataAsOf, data.dataAsOf, shown.timezone);
    destroyCharts();
    if (empty) {
      const nothing = () =>
        el("p", { class: "empty" }, "No recordings in this range. Choose another period or fewer filters.");
      replaceContent(chartSection, nothing());
      replaceContent(processingSection, nothing());
    } else {
      const series = buildSeries({
        rows: data.chartRows,
        groupBy: shown.groupBy,
        metric: shown.metric,
      });
      chart = createChartPanel(series, shown, data.chartTruncated);
      replaceContent(chartSection, chart.element);
      chart.mount();
      processing = createProcessingPanel(data.processingRows, shown, data.percentileKept);
      replaceContent(processingSection, processing.element);
      processing.mount();
    }
    replaceContent(
      topSection,
      el("div", { class: "top-grid" }, ...TOP_DIMENSIONS.map((d) => renderTopTable(d, data.top[d]))),
    );
    replaceContent(
      rowsSection,
      renderStatsTable(data.table, shown, {
        onPage: (page) => navigate(updateView(view, { page })),
        onPageSize: (pageSize) => navigate(updateView(view, { pageSize })),
      }),
    );
    csvButton.hidden = empty;
    status.textContent = empty ? "No recordings in this range." : "";
    setState(empty ? "empty" : "ready");
  }

  csvButton.addEventListener("click", async () => {
    if (!api || !loaded) return;
    status.textContent = "Preparing the CSV…";
    try {
      const query = statsQuery(loaded.view, loaded.data.range, {
        page: 1,
        pageSize: CSV_PAGE_SIZE,
        format: "csv",
      });
      const filename = await downloadCsv(api, query);
      status.textContent = `Downloaded ${filename}.`;
    } catch (error) {
      if (handleUnauthorized(error)) return;
      status.textContent = `The CSV could not be made: ${error instanceof Error ? error.message : String(error)}`;
    }
  });
  signOutButton.addEventListener("click", () => signOut(null));
  window.addEventListener("popstate", () => {
    view = screenStateFromUrl(location.search, browserZone());
    controls?.show(view);
    void refresh();
  });

  const token = tokenStorage.read();
  if (token) void signIn(token);
  else signOut(null);
}

/**
 * "Data as of …" in the header: every recording produced before that instant is in the numbers
 * shown (the summary's `X-Data-As-Of`, docs/contract.md §7), in the view's zone. Hidden when the
 * API sent none.
 */
function showDataAsOf(target: HTMLElement, dataAsOf: string | null, zone: string): void {
  const text = dataAsOf === null ? null : formatInstant(dataAsOf, zone);
  target.hidden = text === null;
  if (dataAsOf === null || text === null) return;
  target.replaceChildren("Data as of ", el("time", { datetime: dataAsOf }, text));
  target.title = "Every recording produced before this instant is counted in what the page shows.";
}

function sameExceptMetric(a: ScreenState, b: ScreenState): boolean {
  return screenStateToUrl({ ...a, metric: b.metric }).toString() === screenStateToUrl(b).toString();
}
