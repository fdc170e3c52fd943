import { describe, expect, it } from "vitest";
import type { BatchPayload } from "./batchAggregate";
import { encodeBatch, SKETCH_CELLS } from "./batchEncoding";
import { recordingDigest } from "./recordingDigest";

/** Reads the layout documented in lua/applyBatches.lua back, as the script does. */
function decode(buf: Buffer) {
  let at = 0;
  const u8 = () => buf.readUInt8(at++);
  const u32 = () => {
    at += 4;
    return buf.readUInt32LE(at - 4);
  };
  const str = () => {
    const n = buf.readUInt16LE(at);
    at += 2 + n;
    return buf.toString("utf8", at - n, at);
  };
  const digest = () => {
    at += 16;
    return buf.subarray(at - 16, at).toString("hex");
  };
  const ids = Array.from({ length: u32() }, digest);
  const combos = Array.from({ length: u32() }, () => ({ key: str(), values: [str(), str(), str(), str()] }));
  const blocks = Array.from({ length: u32() }, () => {
    const [suffix, prefix, expiry, fieldForm, cellBytes, n] = [str(), str(), str(), u8(), u8(), u32()];
    const fields = Array.from({ length: n }, () => (fieldForm ? u32() : str()));
    if (cellBytes === SKETCH_CELLS) {
      // Sketch cells: a u16 number of pairs, then each pair's u16 key and u32 count.
      const sketches = fields.map(() => {
        const pairs = buf.readUInt16LE(at);
        at += 2;
        return Array.from({ length: pairs }, () => {
          at += 6;
          return [buf.readUInt16LE(at - 6), buf.readUInt32LE(at - 4)];
        });
      });
      return { suffix, prefix, expiry, fieldForm, cellBytes, fields, sketches };
    }
    const sums = Array.from({ length: n * 7 }, (_, i) =>
      cellBytes === 28 ? buf.readUInt32LE(at + 4 * i) : buf.readDoubleLE(at + 8 * i),
    );
    at += n * cellBytes;
    return { suffix, prefix, expiry, fieldForm, cellBytes, fields, sums };
  });
  return { ids, combos, blocks, rest: buf.length - at };
}

describe("encodeBatch", () => {
  it("writes ids, combinations and blocks in the script's layout, small cells while sums fit", () => {
    const payload: BatchPayload = {
      ids: ["r-1", "r-ü"],
      extent: [0, 0],
      combos: [{ key: '["a@x","v",null,"Zoom"]', values: ["a@x", "v", null, "Zoom"] }],
      blocks: [
        {
          suffix: "b:h:202611201000:c",
          prefix: "",
          expireAtMs: 1_800_000_000_000,
          fieldForm: 1,
          fields: [1],
          sums: [2, 200, 120_000, 600, 2, 0, 0],
        },
        {
          suffix: "s:M:202601010000",
          prefix: "10:",
          expireAtMs: 0,
          fieldForm: 0,
          fields: ['Zoom, "Büro"', ""],
          sums: [1, 2 ** 40, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0],
        },
      ],
    };
    expect(decode(encodeBatch(payload))).toEqual({
      ids: ["r-1", "r-ü"].map((id) => recordingDigest(id).toString("hex")),
      combos: [{ key: '["a@x","v",null,"Zoom"]', values: ["a@x", "v", "", "Zoom"] }],
      blocks: [
        {
          suffix: "b:h:202611201000:c",
          prefix: "",
          expiry: "1800000000000",
          fieldForm: 1,
          cellBytes: 28,
          fields: [1],
          sums: [2, 200, 120_000, 600, 2, 0, 0],
        },
        {
          suffix: "s:M:202601010000",
          prefix: "10:",
          expiry: "0",
          fieldForm: 0,
          cellBytes: 56,
          fields: ['Zoom, "Büro"', ""],
          sums: [1, 2 ** 40, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0],
        },
      ],
      rest: 0,
    });
  });

  it("grows past its first buffer", () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => `recording-${i}`);
    const decoded = decode(encodeBatch({ ids, combos: [], blocks: [], extent: [0, 0] }));
    expect(decoded.ids).toEqual(ids.map((id) => recordingDigest(id).toString("hex")));
    expect(decoded.rest).toBe(0);
  });
});

