import type { RecordingCompletedInput } from "@vu/events";
import { describe, expect, it } from "vitest";
import { generateEvents } from "./eventGenerator";
import { smallOrganization } from "./organizationProfile";
import { sendInBatches } from "./produceEvents";

const events = (count: number) =>
  generateEvents({
    profile: smallOrganization("acme", 1),
    seed: 1,
    fromMs: Date.UTC(2026, 0, 1),
    toMs: Date.UTC(2026, 1, 1),
    count,
  });

/** Records each batch, and how many events had been read from the source when it was sent. */
function recordingProducer() {
  const batches: RecordingCompletedInput[][] = [];
  return {
    batches,
    send: async (batch: readonly RecordingCompletedInput[]) => {
      batches.push([...batch]);
    },
  };
}

describe("sendInBatches", () => {
  it("sends full batches then the remainder, reports progress and returns the count", async () => {
    const producer = recordingProducer();
    const progress: number[] = [];
    const sent = await sendInBatches(producer, events(2_500), {
      batchSize: 1_000,
      onProgress: (count) => progress.push(count),
    });
    expect(sent).toBe(2_500);
    expect(producer.batches.map((batch) => batch.length)).toEqual([1_000, 1_000, 500]);
    expect(progress).toEqual([1_000, 2_000, 2_500]);
    expect(producer.batches.flat()).toEqual([...events(2_500)]);
  });

  it("reads the source lazily, one batch ahead at most", async () => {
    let read = 0;
    const readAtSend: number[] = [];
    function* counted() {
      for (const event of events(30)) {
        read++;
        yield event;
      }
    }
    await sendInBatches({ send: async () => void readAtSend.push(read) }, counted(), { batchSize: 10 });
    expect(readAtSend).toEqual([10, 20, 30]);
  });

  it("sends nothing for no events and refuses a bad batch size", async () => {
    const producer = recordingProducer();
    expect(await sendInBatches(producer, [])).toBe(0);
    expect(producer.batches).toEqual([]);
    await expect(sendInBatches(producer, [], { batchSize: 0 })).rejects.toThrow(RangeError);
  });
});
