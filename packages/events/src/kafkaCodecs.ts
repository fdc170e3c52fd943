// The compression codecs a consumer of this project reads. Producers are other teams' services: any
// of them may set gzip, snappy, lz4 or zstd (Java's client and librdkafka offer all four), and
// kafkajs itself reads only gzip. Its codec registry is global to the process, so registering here
// once makes every consumer the project builds (the worker, the token restore, tests) read them all.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { gunzipSync } from "node:zlib";
import { decompress as zstdDecompress } from "fzstd";
import kafkajs from "kafkajs";
import { decompressFrameSync as lz4Decompress } from "lz4-napi";
import { uncompressSync as snappyUncompress } from "snappy";
import { checkLz4, checkSnappy, checkZstd, DecompressionRefused, snappyBlocks } from "./decompressedBounds";

// kafkajs is CommonJS, and Node's ESM loader cannot see these exports by name.
const { CompressionCodecs, CompressionTypes } = kafkajs;

/**
 * The most one record batch may decompress to. Kafka limits batches by their compressed size
 * (`max.message.bytes`, 1 MiB by default), so a small batch could otherwise take gigabytes; a batch
 * over this is undecodable (dead-lettered whole, see `undecodableBatch`), never a crashed worker.
 */
export const MAX_DECOMPRESSED_BATCH_BYTES = 128 * 1024 * 1024;

export type CodecName = "gzip" | "snappy" | "lz4" | "zstd";

/** How each codec turns a batch's compressed records into their bytes, bounded by `limit`. */
export const DECOMPRESSORS: Readonly<Record<CodecName, (data: Buffer, limit: number) => Buffer>> = {
  // zlib stops at maxOutputLength with a RangeError, before allocating beyond it.
  gzip: (data, limit) => {
    try {
      return gunzipSync(data, { maxOutputLength: limit });
    } catch (error) {
      if (error instanceof RangeError) throw new DecompressionRefused(`gzip: more than ${limit} bytes`);
      throw error;
    }
  },
  snappy: (data, limit) => {
    const blocks = snappyBlocks(data);
    checkSnappy(blocks, limit);
    const parts = blocks.map((block) => snappyUncompress(block, { asBuffer: true }) as Buffer);
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  },
  lz4: (data, limit) => {
    checkLz4(data, limit);
    return lz4Decompress(data);
  },
  zstd: (data, limit) => {
    checkZstd(data, limit);
    const out = zstdDecompress(data);
    return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  },
};

const TYPES: Readonly<Record<CodecName, number>> = {
  gzip: CompressionTypes.GZIP,
  snappy: CompressionTypes.Snappy,
  lz4: CompressionTypes.LZ4,
  zstd: CompressionTypes.ZSTD,
};

/** This project reads compressed batches; it never writes one (its producers send uncompressed). */
function codec(name: CodecName, limit: number) {
  return {
    async compress(): Promise<Buffer> {
      throw new Error(`this project's producers do not write ${name}: send uncompressed`);
    },
    async decompress(data: Buffer): Promise<Buffer> {
      return DECOMPRESSORS[name](data, limit);
    },
  };
}

/**
 * Whether kafkajs is the patched one (patches/kafkajs@2.2.4.patch, applied by pnpm at install):
 * unpatched, one undecodable batch fails every fetch of its partition, forever, batches carry no
 * fetch time for `X-Data-As-Of`, and the admin has no `fetchTopicIds` (a topic created again under
 * its name would go unnoticed).
 */
export function isPatchedKafkajs(sources: {
  decoder: string;
  consumerGroup: string;
  admin: string;
}): boolean {
  return (
    sources.decoder.includes("undecodableMarker") &&
    sources.consumerGroup.includes("fetchRequestedAt") &&
    sources.admin.includes("fetchTopicIds")
  );
}

/** Throws unless the installed kafkajs carries the patch (an install without pnpm drops it). */
export function assertKafkajsPatched(): void {
  const require = createRequire(import.meta.url);
  const read = (path: string) => readFileSync(require.resolve(`kafkajs/src/${path}`), "utf8");
  const sources = {
    decoder: read("protocol/recordBatch/v0/decoder.js"),
    consumerGroup: read("consumer/consumerGroup.js"),
    admin: read("admin/index.js"),
  };
  if (!isPatchedKafkajs(sources)) {
    throw new Error(
      "kafkajs is not patched (patches/kafkajs@2.2.4.patch, applied by pnpm at install): an undecodable " +
        "record batch would stop its partition for good; install the dependencies with pnpm",
    );
  }
}

let registeredLimit: number | undefined;

/**
 * Registers gzip, snappy, lz4 and zstd with kafkajs for this process, each bounded by `limit`.
 * Idempotent; the registry is the process's, so a later call with another limit replaces it for
 * every consumer (one worker per process in production).
 */
export function registerKafkaCodecs(limit = MAX_DECOMPRESSED_BATCH_BYTES): void {
  if (registeredLimit === limit) return;
  assertKafkajsPatched();
  registeredLimit = limit;
  const codecs = CompressionCodecs as unknown as Record<number, () => ReturnType<typeof codec>>;
  for (const name of Object.keys(TYPES) as CodecName[]) {
    const instance = codec(name, limit);
    codecs[TYPES[name]] = () => instance;
  }
}
