import { describe, expect, it } from "vitest";
import { checkSortKeys } from "./rowOrder";

const fields = (groupBy: Parameters<typeof checkSortKeys>[1]["groupBy"], activeMembers = false) => ({
  groupBy,
  activeMembers,
});

describe("checkSortKeys", () => {
  it("accepts metrics always and group fields only when grouped by them", () => {
    expect(() => checkSortKeys([{ field: "total_words", descending: true }], fields([]))).not.toThrow();
    expect(() => checkSortKeys([{ field: "avg_wpm", descending: false }], fields([]))).not.toThrow();
    expect(() =>
      checkSortKeys([{ field: "app_name", descending: false }], fields(["voice_model", "app_name"])),
    ).not.toThrow();
    expect(() => checkSortKeys([{ field: "app_name", descending: true }], fields(["voice_model"]))).toThrow(
      /app_name is not a field of these rows/,
    );
  });

  it("accepts active_members only when the rows count members", () => {
    const byMembers = [{ field: "active_members", descending: true }] as const;
    expect(() => checkSortKeys(byMembers, fields(["app_name"], true))).not.toThrow();
    expect(() => checkSortKeys(byMembers, fields(["app_name"]))).toThrow(
      /active_members is not a field of these rows: include=active_members first/,
    );
  });
});
