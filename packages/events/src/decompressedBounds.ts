// Upper bounds of what a compressed record batch decompresses to, read from the compressed
// framing alone. A producer may send a batch of a megabyte that inflates to gigabytes (zstd's RLE
// blocks reach 30,000:1); decompressing it first and checking after would already have taken the
// worker's memory. Each function walks headers only, so checking costs little next to decoding.

/** Thrown when a compressed batch would decompress to more than the limit, or its framing is broken. */
export class DecompressionRefused extends Error {
  override name = "DecompressionRefused";
}

function refuse(codec: string, bound: number, limit: number): never {
  throw new DecompressionRefused(
    `${codec}: the batch would decompress to up to ${bound} bytes, more than the ${limit} allowed`,
  );
}

function truncated(codec: string): never {
  throw new DecompressionRefused(`${codec}: the compressed data ends inside its framing`);
}

/** Snappy's raw format starts with the uncompressed length as a little-endian base-128 varint. */
export function snappyRawLength(block: Uint8Array): number {
  let length = 0;
  for (let i = 0, shift = 0; i < 5 && i < block.length; i++, shift += 7) {
    const byte = block[i] as number;
    length += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return length;
  }
  return truncated("snappy");
}

/** The xerial framing Kafka's Java client writes around snappy blocks ("\x82SNAPPY\0", two versions). */
export const XERIAL_HEADER = Uint8Array.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00]);
const XERIAL_HEADER_BYTES = 16;

export const isXerialFramed = (data: Uint8Array) =>
  data.length >= XERIAL_HEADER_BYTES && XERIAL_HEADER.every((byte, i) => data[i] === byte);

/** The raw snappy blocks of a batch: one when unframed (librdkafka's), several when xerial-framed. */
export function snappyBlocks(data: Buffer): Buffer[] {
  if (!isXerialFramed(data)) return [data];
  const blocks: Buffer[] = [];
  for (let at = XERIAL_HEADER_BYTES; at < data.length; ) {
    if (at + 4 > data.length) truncated("snappy");
    const size = data.readInt32BE(at);
    at += 4;
    if (size < 0 || at + size > data.length) truncated("snappy");
    blocks.push(data.subarray(at, at + size));
    at += size;
  }
  return blocks;
}

/** Checks that raw snappy blocks declare at most `limit` bytes together. */
export function checkSnappy(blocks: readonly Uint8Array[], limit: number): void {
  let total = 0;
  for (const block of blocks) total += snappyRawLength(block);
  if (total > limit) refuse("snappy", total, limit);
}

const LZ4_MAGIC = 0x184d2204;
const LZ4_SKIPPABLE_MASK = 0xfffffff0;
const LZ4_SKIPPABLE = 0x184d2a50;
/** Block maximum sizes by the BD byte's bits 6-4 (the LZ4 frame format, 4 to 7). */
const LZ4_BLOCK_MAX: Record<number, number> = { 4: 65_536, 5: 262_144, 6: 1_048_576, 7: 4_194_304 };

/**
 * An upper bound of an LZ4 frame stream's output: each data block holds at most the frame's block
 * maximum. Kafka writes one frame per batch; concatenated frames are summed.
 */
export function lz4Bound(data: Buffer): number {
  let total = 0;
  let at = 0;
  while (at < data.length) {
    if (at + 4 > data.length) truncated("lz4");
    const magic = data.readUInt32LE(at);
    if ((magic & LZ4_SKIPPABLE_MASK) >>> 0 === LZ4_SKIPPABLE) {
      if (at + 8 > data.length) truncated("lz4");
      at += 8 + data.readUInt32LE(at + 4);
      continue;
    }
    if (magic !== LZ4_MAGIC) throw new DecompressionRefused("lz4: not an LZ4 frame");
    if (at + 7 > data.length) truncated("lz4");
    const flags = data[at + 4] as number;
    const blockMax = LZ4_BLOCK_MAX[((data[at + 5] as number) >> 4) & 0x07];
    if (blockMax === undefined) throw new DecompressionRefused("lz4: unknown block maximum size");
    const blockChecksum = (flags & 0x10) !== 0;
    const contentSize = (flags & 0x08) !== 0;
    const contentChecksum = (flags & 0x04) !== 0;
    const dictionary = (flags & 0x01) !== 0;
    at += 4 + 2 + (contentSize ? 8 : 0) + (dictionary ? 4 : 0) + 1;
    for (;;) {
      if (at + 4 > data.length) truncated("lz4");
      const word = data.readUInt32LE(at);
      at += 4;
      if (word === 0) break;
      const size = word & 0x7fffffff;
      at += size + (blockChecksum ? 4 : 0);
      if (at > data.length) truncated("lz4");
      total += blockMax;
    }
    at += contentChecksum ? 4 : 0;
    if (at > data.length) truncated("lz4");
  }
  return total;
}

