import { describe, expect, it } from "vitest";
import {
  queryParameterNames,
  REDACTED,
  redactPath,
  serializeRequest,
  serializeResponse,
} from "./requestLogSerializers";

const TOKEN = `sk-vu-${"Ab3".repeat(13)}x`;

describe("serializeRequest", () => {
  it("keeps the path and the parameter names, never a value", () => {
    const entry = serializeRequest({
      id: "req-1",
      method: "GET",
      url: `/api/v1/stats?filter[member_email]=pii.probe@example.com&exclude[member_email]=bob%40example.com&granularity=day&access_token=${TOKEN}`,
    });
    expect(entry).toEqual({
      id: "req-1",
      method: "GET",
      path: "/api/v1/stats",
      query: ["filter[member_email]", "exclude[member_email]", "granularity", "access_token"],
    });
    expect(JSON.stringify(entry)).not.toMatch(/example\.com|sk-vu-|day/);
  });

  it("drops headers, route params and the client address whatever it is given", () => {
    const given = {
      url: "/api/v1/stats",
      headers: { authorization: `Bearer ${TOKEN}`, cookie: "session=1" },
      params: { id: "x" },
      remoteAddress: "203.0.113.7",
    };
    expect(Object.keys(serializeRequest(given))).toEqual(["id", "method", "path", "query"]);
  });

  it("lists a parameter given twice once", () => {
    expect(serializeRequest({ url: "/api/v1/stats?group_by=a&group_by=b&page=2" }).query).toEqual([
      "group_by",
      "page",
    ]);
  });

  it("survives a missing URL", () => {
    expect(serializeRequest({})).toMatchObject({ path: "", query: [] });
  });
});

describe("redactPath", () => {
  it.each([
    [`/api/v1/${TOKEN}`, `/api/v1/${REDACTED}`],
    [`/api/v1/stats/x${TOKEN}y/summary`, `/api/v1/stats/${REDACTED}/summary`],
    ["/api/v1/SK-VU-abc", `/api/v1/${REDACTED}`],
    ["/api/v1/sk%2Dvu%2Dabc", `/api/v1/${REDACTED}`],
    ["/members/pii.probe@example.com/stats", `/members/${REDACTED}/stats`],
    ["/members/pii.probe%40example.com", `/members/${REDACTED}`],
    // A token's random part without its prefix is as secret: both halves of a split token go.
    [`/sk-vu-/${"Ab3".repeat(13)}x`, `/${REDACTED}/${REDACTED}`],
  ])("redacts %s", (path, expected) => {
    expect(redactPath(path)).toBe(expected);
  });

  it("leaves ordinary paths alone, bad escapes included", () => {
    for (const path of [
      "/api/v1/stats/dimensions",
      "/",
      "/dashboard/assets/index-3f9a1c2b.js",
      "/%E0%A4%A",
    ]) {
      expect(redactPath(path)).toBe(path);
    }
  });
});

describe("queryParameterNames", () => {
  it("redacts a name that is really a value (a forgotten `=`)", () => {
    expect(queryParameterNames(`pii.probe@example.com&${TOKEN}&page=1`)).toEqual([REDACTED, "page"]);
  });

  it("decodes names as the app's query parser does", () => {
    expect(queryParameterNames("filter%5Bapp_name%5D=Zoom&&a+b=1")).toEqual(["filter[app_name]", "a b"]);
  });
});

describe("serializeResponse", () => {
  it("keeps the status only (a CSV page's Link header repeats the query)", () => {
    const res = {
      statusCode: 200,
      headers: { link: '</api/v1/stats?filter[member_email]=a@b.c&page=2>; rel="next"' },
    };
    expect(serializeResponse(res)).toEqual({ statusCode: 200 });
  });
});
