import { readAllDeadLetters } from "@vu/testkit/kafka";
import type { Kafka } from "kafkajs";
import type { PreparedWorkload } from "./scenario";

export interface DeadLetters {
  /** Messages on the dead-letter topic. */
  total: number;
  /** Distinct source messages among them (`x-dlq-source-partition` and `-offset` headers). */
  distinct: number;
  /** Messages without a reason header. */
  withoutReason: number;
  /** Distinct source messages per reason kind (the reason up to its first colon). */
  kinds: Record<string, number>;
}

/**
 * Sums up the whole dead-letter topic (read by the kit's one reader). A batch the worker processes twice
 * (redelivered after a rebalance) dead-letters its bad messages twice, which the contract allows;
 * what must hold is that every bad message is there, with its reason, and nothing else.
 */
export async function readDeadLetters(kafka: Kafka, dlqTopic: string): Promise<DeadLetters> {
  const letters = await readAllDeadLetters(kafka, dlqTopic);
  const sources = new Set<string>();
  const kinds: Record<string, number> = {};
  for (const { reason, sourcePartition, sourceOffset } of letters) {
    const source = `${sourcePartition}:${sourceOffset}`;
    if (sources.has(source)) continue;
    sources.add(source);
    const kind = /^([a-z_]+):/.exec(reason)?.[1] ?? "other";
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  const withoutReason = letters.filter((l) => l.reason === "").length;
  return { total: letters.length, distinct: sources.size, withoutReason, kinds };
}

/** Messages the worker must dead-letter: malformed ones, those more than 24 h ahead, those the store refuses. */
export function expectedDeadLetters(prepared: PreparedWorkload): number {
  const limit = prepared.workload.anchorMs + 86_400_000;
  return prepared.workload.messages.filter(
    (m) => m.event === null || Date.parse(m.event.recorded_at) > limit || m.hostile === "apply_failed",
  ).length;
}
