import { describe, expect, it, vi } from "vitest";
import { createLargeReads, LargeReadsBusyError } from "./largeReads";

/** A computation that asks for a large read, then waits until the test lets it finish. */
function heldComputation() {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let admitted = false;
  const work = async (admission: { beforeLargeRead?: (fields: number) => Promise<void> }) => {
    await admission.beforeLargeRead?.(50_000);
    admitted = true;
    await done;
    return "answered";
  };
  return { work, finish, admitted: () => admitted };
}

describe("createLargeReads", () => {
  it("takes no slot for a computation that reads nothing large", async () => {
    const reads = createLargeReads({ concurrent: 1, queued: 0, waitMs: 1_000 });
    const large = heldComputation();
    const running = reads.run(large.work);
    await vi.waitFor(() => expect(large.admitted()).toBe(true));
    // Busy with a large read, yet an ordinary computation runs at once.
    expect(await reads.run(async () => "small")).toBe("small");
    large.finish();
    expect(await running).toBe("answered");
  });

  it("lets a waiting large read in when the running one ends, and refuses past the queue", async () => {
    const reads = createLargeReads({ concurrent: 1, queued: 1, waitMs: 60_000 });
    const first = heldComputation();
    const second = heldComputation();
    const running = reads.run(first.work);
    await vi.waitFor(() => expect(first.admitted()).toBe(true));
    const waiting = reads.run(second.work);
    const refused = reads.run(heldComputation().work);
    await expect(refused).rejects.toBeInstanceOf(LargeReadsBusyError);
    await expect(refused).rejects.toMatchObject({ fields: 50_000, retryAfterS: 60 });
    expect(second.admitted()).toBe(false);
    first.finish();
    await running;
    await vi.waitFor(() => expect(second.admitted()).toBe(true));
    second.finish();
    expect(await waiting).toBe("answered");
  });

  it("refuses a large read that waited its time out", async () => {
    vi.useFakeTimers();
    try {
      const reads = createLargeReads({ concurrent: 1, queued: 4, waitMs: 2_000 });
      const first = heldComputation();
      const running = reads.run(first.work);
      await vi.waitFor(() => expect(first.admitted()).toBe(true));
      const late = reads.run(heldComputation().work);
      const outcome = late.catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(await outcome).toMatchObject({ name: "LargeReadsBusyError", retryAfterS: 2 });
      first.finish();
      await running;
    } finally {
      vi.useRealTimers();
    }
  });

  it("holds one slot for a computation that reads twice, and gives it back when it fails", async () => {
    const reads = createLargeReads({ concurrent: 1, queued: 0, waitMs: 1_000 });
    const failing = reads.run(async (admission) => {
      await admission.beforeLargeRead?.(30_000);
      await admission.beforeLargeRead?.(30_000);
      throw new Error("the store went away");
    });
    await expect(failing).rejects.toThrow("the store went away");
    const next = heldComputation();
    const running = reads.run(next.work);
    await vi.waitFor(() => expect(next.admitted()).toBe(true));
    next.finish();
    expect(await running).toBe("answered");
  });

  it("gives one organization at most a quarter of the queue, and frees slots to organizations in turn", async () => {
    const reads = createLargeReads({ concurrent: 1, queued: 8, waitMs: 60_000 });
    const order: string[] = [];
    const computation = (name: string) => {
      const held = heldComputation();
      const work = async (admission: Parameters<typeof held.work>[0]) => {
        await admission.beforeLargeRead?.(50_000);
        order.push(name);
        return held.work({});
      };
      return { ...held, work };
    };
    const running = computation("a0");
    const first = reads.run(running.work, "a");
    await vi.waitFor(() => expect(order).toEqual(["a0"]));
    const a1 = computation("a1");
    const a2 = computation("a2");
    const b1 = computation("b1");
    const waitingA1 = reads.run(a1.work, "a");
    const waitingA2 = reads.run(a2.work, "a");
    // Organization a already waits in 2 of the 8 places: its third is refused, b's is not.
    await expect(reads.run(computation("a3").work, "a")).rejects.toBeInstanceOf(LargeReadsBusyError);
    const waitingB1 = reads.run(b1.work, "b");

    running.finish();
    await first;
    await vi.waitFor(() => expect(order).toEqual(["a0", "a1"]));
    a1.finish();
    await waitingA1;
    // b has waited its turn: it goes before a's second.
    await vi.waitFor(() => expect(order).toEqual(["a0", "a1", "b1"]));
    b1.finish();
    await waitingB1;
    await vi.waitFor(() => expect(order).toEqual(["a0", "a1", "b1", "a2"]));
    a2.finish();
    expect(await waitingA2).toBe("answered");
  });
});
