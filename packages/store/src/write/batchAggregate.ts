import { type DimensionValues, dimensionValues, type RecordingCompleted } from "@vu/events";
import {
  blockExpiresAt,
  floorUtc,
  isBlockKept,
  nextUtc,
  type Retention,
  TIERS,
  type Tier,
} from "@vu/time-buckets";
import { containerOf, type Placement, type StoredTier } from "../format/blockPlacement";
import type { Keyspace } from "../format/keyspace";
import {
  DIMENSION_PROJECTION_OFFSET,
  PROJECTIONS,
  projectionField,
  TOTAL_FIELD,
} from "../format/projections";
import { QUARTERED_TIER, quarterComboIndex, quarterField, quarterIndex } from "../format/quarterCells";
import { recordingSketchKeys } from "../format/sketches";
import { SUM_FIELDS, SUM_OF_RECORDING } from "../format/sums";

/** A validated recording, as the worker hands it to the store. */
export interface CountableRecording {
  event: RecordingCompleted;
  recordedAtMs: number;
  /** The Kafka offset of its message, when it comes from the log (BatchOrigin). */
  offset?: string;
}

/**
 * What a block's fields are: the fields themselves (`literal`), 1-based indexes into the batch's
 * `combos` (`combo`), or `QUARTERS_PER_HOUR × index + quarter` (`quarterCombo`: a split hour
 * block's combination cells, see quarterCells.ts). The apply script turns indexes into ids.
 */
export const FIELD_FORMS = { literal: 0, combo: 1, quarterCombo: 2 } as const;
export type FieldForm = (typeof FIELD_FORMS)[keyof typeof FIELD_FORMS];

/**
 * One block's cells in one key: `fields[i]`'s seven sums are `sums[7i .. 7i+6]` (SUM_FIELDS order).
 * By its tier's placement (blockPlacement.ts), a block has a key per projection, one key of
 * its combinations, or a part of its period's container, each field led by `prefix`.
 */
export interface BlockPayload {
  suffix: string;
  /** "" for a block key of its own; `<index>:` inside a container. */
  prefix: string;
  /** 0 = never. */
  expireAtMs: number;
  /** What `fields` holds (FIELD_FORMS). */
  fieldForm: FieldForm;
  fields: Array<string | number>;
  sums: number[];
  /**
   * A block's sketch key (keyspace.ts `sketches`, format/sketches.ts) instead of its sums: per
   * field, the sketch keys its recordings added one to (`sums` is empty).
   */
  sketches?: number[][];
}

/** A combination of dimension values: its key in the combinations hash, and the values themselves. */
export interface ComboPayload {
  key: string;
  values: DimensionValues;
}

/** What `applyBatches.lua` receives, before `encodeBatch` packs it; its header documents each member. */
export interface BatchPayload {
  ids: string[];
  combos: ComboPayload[];
  /** The earliest and latest `recorded_at` of the batch (ms), for the organization's extent. */
  extent: [firstMs: number, lastMs: number];
  blocks: BlockPayload[];
}

export interface AggregateOptions {
  keyspace: Keyspace;
  retention: Retention;
  nowMs: number;
  /** Where each tier's blocks go (the organization's layout, blockPlacement.ts). */
  placement: Readonly<Record<StoredTier, Placement>>;
  /** Also count the recordings' times into percentile sketches (RollupWriterOptions.sketches). */
  sketches?: boolean;
}

/**
 * Dedupe tables per window of `windowMs`: an id counted at t sits in the table of window
 * floor(t / W), which lives until the end of the next window. Checking this window's table and the
 * previous one finds every id counted less than W ago (and some up to 2W ago). The apply script
 * picks them itself at Redis' TIME (lua/includes/dedupeWindows.lua); this gives the same window
 * numbers for tests and tools, whose keys `Keyspace.seenBucket` names.
 */
export function dedupeWindows(
  nowMs: number,
  windowMs: number,
): [currentWindow: number, previousWindow: number, currentExpireAtMs: number] {
  const window = Math.floor(nowMs / windowMs);
  return [window, window - 1, (window + 2) * windowMs];
}

/** Accumulates the cells of one block key; sums live in a plain number array (fast elements). */
class BlockCells {
  readonly fields: Array<string | number> = [];
  readonly sums: number[] = [];
  private readonly at = new Map<string | number, number>();

  /** Adds the seven `deltas` of one recording to the cell of `field`. */
  add(field: string | number, deltas: readonly number[]): void {
    let offset = this.at.get(field);
    const sums = this.sums;
    if (offset === undefined) {
      offset = sums.length;
      this.at.set(field, offset);
      this.fields.push(field);
      for (let k = 0; k < SUM_FIELDS.length; k++) sums.push(deltas[k] as number);
      return;
    }
    for (let k = 0; k < SUM_FIELDS.length; k++)
      sums[offset + k] = (sums[offset + k] as number) + (deltas[k] as number);
  }
}

