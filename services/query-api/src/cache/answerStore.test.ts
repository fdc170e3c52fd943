import { describe, expect, it } from "vitest";
import { createAnswerStore } from "./answerStore";

interface Entry {
  name: string;
  rows: number;
}

const store = () =>
  createAnswerStore<Entry>({ maxRows: 100, maxLargeRows: 1_000, ttlMs: 60_000, rowsOf: (e) => e.rows });

describe("createAnswerStore", () => {
  it("keeps an answer larger than a quarter of maxRows apart, up to maxLargeRows", () => {
    const answers = store();
    answers.set("big", { name: "big", rows: 600 });
    answers.set("small", { name: "small", rows: 10 });
    expect(answers.get("big")?.name).toBe("big");
    expect(answers.get("small")?.name).toBe("small");
    answers.set("huge", { name: "huge", rows: 1_000 });
    expect(answers.get("huge")).toBeUndefined();
  });

  it("lets large answers push out only each other", () => {
    const answers = store();
    for (let i = 0; i < 4; i++) answers.set(`small${i}`, { name: `small${i}`, rows: 20 });
    answers.set("big1", { name: "big1", rows: 600 });
    answers.set("big2", { name: "big2", rows: 600 });
    expect(answers.get("big1")).toBeUndefined();
    expect(answers.get("big2")?.name).toBe("big2");
    for (let i = 0; i < 4; i++) expect(answers.get(`small${i}`)?.name).toBe(`small${i}`);
  });

  it("replaces what an id held, whichever store holds it", () => {
    const answers = store();
    answers.set("q", { name: "large then", rows: 600 });
    answers.set("q", { name: "small now", rows: 5 });
    expect(answers.get("q")?.name).toBe("small now");
    answers.set("q", { name: "too large", rows: 5_000 });
    expect(answers.get("q")).toBeUndefined();
  });

  it("keeps no large answer with maxLargeRows 0", () => {
    const answers = createAnswerStore<Entry>({
      maxRows: 100,
      maxLargeRows: 0,
      ttlMs: 60_000,
      rowsOf: (e) => e.rows,
    });
    answers.set("big", { name: "big", rows: 26 });
    expect(answers.get("big")).toBeUndefined();
  });
});
