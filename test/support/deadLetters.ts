import { randomUUID } from "node:crypto";
import { waitFor } from "@vu/infra";
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
 * Reads the whole dead-letter topic. A batch the worker processes twice (redelivered after a
 * rebalance) dead-letters its bad messages twice, which the contract allows; what must hold is that
 * every bad message is there, with its reason, and nothing else.
 */
export async function readDeadLetters(kafka: Kafka, dlqTopic: string): Promise<DeadLetters> {
  const admin = kafka.admin();
  await admin.connect();
  const total = (await admin.fetchTopicOffsets(dlqTopic)).reduce(
    (n, p) => n + Number(p.high) - Number(p.low),
    0,
  );
  await admin.disconnect();
  const sources = new Set<string>();
  const kinds: Record<string, number> = {};
  let read = 0;
  let withoutReason = 0;
  const consumer = kafka.consumer({ groupId: `test-dlq-reader-${randomUUID()}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: dlqTopic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        read++;
        const header = (name: string) => message.headers?.[name]?.toString();
        const reason = header("x-dlq-reason");
        if (!reason) withoutReason++;
        const source = `${header("x-dlq-source-partition")}:${header("x-dlq-source-offset")}`;
        if (sources.has(source)) return;
        sources.add(source);
        const kind = /^([a-z_]+):/.exec(reason ?? "")?.[1] ?? "other";
        kinds[kind] = (kinds[kind] ?? 0) + 1;
      },
    });
    await waitFor(() => read >= total, { timeoutMs: 60_000, message: `all ${total} dead letters read` });
  } finally {
    await consumer.disconnect();
  }
  return { total, distinct: sources.size, withoutReason, kinds };
}

/** Messages the worker must dead-letter: malformed ones, those more than 24 h ahead, those the store refuses. */
export function expectedDeadLetters(prepared: PreparedWorkload): number {
  const limit = prepared.workload.anchorMs + 86_400_000;
  return prepared.workload.messages.filter(
    (m) => m.event === null || Date.parse(m.event.recorded_at) > limit || m.hostile === "apply_failed",
  ).length;
}
