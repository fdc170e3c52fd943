import type { RecordingCompleted } from "@vu/events";
import { recording as kitRecording } from "@vu/testkit";
import { DAY_MS, DEFAULT_RETENTION } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { type Placement, STORED_TIERS, type StoredTier } from "../format/blockPlacement";
import { createKeyspace } from "../format/keyspace";
import { sketchKey } from "../format/sketches";
import { aggregateBatch, type BatchPayload, dedupeWindows } from "./batchAggregate";

const keyspace = createKeyspace({ prefix: "t" });
const nowMs = Date.parse("2026-11-22T12:00:00Z");
const placed = (...placements: Placement[]) =>
  Object.fromEntries(STORED_TIERS.map((tier, i) => [tier, placements[i] ?? "projected"])) as Record<
    StoredTier,
    Placement
  >;
/**
 * Every tier placed `projected`: each block in its own keys, one per projection; with percentile
 * sketches beside each of them.
 */
const options = { keyspace, retention: DEFAULT_RETENTION, nowMs, placement: placed(), sketches: true };

/** The kit's recording with the numbers these expectations were written for. */
const storeRecording = (id: string, at: string, patch: Partial<RecordingCompleted> = {}) =>
  kitRecording(id, at, {
    voice_model: "v1",
    word_count: 100,
    voice_processing_ms: 500,
    llm_processing_ms: 200,
    ...patch,
  });

const blockOf = (payload: BatchPayload, suffix: string) => payload.blocks.find((b) => b.suffix === suffix);
/** A block's cells flattened as `[field, 7 sums, field, ...]`, easy to read in expectations. */
const cellsOf = (payload: BatchPayload, suffix: string) => {
  const block = blockOf(payload, suffix);
  return block?.fields.flatMap((field, i) => [field, ...block.sums.slice(7 * i, 7 * i + 7)]);
};