describe("encodeBatch's sketch blocks", () => {
  it("writes each field's keys counted, in ascending key order, and leaves out a block without a field", () => {
    const sketchBlock = (suffix: string, sketches: number[][]) => ({
      suffix,
      prefix: "7:",
      expireAtMs: 0,
      fieldForm: 1 as const,
      fields: sketches.map((_, i) => i + 1),
      sums: [],
      sketches,
    });
    const decoded = decode(
      encodeBatch({
        ids: [],
        combos: [],
        blocks: [sketchBlock("s:m:202611200000:q", [[40, 3, 40, 0x8005], [2]]), sketchBlock("s:h:x:q", [])],
        extent: [0, 0],
      }),
    );
    expect(decoded.blocks).toEqual([
      {
        suffix: "s:m:202611200000:q",
        prefix: "7:",
        expiry: "0",
        fieldForm: 1,
        cellBytes: SKETCH_CELLS,
        fields: [1, 2],
        sketches: [
          [
            [3, 1],
            [40, 2],
            [0x8005, 1],
          ],
          [[2, 1]],
        ],
      },
    ]);
    expect(decoded.rest).toBe(0);
  });

  it("writes a projection's sketches under its literal fields (docs/decisions/0029)", () => {
    // The hour's total (quarter 2) and its app projection, beside their cells' keys.
    const decoded = decode(
      encodeBatch({
        ids: [],
        combos: [],
        blocks: [
          {
            suffix: "b:h:202611201000:t:q",
            prefix: "",
            expireAtMs: 1_800_000_000_000,
            fieldForm: 0,
            fields: ["2*"],
            sums: [],
            sketches: [[0x8005, 9, 9, 9, 1]],
          },
          {
            suffix: "b:h:202611201000:a:q",
            prefix: "",
            expireAtMs: 1_800_000_000_000,
            fieldForm: 0,
            fields: ["2Zoom", "2Teams"],
            sums: [],
            sketches: [
              [9, 1],
              [0x8005, 9],
            ],
          },
        ],
        extent: [0, 0],
      }),
    );
    expect(decoded.blocks).toEqual([
      {
        suffix: "b:h:202611201000:t:q",
        prefix: "",
        expiry: "1800000000000",
        fieldForm: 0,
        cellBytes: SKETCH_CELLS,
        fields: ["2*"],
        sketches: [
          [
            [1, 1],
            [9, 3],
            [0x8005, 1],
          ],
        ],
      },
      {
        suffix: "b:h:202611201000:a:q",
        prefix: "",
        expiry: "1800000000000",
        fieldForm: 0,
        cellBytes: SKETCH_CELLS,
        fields: ["2Zoom", "2Teams"],
        sketches: [
          [
            [1, 1],
            [9, 1],
          ],
          [
            [9, 1],
            [0x8005, 1],
          ],
        ],
      },
    ]);
    expect(decoded.rest).toBe(0);
  });
});

describe("recordingDigest", () => {
  it("keeps 16 bytes of any id, the same for the same id and different for different ones", () => {
    const long = "r".repeat(128);
    expect(recordingDigest(long)).toHaveLength(16);
    expect(recordingDigest("r-1").equals(recordingDigest("r-1"))).toBe(true);
    expect(recordingDigest("r-1").equals(recordingDigest("r-2"))).toBe(false);
    // SHA-256("abc") begins ba7816bf 8f01cfea 414140de 5dae2223.
    expect(recordingDigest("abc").toString("hex")).toBe("ba7816bf8f01cfea414140de5dae2223");
  });
});
