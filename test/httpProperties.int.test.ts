import { redisUrl } from "@vu/testkit";
import { type ApiServer, startApiServer } from "@vu/testkit/api";
import { waitUntilCaughtUp } from "@vu/testkit/caughtUp";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { startInProcessWorker } from "@vu/testkit/worker";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareWithOracle, type DifferentialContext, isComparable } from "./support/differential";
import { anyQueryArbitrary, pathArbitrary } from "./support/fuzzArbitraries";
import { httpGet, queryString } from "./support/httpClient";
import { produceWorkload } from "./support/produce";
import { createRandom } from "./support/random";
import { replayEnv } from "./support/runConfig";
import { prepareWorkload } from "./support/scenario";
import { generateComparable } from "./workload/queries";
import { DAY_MS, MINUTE_MS } from "./workload/timeline";
import type { OrgVocabulary } from "./workload/vocabulary";

// Property tests of the HTTP surface: any query string gets 200, 400 or 401, never a 5xx; and a
// token of one organization only ever sees that organization's numbers and values. Two tenants with
// disjoint, recognisable vocabularies ("A-…", "B-…") are ingested through Kafka and the worker.
const tenant = (id: string, tag: string): OrgVocabulary => ({
  id,
  members: [`ada@${tag.toLowerCase()}.example.com`, `-dash@${tag.toLowerCase()}.example.com`],
  voiceModels: [`${tag}-voice-1`, `${tag}-voice-2`],
  languageModels: [`${tag}-lm`, null],
  apps: [`${tag}-Zoom`, `${tag}-Notizen, "x"`, `${tag}-日本語`],
});
const A = tenant("tenant-a", "A");
const B = tenant("tenant-b", "B");
const prepared = prepareWorkload("http-properties", (config) => Math.min(1_500, config.size.faultEvents), {
  vocabularies: [A, B],
});
const { seed, size } = prepared.config;

let api: ApiServer;
let ctx: DifferentialContext;

beforeAll(async () => {
  const names = await isolatedTopics("props");
  const kafka = testKafka();
  const worker = await startInProcessWorker({
    kafka,
    redisUrl: redisUrl(),
    names,
    nowMs: prepared.workload.anchorMs,
  });
  try {
    await produceWorkload(kafka, names.topic, prepared.workload.messages);
    await waitUntilCaughtUp(kafka, names.topic, names.groupId, 120_000);
  } finally {
    await worker.stop();
  }
  // The worker's clock was the anchor: the API's "now" a minute later (see scenario.ts).
  const nowMs = prepared.workload.anchorMs + MINUTE_MS;
  api = await startApiServer({ redisUrl: redisUrl(), prefix: names.prefix, nowMs, orgs: [A.id, B.id] });
  ctx = {
    baseUrls: [api.baseUrl],
    tokenFor: api.tokenFor,
    recordings: prepared.recordings,
    nowMs,
    replay: replayEnv(prepared.config),
    selfCheck: true,
  };
});
afterAll(() => api.close());

const TOKENS = ["valid", "none", "unknown", "basic", "no-prefix"] as const;
// Mostly the valid token, so that random parameters reach the handlers.
const tokenArbitrary = fc.oneof({ weight: 8, arbitrary: fc.constant(TOKENS[0]) }, fc.constantFrom(...TOKENS));
function authHeader(kind: (typeof TOKENS)[number]): Record<string, string> {
  switch (kind) {
    case "valid":
      return { authorization: `Bearer ${api.tokenFor(A.id)}` };
    case "none":
      return {};
    case "unknown":
      return { authorization: `Bearer sk-vu-${"x".repeat(40)}` };
    case "basic":
      return { authorization: "Basic dXNlcjpwYXNz" };
    case "no-prefix":
      return { authorization: `Bearer ${api.tokenFor(A.id).slice(6)}` };
  }
}

describe("the HTTP surface under random input", () => {
  it("answers any query string with 200, 400 or 401, never a 5xx", async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(pathArbitrary, anyQueryArbitrary, tokenArbitrary, async (path, qs, token) => {
        let url: URL;
        try {
          url = new URL(`${api.baseUrl}${path}?${qs}`);
        } catch {
          return; // not a URL any client could send
        }
        const res = await fetch(url, { headers: authHeader(token) });
        const body = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const allowed = token === "valid" ? [200, 400] : [401];
        if (!allowed.includes(res.status))
          throw new Error(`${res.status} for GET ${url.href}: ${body.slice(0, 300)}`);
        if (res.status !== 200)
          expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      }),
      { numRuns: size.propertyRuns * 4, seed, endOnFailure: true },
    );
    console.info(
      `[http-properties] statuses of random queries: ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    // Random input must reach the handlers too, not only the parameter checks.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(size.propertyRuns / 10);
  }, 600_000);

  it("gives a token its own organization's numbers only, exactly as the oracle", async () => {
    const rangeContext = { nowMs: ctx.nowMs, hot: [ctx.nowMs - 27 * DAY_MS, ctx.nowMs - 200 * DAY_MS] };
    await fc.assert(
      fc.asyncProperty(fc.integer(), fc.constantFrom(A, B), fc.boolean(), async (querySeed, org, foreign) => {
        const other = org === A ? B : A;
        // Queries drawn from the other organization's vocabulary (its filter values) but sent with
        // this organization's token must find nothing of the other's.
        const drawnFor = foreign ? other : org;
        const drawn = generateComparable([drawnFor], rangeContext, createRandom(querySeed), (q) =>
          isComparable({ ...q, org: org.id }, ctx),
        );
        const query = { ...drawn, org: org.id };
        expect(await compareWithOracle([query], ctx)).toEqual([]);
        const reply = await httpGet(
          api.baseUrl,
          "/api/v1/stats",
          api.tokenFor(org.id),
          queryString(query.pairs),
        );
        const theirs = [
          ...other.apps,
          ...other.voiceModels,
          other.id,
          ...other.members,
          `${other === A ? "A" : "B"}-lm`,
        ];
        const leaked = theirs.filter((value) => reply.text.includes(JSON.stringify(value).slice(1, -1)));
        expect(leaked, `GET ${reply.url}`).toEqual([]);
      }),
      { numRuns: Math.ceil(size.propertyRuns / 2), seed, endOnFailure: true },
    );
  }, 600_000);
});