describe("aggregateBatch", () => {
  it("folds recordings sharing a block into one cell per projection and field", () => {
    const payload = aggregateBatch(
      [
        storeRecording("a", "2026-11-20T10:00:05Z"),
        storeRecording("b", "2026-11-20T10:00:55Z", {
          llm_processing_ms: null,
          voice_processing_ms: 100,
          app_name: "Teams",
        }),
      ],
      options,
    );
    expect(payload.ids).toEqual(["a", "b"]);
    expect(payload.combos).toEqual([
      { key: '["ada@example.com","v1","gpt","Zoom"]', values: ["ada@example.com", "v1", "gpt", "Zoom"] },
      { key: '["ada@example.com","v1","gpt","Teams"]', values: ["ada@example.com", "v1", "gpt", "Teams"] },
    ]);
    // 5 stored tiers (quarter hours live inside hour blocks) × 6 projections, each with its
    // sketches beside it.
    expect(payload.blocks).toHaveLength(60);
    // docs/decisions/0027: the sketches beside the combination cells, the same fields, the times'
    // bucket keys per field (a null time adds none).
    expect(blockOf(payload, "b:m:202611201000:c:q")).toMatchObject({
      fields: [1, 2],
      sums: [],
      sketches: [[sketchKey("voice", 500), sketchKey("llm", 200)], [sketchKey("voice", 100)]],
    });
    expect(blockOf(payload, "b:h:202611201000:c:q")?.fields).toEqual([4 * 1 + 0, 4 * 2 + 0]);
    // docs/decisions/0029: every projection's key has its sketches beside it, with its fields,
    // field form and expiry: the total's one field holds both recordings' keys.
    const cellBlocks = payload.blocks.filter((b) => !b.sketches);
    expect(
      payload.blocks.filter((b) => b.sketches).map((b) => [b.suffix, b.fieldForm, b.expireAtMs]),
    ).toEqual(cellBlocks.map((b) => [`${b.suffix}:q`, b.fieldForm, b.expireAtMs]));
    expect(blockOf(payload, "b:M:202611010000:t:q")).toMatchObject({
      fields: ["*"],
      sketches: [[sketchKey("voice", 500), sketchKey("llm", 200), sketchKey("voice", 100)]],
    });
    expect(blockOf(payload, "b:d:202611200000:a:q")).toMatchObject({
      fields: ["Zoom", "Teams"],
      sketches: [[sketchKey("voice", 500), sketchKey("llm", 200)], [sketchKey("voice", 100)]],
    });
    // A split hour's projection fields carry their quarter's digit, as the cells' do.
    expect(blockOf(payload, "b:h:202611201000:t:q")?.fields).toEqual(["0*"]);
    expect(blockOf(payload, "b:h:202611201000:m:q")?.fields).toEqual(
      blockOf(payload, "b:h:202611201000:m")?.fields,
    );
    // A writer without sketches (the default) writes the cells alone.
    const plain = aggregateBatch([storeRecording("a", "2026-11-20T10:00:05Z")], {
      ...options,
      sketches: false,
    });
    expect(plain.blocks).toHaveLength(30);
    expect(plain.blocks.some((b) => b.sketches)).toBe(false);
    expect(cellsOf(payload, "b:m:202611201000:c")).toEqual([
      1, 1, 100, 60_000, 500, 1, 200, 1, 2, 1, 100, 60_000, 100, 1, 0, 0,
    ]);
    expect(cellsOf(payload, "b:M:202611010000:t")).toEqual(["*", 2, 200, 120_000, 600, 2, 200, 1]);
    expect(cellsOf(payload, "b:w:202611160000:m")).toEqual([
      "ada@example.com",
      2,
      200,
      120_000,
      600,
      2,
      200,
      1,
    ]);
    expect(cellsOf(payload, "b:d:202611200000:a")).toEqual([
      "Zoom",
      1,
      100,
      60_000,
      500,
      1,
      200,
      1,
      "Teams",
      1,
      100,
      60_000,
      100,
      1,
      0,
      0,
    ]);
    expect(blockOf(payload, "b:d:202611200000:c")?.fieldForm).toBe(1);
    expect(blockOf(payload, "b:h:202611201000:l")?.fieldForm).toBe(0);
  });

  it("splits hour blocks' cells by quarter hour: a digit before each field, 4 × index + quarter for combinations", () => {
    const payload = aggregateBatch(
      [
        storeRecording("a", "2026-11-20T10:00:05Z"),
        storeRecording("b", "2026-11-20T10:14:59Z"),
        storeRecording("c", "2026-11-20T10:45:00Z", { app_name: "Teams" }),
      ],
      options,
    );
    expect(payload.blocks.some((b) => b.suffix.startsWith("b:q:"))).toBe(false);
    const hour = blockOf(payload, "b:h:202611201000:c");
    expect(hour?.fieldForm).toBe(2);
    expect(hour?.fields).toEqual([4 * 1 + 0, 4 * 2 + 3]);
    expect(cellsOf(payload, "b:h:202611201000:a")).toEqual([
      "0Zoom",
      2,
      200,
      120_000,
      1000,
      2,
      400,
      2,
      "3Teams",
      1,
      100,
      60_000,
      500,
      1,
      200,
      1,
    ]);
    expect(cellsOf(payload, "b:h:202611201000:t")?.filter((f) => typeof f === "string")).toEqual([
      "0*",
      "3*",
    ]);
    // The sketches beside a dimension projection split as its cells: per quarter, its recordings' keys.
    const voice = sketchKey("voice", 500);
    const llm = sketchKey("llm", 200);
    expect(blockOf(payload, "b:h:202611201000:a:q")).toMatchObject({
      fieldForm: 0,
      fields: ["0Zoom", "3Teams"],
      sketches: [
        [voice, llm, voice, llm],
        [voice, llm],
      ],
    });
    // Coarser tiers keep their fields unsplit.
    expect(cellsOf(payload, "b:d:202611200000:a")?.[0]).toBe("Zoom");
  });

  it("projects a null language model as the empty field", () => {
    const payload = aggregateBatch(
      [storeRecording("a", "2026-11-20T10:00:00Z", { language_model: null, llm_processing_ms: null })],
      options,
    );
    expect(cellsOf(payload, "b:d:202611200000:l")?.[0]).toBe("");
    expect(payload.combos).toEqual([
      { key: '["ada@example.com","v1",null,"Zoom"]', values: ["ada@example.com", "v1", null, "Zoom"] },
    ]);
  });

  it("skips tiers whose retention has passed and sets expiry only for expiring tiers", () => {
    const payload = aggregateBatch(
      [storeRecording("old", "2026-01-15T08:30:00Z"), storeRecording("new", "2026-11-22T11:59:00Z")],
      options,
    );
    const tiersOf = (stampPrefix: string) =>
      payload.blocks
        .filter(({ suffix }) => suffix.endsWith(":c") && suffix.slice(4).startsWith(stampPrefix))
        .map(({ suffix }) => suffix.slice(0, 3));
    expect(tiersOf("202601150")).toEqual(["b:h", "b:d"]);
    const expiry = (suffix: string) => blockOf(payload, suffix)?.expireAtMs;
    expect(expiry("b:m:202611221159:t")).toBe(Date.parse("2026-11-22T11:59:00Z") + 35 * DAY_MS + DAY_MS);
    expect(expiry("b:h:202601150800:a")).toBe(Date.parse("2026-01-15T08:00:00Z") + 400 * DAY_MS + DAY_MS);
    expect(expiry("b:M:202601010000:c")).toBe(0);
  });
});

