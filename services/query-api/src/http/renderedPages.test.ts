import { describe, expect, it } from "vitest";
import { RENDERED_PAGES_PER_ANSWER } from "../query/pagination";
import { createRenderedPages } from "./renderedPages";

describe("createRenderedPages", () => {
  it("renders a page of an answer once, and again for another answer", () => {
    const pages = createRenderedPages();
    let renders = 0;
    const render = () => `body ${++renders}`;
    const answer = {};
    expect(pages.body(answer, "json:1:200", render).toString()).toBe("body 1");
    expect(pages.body(answer, "json:1:200", render).toString()).toBe("body 1");
    // The answer was computed again: a new object, so its pages are rendered anew.
    expect(pages.body({}, "json:1:200", render).toString()).toBe("body 2");
  });

  it(`keeps the last ${RENDERED_PAGES_PER_ANSWER} pages of each answer`, () => {
    const pages = createRenderedPages();
    let renders = 0;
    const answer = {};
    const body = (page: string) => pages.body(answer, page, () => `${page} #${++renders}`).toString();
    body("json:1:200");
    body("json:2:200");
    body("csv:1:200");
    expect(renders).toBe(3);
    expect(body("csv:1:200")).toBe("csv:1:200 #3");
    expect(body("json:2:200")).toBe("json:2:200 #2");
    // Page 1 was the oldest and made room.
    expect(body("json:1:200")).toBe("json:1:200 #4");
  });
});
