import { describe, expect, it } from "vitest";
import { parseWrk } from "./wrkLoad";

const REPORT = `Running 3s test @ http://127.0.0.1:18955/healthz
  1 threads and 200 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    16.08ms   26.61ms 325.58ms   96.46%
  Latency Distribution
     50%  850.00us
     75%   17.71ms
     90%   27.23ms
     99%    1.65s
  5050 requests in 3.01s, 1.25MB read
  Socket errors: connect 0, read 2, write 0, timeout 3
  Non-2xx or 3xx responses: 7
Requests/sec:   1675.26
Transfer/sec:    425.36KB
`;

describe("parseWrk", () => {
  it("reads the rate, the percentiles in their units and every kind of error", () => {
    expect(parseWrk(REPORT)).toEqual({ requestsPerSecond: 1675.26, p50: 0.85, p99: 1650, errors: 12 });
  });

  it("refuses a report without the latency distribution", () => {
    expect(() => parseWrk("Requests/sec: 10\n")).toThrow(/no 50% latency/);
  });
});