describe("aggregateBatch by placement", () => {
  const sparse = {
    ...options,
    placement: placed("container", "container", "projected", "keyed", "projected"),
  };

  it("writes a contained tier's blocks as combination cells in their container, each field led by the block's index", () => {
    const payload = aggregateBatch(
      [
        storeRecording("a", "2026-11-20T10:07:05Z"),
        storeRecording("b", "2026-11-20T10:59:00Z", { app_name: "Teams" }),
        storeRecording("c", "2026-11-18T23:00:00Z"),
      ],
      sparse,
    );
    // Minutes in their UTC day's container: one block entry per minute (minutes since midnight), no projections.
    const minutes = payload.blocks.filter((b) => b.suffix.startsWith("s:m:") && !b.sketches);
    expect(minutes.map((b) => [b.suffix, b.prefix, b.fieldForm, b.fields])).toEqual([
      ["s:m:202611200000", "607:", 1, [1]],
      ["s:m:202611200000", "659:", 1, [2]],
      ["s:m:202611180000", "1380:", 1, [1]],
    ]);
    // Hours in their month's container (2026-11-01): index = hours since its start.
    const hours = payload.blocks.filter((b) => b.suffix.startsWith("s:h:") && !b.sketches);
    expect(hours.map((b) => [b.suffix, b.prefix, b.fieldForm, b.fields])).toEqual([
      ["s:h:202611010000", `${19 * 24 + 10}:`, 2, [4 * 1 + 0, 4 * 2 + 3]],
      ["s:h:202611010000", `${17 * 24 + 23}:`, 2, [4 * 1 + 0]],
    ]);
    expect(payload.blocks.some((b) => b.suffix.startsWith("b:m:") || b.suffix.startsWith("b:h:"))).toBe(
      false,
    );
    // Tiers placed `projected` keep a key per projection; `keyed` ones a key of combinations.
    expect(cellsOf(payload, "b:d:202611200000:t")).toEqual(["*", 2, 200, 120_000, 1000, 2, 400, 2]);
    expect(payload.blocks.filter((b) => b.suffix.startsWith("b:w:"))).toMatchObject([
      { suffix: "b:w:202611160000:k", prefix: "", fieldForm: 1, fields: [1, 2] },
      { suffix: "b:w:202611160000:k:q", prefix: "", fieldForm: 1, fields: [1, 2] },
    ]);
    // A container's sketches: the same prefix and fields, in the container's sketch key.
    expect(payload.blocks.filter((b) => b.suffix === "s:m:202611200000:q").map((b) => b.prefix)).toEqual([
      "607:",
      "659:",
    ]);
    // A container lives as long as its last block: the minute container one day past a minute block's life.
    expect(minutes[0]?.expireAtMs).toBe(Date.parse("2026-11-21T00:00:00Z") + 35 * DAY_MS + DAY_MS);
  });

  it("places days, weeks and months in their year", () => {
    const payload = aggregateBatch([storeRecording("a", "2026-03-31T10:00:00Z")], {
      ...options,
      placement: placed("container", "container", "container", "container", "container"),
    });
    const places = payload.blocks.map((b) => `${b.suffix} ${b.prefix}`);
    expect(places).toContain("s:d:202601010000 89:");
    expect(places).toContain("s:M:202601010000 2:");
    // The ISO week of 2026-03-30 is the 13th whole week after 2026-01-01 (a Thursday).
    expect(places).toContain(
      `s:w:202601010000 ${Math.round((Date.parse("2026-03-30") - Date.parse("2026-01-01")) / (7 * DAY_MS))}:`,
    );
  });
});

describe("dedupeWindows", () => {
  it("numbers this window and the previous one; the current one's table lives to the end of the next", () => {
    const w = 7 * DAY_MS;
    const epoch = Math.floor(nowMs / w);
    expect(dedupeWindows(nowMs, w)).toEqual([epoch, epoch - 1, (epoch + 2) * w]);
  });
});
