import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createOrganizationGate, OrganizationBusyError } from "./organizationGate";

/** Work that finishes when the test says so. */
function deferred() {
  let finish: () => void = () => undefined;
  const done = new Promise<string>((resolve) => {
    finish = () => resolve("done");
  });
  return { work: () => done, finish };
}

describe("createOrganizationGate", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("runs an organization's questions up to its limit, queues the next few and refuses the rest", async () => {
    const gate = createOrganizationGate({ concurrent: 1, queued: 1, waitMs: 2_000 });
    const first = deferred();
    const running = gate.run("big", first.work);
    const order: string[] = [];
    const queued = gate.run("big", async () => {
      order.push("queued ran");
      return "queued";
    });
    const refused = gate.run("big", async () => "never").catch((error: unknown) => error);
    expect(await refused).toBeInstanceOf(OrganizationBusyError);
    expect((await refused) as OrganizationBusyError).toMatchObject({ org: "big", retryAfterS: 2 });
    expect(order).toEqual([]);
    first.finish();
    expect(await running).toBe("done");
    expect(await queued).toBe("queued");
    expect(order).toEqual(["queued ran"]);
  });

  it("never holds one organization's question behind another's", async () => {
    const gate = createOrganizationGate({ concurrent: 1, queued: 0, waitMs: 2_000 });
    const heavy = deferred();
    const running = gate.run("big", heavy.work);
    expect(await gate.run("small", async () => "small answered")).toBe("small answered");
    heavy.finish();
    await running;
  });

  it("refuses a queued question whose slot does not free within the wait, and frees the slot of one that failed", async () => {
    const gate = createOrganizationGate({ concurrent: 1, queued: 1, waitMs: 500 });
    const stuck = deferred();
    const running = gate.run("big", stuck.work);
    const waiting = gate.run("big", async () => "late").catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(501);
    expect(await waiting).toBeInstanceOf(OrganizationBusyError);
    stuck.finish();
    await running;
    await expect(gate.run("big", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await gate.run("big", async () => "free again")).toBe("free again");
  });
});