/**
 * Accumulates the sketches beside one key's cells (format/sketches.ts): per field, the keys its
 * recordings added one to, counted when encoded. A recording with neither time adds none.
 */
class SketchCells {
  readonly fields: Array<string | number> = [];
  readonly keys: number[][] = [];
  private readonly at = new Map<string | number, number[]>();

  add(field: string | number, keys: readonly number[]): void {
    if (keys.length === 0) return;
    let list = this.at.get(field);
    if (list === undefined) {
      list = [];
      this.at.set(field, list);
      this.fields.push(field);
      this.keys.push(list);
    }
    for (let k = 0; k < keys.length; k++) list.push(keys[k] as number);
  }
}

/** A recording's contribution to a cell, in SUM_FIELDS order. */
const ADDERS = SUM_FIELDS.map((field) => SUM_OF_RECORDING[field]);

function deltasOf(event: RecordingCompleted, into: number[]): number[] {
  for (let i = 0; i < ADDERS.length; i++) into[i] = (ADDERS[i] as (e: RecordingCompleted) => number)(event);
  return into;
}

const QUARTER_TIER_INDEX = TIERS.indexOf("quarter");
const HOUR_TIER_INDEX = TIERS.indexOf(QUARTERED_TIER);

/** A block's cells per key, and the sketches beside each of them (same order). */
interface PlacedBlock {
  cells: BlockCells[];
  sketches: SketchCells[] | null;
}

/** The block of one tier the previous recording fell in: recordings mostly come in time order. */
interface CurrentBlock {
  startMs: number;
  endMs: number;
  /**
   * Its cells per key: in every projection (PROJECTIONS order) when projected, else its
   * combinations alone; null when the tier's retention has passed.
   */
  cells: BlockCells[] | null;
  /**
   * The sketches beside `cells`, one per key in the same order; null with `cells` or when the
   * writer keeps no sketches.
   */
  sketches: SketchCells[] | null;
}

/**
 * Folds one organization's recordings into one cell per (block, projection, field), so a batch where
 * many recordings share buckets costs Redis one update per cell, batched per key. Blocks of tiers
 * whose retention has passed are not written (the planner does not read them: both follow
 * `isBlockKept`).
 */
