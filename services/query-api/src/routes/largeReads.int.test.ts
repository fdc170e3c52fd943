import { recording } from "@vu/testkit";
import { type ApiServer, heldInFlight, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, expect, it } from "vitest";

// Large reads (more than LARGE_READ_FIELDS, here 100 fields) are bounded across all
// organizations (LARGE_READ_*): past the bound a large question gets 503 with Retry-After, while
// an ordinary one of any organization is answered at once. The first large read is held in flight
// by the test once it was let through, so what is asserted is order and completion, never timings.
const now = Date.parse("2026-11-22T12:00:00Z");
const MEMBERS = 300;
let api: ApiServer;
const firstLargeRead = heldInFlight<number>();

beforeAll(async () => {
  api = await startApiServer({
    nowMs: now,
    orgs: ["wide-a", "wide-b", "small"],
    readSliceFields: 100,
    largeReads: { concurrent: 1, queued: 0, waitMs: 1_000 },
    afterLargeReadAdmitted: async (org, fields) => {
      if (org === "wide-a") await firstLargeRead.hold(fields);
    },
  });
  // Every recording its own member: the member projection holds one cell per member.
  for (const org of ["wide-a", "wide-b"]) {
    await api.write(
      org,
      Array.from({ length: MEMBERS }, (_, i) =>
        recording(`${org}-${i}`, "2026-11-20T08:00:00Z", {
          organization_id: org,
          member_email: `m${i}@${org}.example`,
        }),
      ),
    );
  }
  await api.write("small", [recording("small-1", "2026-11-20T08:00:00Z", { organization_id: "small" })]);
});
afterAll(() => api.close());

const STATS = "/api/v1/stats?start_date=2026-11-19&end_date=2026-11-21&group_by=member_email";
const UNCACHED = { "cache-control": "no-cache" };

it("refuses a large read past the bound with 503 and Retry-After, and answers ordinary questions meanwhile", async () => {
  const first = api.get(STATS, api.tokenFor("wide-a"), UNCACHED);
  expect(await firstLargeRead.entered).toBeGreaterThan(100);

  // Another organization's large read: no slot, no queue.
  const refused = await api.get(STATS, api.tokenFor("wide-b"), UNCACHED);
  expect(refused.status).toBe(503);
  expect(refused.headers.get("retry-after")).toBe("1");
  expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(((await refused.json()) as { detail: string }).detail).toMatch(/large questions.*try again in 1 s/);

  // An ordinary question of another organization never waits behind it.
  const small = await api.get(STATS, api.tokenFor("small"), UNCACHED);
  expect(small.status).toBe(200);

  firstLargeRead.release();
  const answered = await first;
  expect(answered.status).toBe(200);
  expect(((await answered.json()) as { pagination: { total_rows: number } }).pagination.total_rows).toBe(
    MEMBERS,
  );
  // The slot is free again.
  expect((await api.get(STATS, api.tokenFor("wide-b"), UNCACHED)).status).toBe(200);
});
