import { describe, expect, it } from "vitest";
import { cellsByBlock } from "./containerCells";

const b = (s: string) => Buffer.from(s);

describe("cellsByBlock", () => {
  it("groups a container's cells by block index and cuts the index from each field", () => {
    const grouped = cellsByBlock([b("7:12"), b("c1"), b("106:317"), b("c2"), b("7:3"), b("c3")]);
    expect([...grouped.keys()]).toEqual([7, 106]);
    expect(grouped.get(7)?.map(String)).toEqual(["12", "c1", "3", "c3"]);
    expect(grouped.get(106)?.map(String)).toEqual(["317", "c2"]);
  });

  it("refuses a field without a block index rather than counting it in some block", () => {
    expect(() => cellsByBlock([b("12"), b("c1")])).toThrow(/no block index/);
    expect(() => cellsByBlock([b(":12"), b("c1")])).toThrow(/no block index/);
  });
});
