import { DLQ_HEADERS } from "@vu/events";
import type { KafkaMessage } from "kafkajs";
import { describe, expect, it } from "vitest";
import { deadLetterRecord, packRequests, reasonKind, recordBytes } from "./deadLetter";

const message = (value: Buffer | null, offset = "7"): KafkaMessage =>
  ({ key: Buffer.from("acme"), value, offset, headers: { trace: "t-1" } }) as unknown as KafkaMessage;
const source = { topic: "recordings.completed", partition: 3 };

describe("deadLetterRecord", () => {
  it("keeps key, value and headers, and adds why and where from", () => {
    const record = deadLetterRecord(
      { message: message(Buffer.from("{bad")), reason: "not valid JSON: x" },
      source,
      1e6,
    );
    expect(record).toEqual({
      key: Buffer.from("acme"),
      value: Buffer.from("{bad"),
      headers: {
        trace: "t-1",
        [DLQ_HEADERS.reason]: "not valid JSON: x",
        [DLQ_HEADERS.sourceTopic]: "recordings.completed",
        [DLQ_HEADERS.sourcePartition]: "3",
        [DLQ_HEADERS.sourceOffset]: "7",
      },
    });
  });

  it("cuts a value that would not fit, says so, and fits the limit", () => {
    const value = Buffer.alloc(600_000, "x");
    const record = deadLetterRecord({ message: message(value), reason: "not valid JSON" }, source, 100_000);
    expect(recordBytes(record)).toBeLessThanOrEqual(100_000);
    expect((record.value as Buffer).length).toBeGreaterThan(99_000);
    expect(value.subarray(0, 10).equals((record.value as Buffer).subarray(0, 10))).toBe(true);
    expect(record.headers?.[DLQ_HEADERS.truncated]).toBe("600000");
  });

  it("cuts a very long reason", () => {
    const record = deadLetterRecord(
      { message: message(null), reason: `x: ${"y".repeat(50_000)}` },
      source,
      1e6,
    );
    expect(String(record.headers?.[DLQ_HEADERS.reason]).length).toBeLessThanOrEqual(1_001);
  });
});

describe("packRequests", () => {
  it("fills requests up to the budget, in order, one oversized record alone", () => {
    const record = (bytes: number) => ({ key: null, value: Buffer.alloc(bytes) });
    const sizes = [400, 400, 400, 5_000, 10];
    const requests = packRequests(sizes.map(record), 1_000);
    expect(requests.map((r) => r.map((m) => (m.value as Buffer).length))).toEqual([
      [400, 400],
      [400],
      [5_000],
      [10],
    ]);
    const small = packRequests(
      Array.from({ length: 10 }, () => record(100)),
      1_000,
    );
    expect(small.map((r) => r.length)).toEqual([7, 3]);
    for (const request of small) {
      expect(61 + request.reduce((n, m) => n + recordBytes(m), 0)).toBeLessThanOrEqual(1_000);
    }
  });
});

describe("reasonKind", () => {
  it.each([
    ["invalid_unicode: app_name holds a lone surrogate", "invalid_unicode"],
    ["apply_failed: WRONGTYPE ...", "apply_failed"],
    ["duration_ms: Too small", "duration_ms"],
    ["not valid JSON: Unexpected token", "invalid_json"],
    ["empty message (tombstone)", "other"],
  ])("%s → %s", (reason, kind) => {
    expect(reasonKind(reason)).toBe(kind);
  });
});
