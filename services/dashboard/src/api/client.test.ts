import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./apiError";
import { createApiClient, nextPageOf } from "./client";
import type { RetryNotice } from "./retryPolicy";
import { retryDelaySeconds } from "./retryPolicy";

const problem = (status: number, headers: Record<string, string> = {}, body: object = {}) =>
  new Response(JSON.stringify({ status, title: "x", detail: `detail ${status}`, ...body }), {
    status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
const ok = (body: object) => new Response(JSON.stringify(body), { status: 200 });

describe("retryDelaySeconds", () => {
  it("waits what Retry-After says on a 429", () => {
    expect(retryDelaySeconds(429, "17", 1)).toBe(17);
    expect(retryDelaySeconds(429, null, 1)).toBe(1);
  });
  it("backs off on a 503, doubling, never shorter than Retry-After", () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelaySeconds(503, null, attempt))).toEqual([1, 2, 4, 8]);
    expect(retryDelaySeconds(503, "5", 1)).toBe(5);
  });
  it("gives up after the last attempt, and never retries other statuses", () => {
    expect(retryDelaySeconds(503, null, 5)).toBeNull();
    expect(retryDelaySeconds(400, "3", 1)).toBeNull();
    expect(retryDelaySeconds(401, null, 1)).toBeNull();
  });
});

describe("the API client", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  // In a page the base is the page's own origin; Node's Request needs it spelt out.
  const baseUrl = "http://dashboard.test";

  it("sends the token only in the Authorization header", async () => {
    const fetch = vi.fn(async (_request: Request) => ok({ app_names: [] }));
    await createApiClient({ baseUrl, token: "sk-vu-secret", fetch }).dimensions();
    const request = fetch.mock.calls[0]?.[0];
    expect(request?.url).toBe(`${baseUrl}/api/v1/stats/dimensions`);
    expect(request?.headers.get("authorization")).toBe("Bearer sk-vu-secret");
    expect(request?.credentials).toBe("omit");
  });

  it("asks /stats/dimensions for members matching what was typed", async () => {
    const fetch = vi.fn(async (_request: Request) => ok({ member_emails: ["ada@example.com"] }));
    const client = createApiClient({ baseUrl, token: "t", fetch });
    const answer = await client.dimensions({ q: "ada", limit: 20, include: "member_emails" });
    expect(answer.member_emails).toEqual(["ada@example.com"]);
    expect(new URL(fetch.mock.calls[0]?.[0].url ?? "").search).toBe("?q=ada&limit=20&include=member_emails");
  });

  it("retries a 429 after Retry-After and a 503 with backoff, telling the page each time", async () => {
    const answers = [problem(429, { "retry-after": "3" }), problem(503), ok({ total_recordings: 1 })];
    const fetch = vi.fn(async (_request: Request) => answers.shift() ?? ok({}));
    const notices: RetryNotice[] = [];
    const client = createApiClient({ baseUrl, token: "t", fetch, onRetry: (n) => notices.push(n) });
    const result = client.summary({ start_date: "2026-01-01" });
    await vi.advanceTimersByTimeAsync(2_999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await result).toEqual({ summary: { total_recordings: 1 }, dataAsOf: null });
    expect(notices).toEqual([
      { status: 429, waitSeconds: 3, attempt: 1 },
      { status: 503, waitSeconds: 2, attempt: 2 },
    ]);
  });

  it("reads X-Data-As-Of beside the summary", async () => {
    const asOf = "2026-11-25T23:07:49.123Z";
    const fetch = vi.fn(
      async (_request: Request) =>
        new Response(JSON.stringify({ total_recordings: 2 }), { headers: { "x-data-as-of": asOf } }),
    );
    const answer = await createApiClient({ baseUrl, token: "t", fetch }).summary({});
    expect(answer).toEqual({ summary: { total_recordings: 2 }, dataAsOf: asOf });
  });

  it("turns other failures into an ApiError carrying the problem body", async () => {
    const body = { errors: [{ parameter: "granularity", message: "must be one of hour, day, week, month" }] };
    const fetch = vi.fn(async (_request: Request) => problem(400, {}, body));
    const client = createApiClient({ baseUrl, token: "t", fetch });
    const error = await client.stats({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).problem.errors).toEqual(body.errors);
  });

  it("reads a CSV page's file name and next page from the API's headers", async () => {
    const fetch = vi.fn(
      async (_request: Request) =>
        new Response("time_bucket,recording_count\r\n", {
          headers: {
            "content-disposition":
              'attachment; filename="usage-stats_20261101T0000+0100_20261201T0000+0100.csv"',
            link: '</api/v1/stats?format=csv&page=2>; rel="next"',
          },
        }),
    );
    const client = createApiClient({ baseUrl, token: "t", fetch });
    expect(await client.csv({ page: 1 })).toEqual({
      text: "time_bucket,recording_count\r\n",
      filename: "usage-stats_20261101T0000+0100_20261201T0000+0100.csv",
      nextPage: 2,
    });
    const request = fetch.mock.calls[0]?.[0];
    expect(new URL(request?.url ?? "").searchParams.get("format")).toBe("csv");
    expect(request?.headers.get("accept")).toBe("text/csv");
  });

  it("reads the next page from a Link header, none on the last page", () => {
    expect(nextPageOf('</api/v1/stats?page=3&page_size=1000>; rel="next"')).toBe(3);
    expect(nextPageOf('</api/v1/stats?page=1>; rel="prev"')).toBeNull();
    expect(nextPageOf(null)).toBeNull();
  });
});
