import type { IngestMetrics } from "@vu/ingest-worker";
import type { PreparedWorkload } from "./scenario";

/** The sum of a prom-client counter over all its labels. */
export async function counterTotal(counter: IngestMetrics["applied"]): Promise<number> {
  const { values } = await counter.get();
  return values.reduce((sum, v) => sum + v.value, 0);
}

/** Messages the worker must dead-letter: malformed ones, those more than 24 h ahead, those the store refuses. */
export function expectedDeadLetters(prepared: PreparedWorkload): number {
  const limit = prepared.workload.anchorMs + 86_400_000;
  return prepared.workload.messages.filter(
    (m) => m.event === null || Date.parse(m.event.recorded_at) > limit || m.hostile === "apply_failed",
  ).length;
}
