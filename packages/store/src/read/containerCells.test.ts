import { describe, expect, it } from "vitest";
import { emptySums, packSums } from "../format/sums";
import { StoreError } from "../storeError";
import {
  cellCount,
  cellField,
  cellSums,
  cellsByBlock,
  comboIdOf,
  fieldQuarter,
  fieldStart,
  projectionKeyOf,
  projectionValueOf,
  sumCells,
} from "./containerCells";

const b = (s: string) => Buffer.from(s);

describe("cellsByBlock", () => {
  it("groups a container's cells by block index and cuts the index from each field", () => {
    const grouped = cellsByBlock([b("7:12"), b("c1"), b("106:317"), b("c2"), b("7:3"), b("c3")]);
    expect([...grouped.keys()]).toEqual([7, 106]);
    expect(grouped.get(7)?.map(String)).toEqual(["12", "c1", "3", "c3"]);
    expect(grouped.get(106)?.map(String)).toEqual(["317", "c2"]);
  });

  it("keeps only the blocks asked for, and refuses a field whose index is not a number", () => {
    const grouped = cellsByBlock(
      [b("7:12"), b("c1"), b("106:317"), b("c2"), b("7:3"), b("c3")],
      Uint8Array.from({ length: 200 }, (_, i) => (i === 106 ? 1 : 0)),
    );
    expect([...grouped.keys()]).toEqual([106]);
    expect(grouped.get(106)?.map(String)).toEqual(["317", "c2"]);
    expect(() => cellsByBlock([b("x7:1"), b("c1")])).toThrow(/block index/);
    expect(() => cellsByBlock([b(":1"), b("c1")])).toThrow(/block index/);
  });

  it("walks a block's cells by index: each cell's field and packed sums", () => {
    const cells = cellsByBlock([b("7:12"), b("c1"), b("7:3"), b("c3")]).get(7) ?? [];
    expect(cellCount(cells)).toBe(2);
    expect(
      Array.from({ length: cellCount(cells) }, (_, i) => `${cellField(cells, i)}=${cellSums(cells, i)}`),
    ).toEqual(["12=c1", "3=c3"]);
    expect(cellCount([])).toBe(0);
  });

  it("sums a block's cells, whatever their fields, onto what it is given", () => {
    const cells = [
      b("1"),
      packSums({ ...emptySums(), count: 2, words: 5 }),
      b("2"),
      packSums({ ...emptySums(), count: 1 }),
    ];
    expect(sumCells(cells)).toEqual({ ...emptySums(), count: 3, words: 5 });
    expect(sumCells(cells, { ...emptySums(), count: 10 }).count).toBe(13);
    expect(sumCells([])).toEqual(emptySums());
  });

  it("refuses a field without a block index rather than counting it in some block", () => {
    expect(() => cellsByBlock([b("12"), b("c1")])).toThrow(/no block index/);
    expect(() => cellsByBlock([b(":12"), b("c1")])).toThrow(/no block index/);
  });
});

describe("reading stored fields", () => {
  it("reads quarter digits, combination ids and projection values from where the field proper starts", () => {
    expect(fieldQuarter(b("3417"))).toBe(3);
    expect(comboIdOf(b("3417"), fieldStart(true))).toBe(417);
    expect(comboIdOf(b("417"), fieldStart(false))).toBe(417);
    expect(projectionValueOf(b("2Ärzte"), fieldStart(true))).toBe("Ärzte");
    expect(projectionValueOf(b("1"), fieldStart(true))).toBeNull();
    expect(projectionKeyOf(b("Ärzte"), 0)).not.toBe(projectionKeyOf(b("Arzte"), 0));
  });

  it("refuses a corrupt field with the store's error rather than counting it somewhere", () => {
    expect(() => fieldQuarter(b("7abc"))).toThrow(StoreError);
    expect(() => fieldQuarter(b(""))).toThrow(/no quarter digit/);
    expect(() => comboIdOf(b("12x"), 0)).toThrow(/not a combination id/);
    expect(() => comboIdOf(b("3"), 1)).toThrow(/names no combination/);
  });
});
