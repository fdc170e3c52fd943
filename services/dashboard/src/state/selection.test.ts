import { describe, expect, it } from "vitest";
import { defaultScreenState, screenStateFromUrl, screenStateToUrl } from "./screenState";
import { selectionOf, withGroupAt, withSelection } from "./selection";

describe("a dimension's selection: kept or left out", () => {
  it("reads exclude[...] as values left out, filter[...] as values kept", () => {
    const view = screenStateFromUrl("filter[app_name]=Zoom&exclude[voice_model]=v1,v2", "UTC");
    expect(selectionOf(view, "app_name")).toEqual({ mode: "keep", values: ["Zoom"] });
    expect(selectionOf(view, "voice_model")).toEqual({ mode: "leave_out", values: ["v1", "v2"] });
    expect(selectionOf(view, "member_email")).toEqual({ mode: "keep", values: [] });
  });

  it("moves a selection between the two lists, leaving the other dimensions alone", () => {
    const view = screenStateFromUrl("filter[app_name]=Zoom,Slack&filter[voice_model]=v1", "UTC");
    const left = {
      ...view,
      ...withSelection(view, "app_name", { mode: "leave_out", values: ["Zoom", "Slack"] }),
    };
    expect(left.filters.app_name).toEqual([]);
    expect(left.exclude.app_name).toEqual(["Zoom", "Slack"]);
    expect(left.filters.voice_model).toEqual(["v1"]);
    expect(screenStateToUrl(left).toString()).toBe(
      "range=last_30_days&timezone=UTC&filter%5Bvoice_model%5D=v1&exclude%5Bapp_name%5D=Zoom%2CSlack",
    );
    const back = { ...left, ...withSelection(left, "app_name", { mode: "keep", values: ["Zoom"] }) };
    expect(back.exclude.app_name).toEqual([]);
    expect(back.filters.app_name).toEqual(["Zoom"]);
  });
});

describe("group_by positions", () => {
  it("sets, replaces and clears a position without repeats or gaps", () => {
    expect(withGroupAt([], 0, "app_name")).toEqual(["app_name"]);
    expect(withGroupAt(["app_name"], 1, "voice_model")).toEqual(["app_name", "voice_model"]);
    // Clearing the first clears what depends on it.
    expect(withGroupAt(["app_name", "voice_model"], 0, null)).toEqual([]);
    expect(withGroupAt(["app_name", "voice_model"], 1, null)).toEqual(["app_name"]);
    // Choosing a dimension already used moves it rather than naming it twice.
    expect(withGroupAt(["app_name", "voice_model"], 0, "voice_model")).toEqual(["voice_model"]);
    expect(withGroupAt(["app_name"], 1, "app_name")).toEqual(["app_name"]);
  });

  it("starts with no grouping", () => {
    expect(defaultScreenState("UTC").groupBy).toEqual([]);
  });
});
