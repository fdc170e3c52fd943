import { describe, expect, it } from "vitest";
import { hitRate, lookupsBetween, parseCacheLookups, sumLookups } from "./cacheLookups";

const METRICS = `# HELP vu_result_cache_lookups_total Questions by how the result cache answered them
# TYPE vu_result_cache_lookups_total counter
vu_result_cache_lookups_total{outcome="hit"} 90
vu_result_cache_lookups_total{outcome="joined"} 2
vu_result_cache_lookups_total{outcome="miss"} 8
vu_result_cache_lookups_total{outcome="bypass"} 500
vu_http_request_duration_seconds_count{method="GET"} 600
`;

describe("the result cache's lookups from the API's /metrics", () => {
  it("reads each outcome and nothing else", () => {
    expect(parseCacheLookups(METRICS)).toEqual({ hit: 90, joined: 2, miss: 8, bypass: 500 });
    expect(parseCacheLookups("")).toEqual({ hit: 0, joined: 0, miss: 0, bypass: 0 });
  });

  it("counts hits among the questions that looked, leaving no-cache requests out", () => {
    const before = parseCacheLookups(METRICS);
    const after = { hit: 190, joined: 2, miss: 8, bypass: 900 };
    expect(lookupsBetween(before, after)).toEqual({ hit: 100, joined: 0, miss: 0, bypass: 400 });
    expect(hitRate(before)).toBe(0.9);
    expect(hitRate({ hit: 0, joined: 0, miss: 0, bypass: 7 })).toBeNaN();
    expect(sumLookups([before, after])).toEqual({ hit: 280, joined: 4, miss: 16, bypass: 1400 });
  });
});
