import { recording } from "@vu/testkit";
import { type ApiServer, heldInFlight, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, expect, it } from "vitest";

// One organization's questions are bounded (ORG_QUERY_*): past its limit a question gets 429 with
// Retry-After, while another organization's is answered at once. A read of the heavy organization
// is held in flight by the test, so what is asserted is order and completion, never timings.
const now = Date.parse("2026-11-22T12:00:00Z");
let api: ApiServer;
const heavyRead = heldInFlight();

beforeAll(async () => {
  api = await startApiServer({
    nowMs: now,
    orgs: ["heavy", "small"],
    organizationGate: { concurrent: 1, queued: 0, waitMs: 1_000 },
    beforeRead: async (org) => {
      if (org === "heavy") await heavyRead.hold();
    },
  });
  for (const org of ["heavy", "small"]) {
    await api.write(org, [recording(`${org}-1`, "2026-11-20T08:00:00Z", { organization_id: org })]);
  }
});
afterAll(() => api.close());

const STATS = "/api/v1/stats?start_date=2026-11-19&end_date=2026-11-21&group_by=member_email";

it("refuses an organization's question past its limit with 429 and Retry-After, and answers another organization meanwhile", async () => {
  const first = api.get(STATS, api.tokenFor("heavy"), { "cache-control": "no-cache" });
  await heavyRead.entered;

  const refused = await api.get(`${STATS}&granularity=hour`, api.tokenFor("heavy"), {
    "cache-control": "no-cache",
  });
  expect(refused.status).toBe(429);
  expect(refused.headers.get("retry-after")).toBe("1");
  expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(((await refused.json()) as { detail: string }).detail).toMatch(/try again in 1 s/);

  const small = await api.get(STATS, api.tokenFor("small"));
  expect(small.status).toBe(200);

  heavyRead.release();
  expect((await first).status).toBe(200);
  // The slot is free again.
  expect((await api.get(`${STATS}&granularity=hour`, api.tokenFor("heavy"))).status).toBe(200);
});
