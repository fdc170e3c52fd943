import { describe, expect, it } from "vitest";
import { paginate } from "./pagination";

describe("paginate", () => {
  const rows = [1, 2, 3, 4, 5];
  it("returns the page and the totals", () => {
    expect(paginate(rows, 2, 2)).toEqual({
      items: [3, 4],
      pagination: { page: 2, page_size: 2, total_rows: 5, total_pages: 3, count: 2 },
    });
  });
  it("gives an empty page past the end and zero pages for no rows", () => {
    expect(paginate(rows, 9, 2).items).toEqual([]);
    expect(paginate([], 1, 200).pagination).toEqual({
      page: 1,
      page_size: 200,
      total_rows: 0,
      total_pages: 0,
      count: 0,
    });
  });
});