export function aggregateBatch(
  recordings: readonly CountableRecording[],
  options: AggregateOptions,
): BatchPayload {
  const { keyspace, retention, nowMs, placement } = options;
  const sketching = options.sketches ?? false;
  const comboIndex = new Map<string, number>();
  const combos: ComboPayload[] = [];
  const blocks: BlockPayload[] = [];
  const current: Array<CurrentBlock | undefined> = TIERS.map(() => undefined);
  // Per tier, block start → its cells per key; a block is met again when recordings are out of order.
  const known = TIERS.map(() => new Map<number, PlacedBlock | null>());

  const blockOf = (t: number, tier: Tier, recordedAtMs: number): CurrentBlock => {
    const startMs = floorUtc(tier, recordedAtMs);
    const starts = known[t] as Map<number, PlacedBlock | null>;
    let placed = starts.get(startMs);
    if (placed === undefined) {
      // A derived tier is not written: readers sum its days (blockPlacement.ts).
      const written =
        placement[tier as StoredTier] !== "derived" && isBlockKept(retention, tier, startMs, nowMs);
      placed = written ? newBlock(tier, startMs) : null;
      starts.set(startMs, placed);
    }
    const block = {
      startMs,
      endMs: nextUtc(tier, startMs),
      cells: placed?.cells ?? null,
      sketches: placed?.sketches ?? null,
    };
    current[t] = block;
    return block;
  };
  const newBlock = (tier: Tier, startMs: number): PlacedBlock => {
    const comboForm = tier === QUARTERED_TIER ? FIELD_FORMS.quarterCombo : FIELD_FORMS.combo;
    const expireAtMs = blockExpiresAt(retention, tier, startMs) ?? 0;
    // Every key of cells has its sketches beside it, in the key the keyspace names for it, with
    // the same fields and expiry, so a percentile question reads the projection the same question
    // without them reads (docs/decisions/0029-projection-sketches.md).
    const sketchesOf = (cellBlocks: readonly BlockPayload[]): SketchCells[] | null => {
      if (!sketching) return null;
      return cellBlocks.map(({ suffix, prefix, expireAtMs, fieldForm }) => {
        const sketches = new SketchCells();
        blocks.push({
          suffix: keyspace.sketches(suffix),
          prefix,
          expireAtMs,
          fieldForm,
          fields: sketches.fields,
          sums: [],
          sketches: sketches.keys,
        });
        return sketches;
      });
    };
    const cellBlock = (suffix: string, prefix: string, expireAtMs: number, fieldForm: FieldForm) => {
      const cells = new BlockCells();
      const block: BlockPayload = {
        suffix,
        prefix,
        expireAtMs,
        fieldForm,
        fields: cells.fields,
        sums: cells.sums,
      };
      blocks.push(block);
      return { cells, block };
    };
    const combinationsOnly = (suffix: string, prefix: string, expireAtMs: number): PlacedBlock => {
      const { cells, block } = cellBlock(suffix, prefix, expireAtMs, comboForm);
      return { cells: [cells], sketches: sketchesOf([block]) };
    };
    const placed = placement[tier as StoredTier];
    if (placed === "container") {
      // The container lives as long as its last block.
      const place = containerOf(tier as StoredTier, startMs);
      const expiry = blockExpiresAt(retention, tier, place.endMs) ?? 0;
      return combinationsOnly(keyspace.containerSuffix(tier, place.startMs), place.prefix, expiry);
    }
    if (placed === "keyed") return combinationsOnly(keyspace.keyedSuffix(tier, startMs), "", expireAtMs);
    const projected = PROJECTIONS.map((projection) =>
      cellBlock(
        keyspace.blockSuffix(tier, startMs, projection),
        "",
        expireAtMs,
        projection !== "combos" ? FIELD_FORMS.literal : comboForm,
      ),
    );
    return {
      cells: projected.map(({ cells }) => cells),
      sketches: sketchesOf(projected.map(({ block }) => block)),
    };
  };

  // Only projected blocks have fields beyond the combination: without them, none is named.
  const anyProjected = Object.values(placement).includes("projected");
  const deltas: number[] = SUM_FIELDS.map(() => 0);
  const sketchKeys: number[] = [];
  const fields: Array<string | number> = [0, TOTAL_FIELD, "", "", "", ""];
  // The same fields in the recording's quarter of its hour, for the split hour blocks.
  const quarterFields: Array<string | number> = [0, "", "", "", "", ""];
  for (const { event, recordedAtMs } of recordings) {
    const values = dimensionValues(event);
    // The key it is interned under: a JSON array, unambiguous for any text.
    const combo = JSON.stringify(values);
    let index = comboIndex.get(combo);
    if (index === undefined) {
      index = comboIndex.size + 1;
      comboIndex.set(combo, index);
      combos.push({ key: combo, values });
    }
    fields[0] = index;
    deltasOf(event, deltas);
    if (sketching) recordingSketchKeys(event, sketchKeys);
    const q = quarterIndex(recordedAtMs);
    quarterFields[0] = quarterComboIndex(q, index);
    if (anyProjected) {
      // The dimension projections follow the total, in DIMENSIONS order (projections.ts).
      for (let d = 0; d < values.length; d++)
        fields[DIMENSION_PROJECTION_OFFSET + d] = projectionField(values[d] ?? null);
      for (let v = 1; v < fields.length; v++) quarterFields[v] = quarterField(q, fields[v] as string);
    }
    for (let t = 0; t < TIERS.length; t++) {
      // Quarter hours live inside the hour blocks (quarterCells.ts): no blocks of their own.
      if (t === QUARTER_TIER_INDEX) continue;
      const blockFields = t === HOUR_TIER_INDEX ? quarterFields : fields;
      let block = current[t];
      if (block === undefined || recordedAtMs < block.startMs || recordedAtMs >= block.endMs) {
        block = blockOf(t, TIERS[t] as Tier, recordedAtMs);
      }
      const { cells, sketches } = block;
      if (cells === null) continue;
      for (let v = 0; v < cells.length; v++)
        (cells[v] as BlockCells).add(blockFields[v] as string | number, deltas);
      // Each sketch beside the cell just added to, under the same field.
      if (sketches !== null)
        for (let v = 0; v < sketches.length; v++)
          (sketches[v] as SketchCells).add(blockFields[v] as string | number, sketchKeys);
    }
  }

  let firstMs = Number.POSITIVE_INFINITY;
  let lastMs = Number.NEGATIVE_INFINITY;
  for (const { recordedAtMs } of recordings) {
    if (recordedAtMs < firstMs) firstMs = recordedAtMs;
    if (recordedAtMs > lastMs) lastMs = recordedAtMs;
  }
  return {
    ids: recordings.map((r) => r.event.recording_id),
    combos,
    blocks,
    extent: [firstMs, lastMs],
  };
}
