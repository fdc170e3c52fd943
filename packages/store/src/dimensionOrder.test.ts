import { DIMENSION_INDEX, DIMENSIONS, dimensionValues, type RecordingCompleted } from "@vu/events";
import { describe, expect, it } from "vitest";
import { loadScript } from "./scripts";
import { PROJECTION_VIEW_OFFSET, VIEWS } from "./views";

/** The one order of the dimensions (DIMENSIONS) is the order everything else uses. */
describe("dimension order", () => {
  it("is the apply script's order of an organization's dimension-set keys, its 3rd to 6th", () => {
    const header = loadScript("applyBatches");
    const keys = [...header.matchAll(/\b(\d) dim:(\w+)/g)].map(([, n, d]) => [Number(n), d]);
    expect(keys).toEqual(DIMENSIONS.map((d, i) => [3 + i, d]));
  });

  it("is the order of the projection views, of a combination's values and of DIMENSION_INDEX", () => {
    expect(VIEWS.slice(PROJECTION_VIEW_OFFSET)).toEqual([...DIMENSIONS]);
    const event = {
      member_email: "m@x.com",
      voice_model: "v",
      language_model: null,
      app_name: "a",
    } as RecordingCompleted;
    const values = dimensionValues(event);
    for (const d of DIMENSIONS) expect(values[DIMENSION_INDEX[d]]).toBe(event[d]);
  });
});
