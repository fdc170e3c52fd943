import {
  CheckpointMovedError,
  isTransientRedisError,
  PartitionFencedError,
  ReadKeptMovingError,
  ShardBehindError,
  StoreError,
  TokenConflictError,
  ViewMovedError,
} from "@vu/store";
import { ReplyError } from "ioredis";
import { KafkaJSConnectionError, KafkaJSNumberOfRetriesExceeded } from "kafkajs";
import { describe, expect, it } from "vitest";
import { isRetriable } from "./retryRule";

/** A store failure as the store makes one from a Redis error: its verdict is the store's. */
const storeFailure = (cause: Error) =>
  new StoreError("applying a batch to Redis failed", { retriable: isTransientRedisError(cause), cause });

describe("the worker's retry rule", () => {
  it("takes a store failure's own verdict, whatever caused it", () => {
    expect(isRetriable(new StoreError("Redis away", { retriable: true }))).toBe(true);
    expect(isRetriable(new StoreError("a reply not understood", { retriable: false }))).toBe(false);
    // The cause is not judged again: a TypeError inside a retriable store failure is retried.
    expect(isRetriable(new StoreError("x", { retriable: true, cause: new TypeError("y") }))).toBe(true);
    expect(isRetriable(new StoreError("x", { retriable: false, cause: new Error("timeout") }))).toBe(false);
  });

  it("retries what the store says Redis may answer otherwise later, and nothing it says Redis will answer again", () => {
    for (const reply of [
      "LOADING Redis is loading",
      "OOM command not allowed",
      "READONLY replica",
      "NOPERM no",
    ])
      expect(isRetriable(storeFailure(new ReplyError(reply))), reply).toBe(true);
    expect(isRetriable(storeFailure(new Error("Connection is closed.")))).toBe(true);
    for (const reply of ["WRONGTYPE Operation against a key", "ERR user_script:1: batch truncated"])
      expect(isRetriable(storeFailure(new ReplyError(reply))), reply).toBe(false);
  });

  it("never retries the view moving under the worker: it repositions instead", () => {
    const moved = [
      new CheckpointMovedError("12"),
      new CheckpointMovedError(null),
      new ShardBehindError(3, 1, 2),
      new PartitionFencedError(3, "1700000000000000"),
    ];
    for (const error of moved) {
      expect(error).toBeInstanceOf(ViewMovedError);
      expect(error.retriable).toBe(false);
      expect(isRetriable(error)).toBe(false);
    }
    expect(isRetriable(new ViewMovedError("moved"))).toBe(false);
  });

  it("reads the other special store errors' verdicts too", () => {
    expect(isRetriable(new ReadKeptMovingError(100, 3))).toBe(true);
    expect(isRetriable(new TokenConflictError("org"))).toBe(false);
  });

  it("waits out failures that are not the store's, but not faults of this code", () => {
    expect(isRetriable(new KafkaJSConnectionError("ECONNREFUSED"))).toBe(true);
    const exhausted = new KafkaJSNumberOfRetriesExceeded(new KafkaJSConnectionError("ECONNREFUSED"), {
      retryCount: 5,
      retryTime: 100,
    } as never);
    expect(isRetriable(exhausted)).toBe(true);
    expect(isRetriable(new Error("reading the tokens topic timed out"))).toBe(true);
    expect(isRetriable(new TypeError("a recording of a batch with an origin must carry its offset"))).toBe(
      false,
    );
    expect(isRetriable(new RangeError("string of 70000 bytes is too long for the batch encoding"))).toBe(
      false,
    );
  });
});
