import { recording } from "@vu/testkit";
import { type ApiServer, bodyOf, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// A query reads an organization's combination table and its blocks. A batch applied between two
// reads could add a combination id to the blocks that the table read did not have, and the query
// would answer 500 ("rollup cell refers to unknown combination"). Grouping by member while
// filtering on another dimension takes the reader's selective path (two round trips), where such a
// gap would show first.

const now = Date.parse("2026-11-22T12:00:00Z");
const ORG = "concurrent";
const BATCH = 3;
let api: ApiServer;
let token: string;

beforeAll(async () => {
  api = await startApiServer({ nowMs: now });
  token = await api.createToken(ORG);
  // Many combinations of another app, so the query's (Zoom) combinations are a small share of the
  // table: the reader then fetches only their fields from day blocks and whole hour blocks.
  await api.write(
    ORG,
    Array.from({ length: 2_000 }, (_, i) =>
      recording(`seed-${i}`, "2026-11-22T09:10:00Z", {
        organization_id: ORG,
        member_email: `seed${i}@example.com`,
        app_name: "Slack",
      }),
    ),
  );
});
afterAll(() => api.close());

describe("queries while new combinations arrive", () => {
  it("never answers 500, and every answer holds whole batches", async () => {
    const path =
      "/api/v1/stats?group_by=member_email&filter[app_name]=Zoom&granularity=hour" +
      "&start_date=2026-10-20T00:00:00Z&end_date=2026-11-22T12:00:00Z&page_size=1000";
    let writing = true;
    let batches = 0;
    let queries = 0;
    // The writer goes on only once a query has finished since its last batch, so queries and
    // batches interleave whatever the machine's speed (no count within a time window).
    let queried: () => void = () => undefined;
    const nextQuery = () =>
      new Promise<void>((resolve) => {
        queried = resolve;
      });
    const writer = (async () => {
      try {
        await writeBatches();
      } finally {
        writing = false;
      }
    })();
    async function writeBatches(): Promise<void> {
      // Each batch brings BATCH new members (new combinations), one in each of three hours: a read
      // that is not atomic can see one hour block with the batch and another without.
      for (let b = 0; b < 150; b++) {
        const minute = String(b % 60).padStart(2, "0");
        await api.write(
          ORG,
          Array.from({ length: BATCH }, (_, i) =>
            recording(`new-${b}-${i}`, `2026-11-22T${String(9 + i).padStart(2, "0")}:${minute}:00Z`, {
              organization_id: ORG,
              member_email: `new${b}-${i}@example.com`,
              app_name: "Zoom",
            }),
          ),
        );
        batches = b + 1;
        while (queries <= b) await nextQuery();
      }
    }
    const failures: string[] = [];
    let previous = 0;
    while (writing || queries === 0) {
      // Uncompressed: the client decompresses on this same event loop, which would take turns from
      // the API and the writer and leave fewer queries to race the batches.
      const res = await api.get(path, token, { "accept-encoding": "identity" });
      queries += 1;
      queried();
      if (res.status !== 200) {
        failures.push(`${res.status}: ${await res.text()}`);
        continue;
      }
      const total = (await bodyOf(res)).data.reduce(
        (sum: number, row: { recording_count: number }) => sum + row.recording_count,
        0,
      );
      // A batch is wholly in an answer or not at all, and answers never go back in time.
      if (total % BATCH !== 0 || total < previous) failures.push(`total ${total} after ${previous}`);
      previous = total;
    }
    await writer;
    expect(failures).toEqual([]);
    expect(queries).toBeGreaterThanOrEqual(batches);
    const final = await bodyOf(await api.get(path, token));
    expect(final.data).toHaveLength(batches * BATCH);
  });
});
