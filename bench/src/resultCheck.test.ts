import { describe, expect, it } from "vitest";
import type { DashboardQuery } from "./dashboardQueries";
import { compareAnswers, fromSql } from "./resultCheck";

/** A CSV page 2 of 1000 rows, as query (e) asks it. */
const pageTwo: DashboardQuery = {
  id: "e",
  title: "CSV page",
  kind: "csv",
  groupBy: "member_email",
  path: "/api/v1/stats",
  raw: { kind: "csv", org: "o", fromMs: 0, toMs: 1, zone: "UTC", unit: "day", page: 2, pageSize: 1000 },
};

describe("compareAnswers on an empty page past the first", () => {
  it("accepts the API's total when it is at most the rows before the page", () => {
    const sql = fromSql(pageTwo, []);
    expect(sql.totalAtMost).toBe(1000);
    expect(compareAnswers({ totalRows: 1, rows: [] }, sql)).toBeNull();
    expect(compareAnswers({ totalRows: 1000, rows: [] }, sql)).toBeNull();
  });

  it("refuses a total that would put rows on the page, or rows the engine did not return", () => {
    const sql = fromSql(pageTwo, []);
    expect(compareAnswers({ totalRows: 1001, rows: [] }, sql)).toMatch(/at most 1000/);
    expect(compareAnswers({ totalRows: 1, rows: [{ bucket: 0 }] }, sql)).toMatch(/rows in page/);
  });

  it("keeps the exact total on the first page", () => {
    const first = { ...pageTwo, raw: { ...pageTwo.raw, page: 1 } };
    expect(fromSql(first, []).totalAtMost).toBeUndefined();
    expect(compareAnswers({ totalRows: 1, rows: [] }, fromSql(first, []))).toMatch(/total rows/);
  });
});
