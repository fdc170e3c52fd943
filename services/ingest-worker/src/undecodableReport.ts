import type { UndecodableBatch } from "@vu/events";
import type { Logger } from "@vu/service-runtime";
import type { IngestMetrics } from "./metrics";

/** A skipped, undecodable batch is named by readiness for this long, and logged at most this often. */
export const UNDECODABLE_REPORT_MS = 10 * 60_000;
const UNDECODABLE_LOG_MS = 10_000;

/**
 * What the worker says of record batches it skipped as undecodable: a metric each, an error log
 * (at most one every 10 s, with how many were not logged), and a readiness reason naming the last
 * one while it is recent. The batch itself goes to the dead-letter topic (batchHandler).
 */
export function createUndecodableReport(logger: Logger, metrics: IngestMetrics) {
  let last: { text: string; at: number } | undefined;
  let loggedAt = Number.NEGATIVE_INFINITY;
  let unlogged = 0;
  return {
    report(topic: string, partition: number, batch: UndecodableBatch): void {
      metrics.undecodableBatches.inc({ codec: batch.codec });
      metrics.undecodableOffsets.inc(Number(batch.lastOffset) - Number(batch.firstOffset) + 1);
      const text =
        `skipped an undecodable ${batch.codec} record batch: ${topic} partition ${partition} ` +
        `offsets ${batch.firstOffset}-${batch.lastOffset} (${batch.reason}), sent to the dead-letter topic`;
      last = { text, at: Date.now() };
      if (last.at - loggedAt < UNDECODABLE_LOG_MS) {
        unlogged++;
        return;
      }
      logger.error({ topic, partition, ...batch, notLoggedBefore: unlogged }, text);
      loggedAt = last.at;
      unlogged = 0;
    },
    /** The readiness reason, while the last skip is recent. */
    recent(): string | undefined {
      return last !== undefined && Date.now() - last.at <= UNDECODABLE_REPORT_MS ? last.text : undefined;
    },
  };
}
