import { describe, expect, it } from "vitest";
import { pageRange } from "./pagination";

describe("pageRange", () => {
  it("returns the page's rows and the totals", () => {
    expect(pageRange(5, 2, 2)).toEqual({
      from: 2,
      to: 4,
      pagination: { page: 2, page_size: 2, total_rows: 5, total_pages: 3, count: 2 },
    });
    expect(pageRange(5, 3, 2)).toMatchObject({ from: 4, to: 5, pagination: { count: 1 } });
  });
  it("gives an empty page past the end, even the last possible one, and zero pages for no rows", () => {
    expect(pageRange(5, 9, 2)).toMatchObject({ from: 5, to: 5, pagination: { count: 0 } });
    expect(pageRange(5, Number.MAX_SAFE_INTEGER, 1000)).toMatchObject({ from: 5, to: 5 });
    expect(pageRange(0, 1, 200).pagination).toEqual({
      page: 1,
      page_size: 200,
      total_rows: 0,
      total_pages: 0,
      count: 0,
    });
  });
});
