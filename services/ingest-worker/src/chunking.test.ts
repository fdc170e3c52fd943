import { describe, expect, it } from "vitest";
import { chunkEnd } from "./chunking";

const keyed = (...keys: Array<string | null>) =>
  keys.map((k) => ({ key: k === null ? null : Buffer.from(k) }));
const limits = { messages: 5, perKey: 2 };

/** Every chunk of `messages`, as [from, to). */
function chunks(messages: ReturnType<typeof keyed>) {
  const out: Array<[number, number]> = [];
  for (let from = 0, to = 0; from < messages.length; from = to) {
    to = chunkEnd(messages, from, limits);
    out.push([from, to]);
  }
  return out;
}

describe("chunkEnd", () => {
  it("cuts at the message cap when every organization is small", () => {
    expect(chunks(keyed("a", "b", "c", "d", "e", "f", "g"))).toEqual([
      [0, 5],
      [5, 7],
    ]);
  });

  it("cuts before one organization's messages go over the per-key cap", () => {
    expect(chunks(keyed("a", "a", "b", "a", "a", "a"))).toEqual([
      [0, 3],
      [3, 5],
      [5, 6],
    ]);
  });

  it("counts messages without a key as one key of their own", () => {
    expect(chunks(keyed(null, "a", null, null))).toEqual([
      [0, 3],
      [3, 4],
    ]);
  });

  it("always moves on, and ends at the batch's end", () => {
    expect(chunkEnd(keyed("a"), 0, { messages: 1, perKey: 1 })).toBe(1);
    expect(chunkEnd([], 0, limits)).toBe(0);
  });
});