const ZSTD_MAGIC = 0xfd2fb528;
const ZSTD_SKIPPABLE = 0x184d2a50;
const ZSTD_BLOCK_MAX = 131_072;

/** What a zstd frame header says: its window, its declared content size (0: none), where its blocks start. */
function zstdFrameHeader(
  data: Buffer,
  at: number,
): { window: number; declared: number; blocksAt: number; checksum: boolean } {
  if (at + 5 > data.length) truncated("zstd");
  const descriptor = data[at + 4] as number;
  const fcsFlag = descriptor >> 6;
  const singleSegment = (descriptor & 0x20) !== 0;
  const checksum = (descriptor & 0x04) !== 0;
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 0x03] as number;
  const fcsBytes = [singleSegment ? 1 : 0, 2, 4, 8][fcsFlag] as number;
  let p = at + 5;
  let window = 0;
  if (!singleSegment) {
    if (p >= data.length) truncated("zstd");
    const wd = data[p] as number;
    const base = 2 ** (10 + (wd >> 3));
    window = base + (base / 8) * (wd & 0x07);
    p += 1;
  }
  p += dictionaryBytes;
  if (p + fcsBytes > data.length) truncated("zstd");
  // The decoder allocates the declared content size up front, whatever the blocks then hold.
  let declared = 0;
  if (fcsBytes > 0) {
    declared = fcsBytes === 8 ? Number(data.readBigUInt64LE(p)) : data.readUIntLE(p, fcsBytes);
    if (fcsBytes === 2) declared += 256;
  }
  // A single-segment frame's window is its content size.
  if (singleSegment) window = declared;
  return { window, declared, blocksAt: p + fcsBytes, checksum };
}

/**
 * An upper bound of a zstd stream's output and of the most a frame asks the decoder to allocate
 * (its window, or its declared content size): raw and RLE blocks state their size, a compressed
 * block yields at most the smaller of the window and 128 KiB.
 */
export function zstdBound(data: Buffer): { output: number; window: number } {
  let output = 0;
  let largestWindow = 0;
  let at = 0;
  while (at < data.length) {
    if (at + 4 > data.length) truncated("zstd");
    const magic = data.readUInt32LE(at);
    if ((magic & 0xfffffff0) >>> 0 === ZSTD_SKIPPABLE) {
      if (at + 8 > data.length) truncated("zstd");
      at += 8 + data.readUInt32LE(at + 4);
      continue;
    }
    if (magic !== ZSTD_MAGIC) throw new DecompressionRefused("zstd: not a Zstandard frame");
    const { window, declared, blocksAt, checksum } = zstdFrameHeader(data, at);
    largestWindow = Math.max(largestWindow, window, declared);
    at = blocksAt;
    for (let last = false; !last; ) {
      if (at + 3 > data.length) truncated("zstd");
      const header = data.readUIntLE(at, 3);
      at += 3;
      last = (header & 1) === 1;
      const type = (header >> 1) & 0x03;
      const size = header >>> 3;
      if (type === 3) throw new DecompressionRefused("zstd: reserved block type");
      at += type === 1 ? 1 : size;
      if (at > data.length) truncated("zstd");
      output += type === 2 ? Math.min(window || ZSTD_BLOCK_MAX, ZSTD_BLOCK_MAX) : size;
    }
    at += checksum ? 4 : 0;
    if (at > data.length) truncated("zstd");
  }
  return { output, window: largestWindow };
}

export function checkLz4(data: Buffer, limit: number): void {
  const bound = lz4Bound(data);
  if (bound > limit) refuse("lz4", bound, limit);
}

export function checkZstd(data: Buffer, limit: number): void {
  const { output, window } = zstdBound(data);
  if (Math.max(output, window) > limit) refuse("zstd", Math.max(output, window), limit);
}
