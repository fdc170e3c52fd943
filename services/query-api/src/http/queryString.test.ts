import { describe, expect, it } from "vitest";
import { parseQueryString } from "./queryString";

describe("parseQueryString", () => {
  it("keeps every parameter, far past the 1,000 where Node's and qs's parsers stop", () => {
    const raw = Array.from({ length: 5_000 }, (_, i) => `p${i}=${i}`).join("&");
    const query = parseQueryString(raw);
    expect(Object.keys(query)).toHaveLength(5_000);
    expect(query.p4999).toBe("4999");
  });

  it("skips empty segments but reads what follows them", () => {
    expect(parseQueryString(`${"&".repeat(5_000)}granularity=xml&&`)).toEqual({ granularity: "xml" });
  });

  it("collects a repeated parameter's values in order", () => {
    expect(parseQueryString("page=1&page=2&x&page=3")).toEqual({ page: ["1", "2", "3"], x: "" });
  });

  it("decodes like a form and keeps bad escapes literal", () => {
    expect(parseQueryString("filter%5Bapp_name%5D=Zoom+Rooms,%E2%9C%93&bad=%zz")).toEqual({
      "filter[app_name]": "Zoom Rooms,✓",
      bad: "%zz",
    });
  });

  it("treats prototype names as plain keys", () => {
    const query = parseQueryString("__proto__=x&constructor=y");
    expect(Object.getPrototypeOf(query)).toBeNull();
    expect(Object.keys(query)).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
