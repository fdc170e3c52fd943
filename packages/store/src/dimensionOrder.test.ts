import { DIMENSION_INDEX, DIMENSIONS, dimensionValues, type RecordingCompleted } from "@vu/events";
import { describe, expect, it } from "vitest";
import { ORGANIZATION_KEYS, organizationKeys } from "./applyCall";
import { createKeyspace } from "./keyspace";
import { LUA_CONSTANTS } from "./luaConstants";
import { PROJECTION_VIEW_OFFSET, VIEWS } from "./views";

/** The one order of the dimensions (DIMENSIONS) is the order everything else uses. */
describe("dimension order", () => {
  it("is the order of an organization's dimension sets in an apply call, from ORG_KEY_FIRST_DIMENSION on", () => {
    const first = LUA_CONSTANTS.ORG_KEY_FIRST_DIMENSION - 1;
    expect(ORGANIZATION_KEYS.slice(first, first + LUA_CONSTANTS.DIMENSION_COUNT)).toEqual([...DIMENSIONS]);
    const keyspace = createKeyspace({ prefix: "p" });
    const keys = organizationKeys(keyspace, 1, "acme");
    expect(keys).toHaveLength(LUA_CONSTANTS.ORG_KEYS);
    expect(keys.slice(first, first + DIMENSIONS.length)).toEqual(
      DIMENSIONS.map((d) => keyspace.dimension(1, "acme", d)),
    );
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
