import { type RollupReader, ViewNotLiveError, type ViewState } from "@vu/store";
import { Gauge, type Registry } from "prom-client";

/** What `vu_view_state` can say: the view's states, no epoch at all, or not known (Redis away). */
export type ViewMetricState = ViewState | "no_epoch" | "unknown";

const VIEW_STATES = { live: true, replaying: true, incomplete: true } satisfies Record<ViewState, true>;
export const VIEW_METRIC_STATES: readonly ViewMetricState[] = [
  ...(Object.keys(VIEW_STATES) as ViewState[]),
  "no_epoch",
  "unknown",
];

/** The state of the view this API process reads, as `reader.view()` finds it. */
export async function viewMetricState(reader: Pick<RollupReader, "view">): Promise<ViewMetricState> {
  try {
    await reader.view();
    return "live";
  } catch (error) {
    if (!(error instanceof ViewNotLiveError)) return "unknown";
    return error.status.epoch === null ? "no_epoch" : (error.status.state ?? "unknown");
  }
}

/**
 * `vu_view_state{state}`: 1 for the state the view is in, 0 for the others, read on each scrape
 * (`reader.view()` is cached for `VIEW_CACHE_MS`, so a scrape costs Redis at most one read of the
 * log hash). Not `live` means the API answers 503 to every question. Several API processes show
 * the highest of theirs (each state is 1 where any process sees it).
 */
export function registerViewMetrics(registry: Registry, reader: Pick<RollupReader, "view">): void {
  new Gauge({
    name: "vu_view_state",
    help: "1 for the state of the view the API reads (live, replaying, incomplete, no_epoch: Redis lost its state or no worker started, unknown: Redis did not answer), 0 for the others",
    labelNames: ["state"],
    registers: [registry],
    aggregator: "max",
    async collect() {
      const current = await viewMetricState(reader);
      for (const state of VIEW_METRIC_STATES) this.set({ state }, state === current ? 1 : 0);
    },
  });
}
