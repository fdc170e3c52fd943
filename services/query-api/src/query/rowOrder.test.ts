import { describe, expect, it } from "vitest";
import { checkSortKeys } from "./rowOrder";

describe("checkSortKeys", () => {
  it("accepts metrics always and group fields only when grouped by them", () => {
    expect(() => checkSortKeys([{ field: "total_words", descending: true }], [])).not.toThrow();
    expect(() => checkSortKeys([{ field: "avg_wpm", descending: false }], [])).not.toThrow();
    expect(() =>
      checkSortKeys([{ field: "app_name", descending: false }], ["voice_model", "app_name"]),
    ).not.toThrow();
    expect(() => checkSortKeys([{ field: "app_name", descending: true }], ["voice_model"])).toThrow(
      /app_name is not a field of these rows/,
    );
  });
});
