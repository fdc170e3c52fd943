import { gzipSync } from "node:zlib";
import { compressFrameSync } from "lz4-napi";
import { compressSync } from "snappy";
import { describe, expect, it } from "vitest";
import { DecompressionRefused, XERIAL_HEADER } from "./decompressedBounds";
import { assertKafkajsPatched, DECOMPRESSORS, isPatchedKafkajs } from "./kafkaCodecs";

const SAMPLE = Buffer.from('{"hello":"world","n":1234567890}'.repeat(20));
const LIMIT = 1024 * 1024;

/** `SAMPLE` as the zstd command line compresses it (`zstd -19`): one frame with a content checksum. */
const ZSTD_SAMPLE = Buffer.from(
  "28b52ffd6480014d010004027b2268656c6c6f223a22776f726c64222c226e223a313233343536373839307d0100e8322af504885bf0eb",
  "hex",
);

/** Java's client wraps snappy blocks in the xerial framing: header, then length-prefixed blocks. */
function xerial(...blocks: Buffer[]): Buffer {
  const versions = Buffer.alloc(8);
  versions.writeInt32BE(1, 0);
  versions.writeInt32BE(1, 4);
  const framed = blocks.flatMap((block) => {
    const size = Buffer.alloc(4);
    size.writeInt32BE(block.length);
    return [size, block];
  });
  return Buffer.concat([Buffer.from(XERIAL_HEADER), versions, ...framed]);
}

/** A zstd frame of RLE blocks built by hand: each block is 4 bytes and says it yields `size` bytes. */
function zstdRleFrame(blocks: number, size: number): Buffer {
  // Frame header: no content size, not single-segment, a 128 KiB window (exponent 7, mantissa 0).
  const header = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 7 << 3]);
  const body = Array.from({ length: blocks }, (_, i) => {
    const last = i === blocks - 1 ? 1 : 0;
    const block = Buffer.alloc(4);
    block.writeUIntLE(last | (1 << 1) | (size << 3), 0, 3);
    block[3] = 0x61;
    return block;
  });
  return Buffer.concat([header, ...body]);
}

describe("the codecs a consumer reads", () => {
  it("gzip, snappy (raw and xerial-framed), lz4 frames and zstd decompress to the records", () => {
    expect(DECOMPRESSORS.gzip(gzipSync(SAMPLE), LIMIT)).toEqual(SAMPLE);
    expect(DECOMPRESSORS.snappy(compressSync(SAMPLE), LIMIT)).toEqual(SAMPLE);
    const half = SAMPLE.length / 2;
    const framed = xerial(compressSync(SAMPLE.subarray(0, half)), compressSync(SAMPLE.subarray(half)));
    expect(DECOMPRESSORS.snappy(framed, LIMIT)).toEqual(SAMPLE);
    expect(DECOMPRESSORS.lz4(compressFrameSync(SAMPLE), LIMIT)).toEqual(SAMPLE);
    expect(DECOMPRESSORS.zstd(ZSTD_SAMPLE, LIMIT)).toEqual(SAMPLE);
    expect(DECOMPRESSORS.zstd(zstdRleFrame(3, 10), LIMIT)).toEqual(Buffer.alloc(30, 0x61));
  });

  it("refuses a batch that would decompress past the limit before decompressing it", () => {
    // 4 KiB of zstd that says it holds 128 MiB: refused from its block headers alone.
    const bomb = zstdRleFrame(1024, 131_072);
    expect(bomb.length).toBeLessThan(5_000);
    expect(() => DECOMPRESSORS.zstd(bomb, LIMIT)).toThrow(DecompressionRefused);
    // A frame that asks for a 2 GiB window (which the decoder would allocate) with nothing in it.
    const hugeWindow = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 21 << 3, 0x01, 0x00, 0x00]);
    expect(() => DECOMPRESSORS.zstd(hugeWindow, LIMIT)).toThrow(/zstd: .* more than/);
    // A small window with a declared content size of 2 GiB (which the decoder would allocate).
    const declared = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x80, 7 << 3, 0, 0, 0, 0x80, 0x01, 0x00, 0x00]);
    expect(() => DECOMPRESSORS.zstd(declared, LIMIT)).toThrow(/zstd: .* 2147483648 bytes/);
    const big = Buffer.alloc(4 * LIMIT, 0x61);
    expect(() => DECOMPRESSORS.gzip(gzipSync(big), LIMIT)).toThrow(DecompressionRefused);
    expect(() => DECOMPRESSORS.snappy(compressSync(big), LIMIT)).toThrow(/snappy: .* more than/);
    expect(() => DECOMPRESSORS.lz4(compressFrameSync(big), LIMIT)).toThrow(/lz4: .* more than/);
    // Within the limit, the same data passes.
    expect(DECOMPRESSORS.lz4(compressFrameSync(big), 8 * LIMIT).equals(big)).toBe(true);
  });

  it("refuses cut or foreign framing with a reason, never a crash", () => {
    const cut = (data: Buffer) => data.subarray(0, data.length - 3);
    expect(() => DECOMPRESSORS.zstd(cut(ZSTD_SAMPLE), LIMIT)).toThrow(/zstd/);
    expect(() => DECOMPRESSORS.lz4(cut(compressFrameSync(SAMPLE)), LIMIT)).toThrow(/lz4/);
    expect(() => DECOMPRESSORS.snappy(cut(xerial(compressSync(SAMPLE))), LIMIT)).toThrow(/snappy/);
    expect(() => DECOMPRESSORS.lz4(SAMPLE, LIMIT)).toThrow("lz4: not an LZ4 frame");
    expect(() => DECOMPRESSORS.zstd(SAMPLE, LIMIT)).toThrow("zstd: not a Zstandard frame");
    expect(() => DECOMPRESSORS.gzip(SAMPLE, LIMIT)).toThrow();
  });

  it("knows whether the installed kafkajs carries the project's patch", () => {
    expect(() => assertKafkajsPatched()).not.toThrow();
    const patched = {
      decoder: "const undecodableMarker = ...",
      consumerGroup: "batch.fetchRequestedAt = t",
      admin: "const fetchTopicIds = async",
    };
    expect(isPatchedKafkajs(patched)).toBe(true);
    expect(isPatchedKafkajs({ ...patched, decoder: "const records = await decodeRecords()" })).toBe(false);
    expect(isPatchedKafkajs({ ...patched, consumerGroup: "return new Batch()" })).toBe(false);
    expect(isPatchedKafkajs({ ...patched, admin: "const fetchTopicMetadata = async" })).toBe(false);
  });
});
