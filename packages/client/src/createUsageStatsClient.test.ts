import { describe, expect, it } from "vitest";
import { createUsageStatsClient, serializeQuery } from "./createUsageStatsClient";

const json = (body: object, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": status < 400 ? "application/json" : "application/problem+json" },
  });

/** A fetch that records the requests it is given and answers from a list. */
function fakeFetch(...answers: Response[]) {
  const requests: Request[] = [];
  const fetch = async (request: Request) => {
    requests.push(request);
    const answer = answers.shift();
    if (!answer) throw new Error("no answer left");
    return answer;
  };
  return { fetch, requests };
}

describe("createUsageStatsClient", () => {
  it("sends the token only in the Authorization header, no cookies", async () => {
    const { fetch, requests } = fakeFetch(json({ voice_models: [], language_models: [], app_names: [] }));
    const client = createUsageStatsClient({ baseUrl: "https://stats.example", token: "sk-vu-secret", fetch });
    const { data } = await client.GET("/api/v1/stats/dimensions");
    expect(data?.app_names).toEqual([]);
    const [request] = requests;
    expect(request?.url).toBe("https://stats.example/api/v1/stats/dimensions");
    expect(request?.headers.get("authorization")).toBe("Bearer sk-vu-secret");
    expect(request?.credentials).toBe("omit");
    expect(request?.url).not.toContain("sk-vu-secret");
  });

  it("writes one percent-encoded pair per parameter, as the API reads them", async () => {
    const page = { data: [], pagination: {}, meta: {} };
    const { fetch, requests } = fakeFetch(json(page));
    const client = createUsageStatsClient({ baseUrl: "http://api.test", token: "t", fetch });
    await client.GET("/api/v1/stats", {
      params: {
        query: {
          start_date: "2026-03-01T00:00:00+01:00",
          group_by: "app_name,voice_model",
          "exclude[app_name]": "Zoom, Slack & Teams",
          limit: 10,
          other: "true",
        },
      },
    });
    const url = new URL(requests[0]?.url ?? "");
    expect(url.search).toBe(
      "?start_date=2026-03-01T00%3A00%3A00%2B01%3A00&group_by=app_name%2Cvoice_model" +
        "&exclude%5Bapp_name%5D=Zoom%2C+Slack+%26+Teams&limit=10&other=true",
    );
    expect(url.searchParams.get("exclude[app_name]")).toBe("Zoom, Slack & Teams");
  });

  it("hands back a problem as `error`, with the response", async () => {
    const problem = { type: "about:blank", title: "Bad Request", status: 400, detail: "limit", errors: [] };
    const { fetch } = fakeFetch(json(problem, 400));
    const client = createUsageStatsClient({ token: "t", baseUrl: "http://api.test", fetch });
    const answer = await client.GET("/api/v1/stats/summary", { params: { query: { timezone: "Mars" } } });
    expect(answer.data).toBeUndefined();
    expect(answer.error).toEqual(problem);
    expect(answer.response.status).toBe(400);
  });

  it("leaves undefined parameters out", () => {
    expect(serializeQuery({ a: "1", b: undefined, c: 2 })).toBe("a=1&c=2");
  });
});
