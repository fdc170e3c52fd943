import type { RecordingCompleted } from "@vu/events";
import { blockExpiresAt, floorUtc, isBlockKept, type Retention, TIERS, type Tier } from "@vu/time-buckets";
import type { Keyspace } from "./keyspace";
import { projectionField, TOTAL_FIELD, VIEWS } from "./views";

/** A validated recording, as the worker hands it to the store. */
export interface CountableRecording {
  event: RecordingCompleted;
  recordedAtMs: number;
}

/** One block key's cells: `[field, count, words, durationMs, voiceMsSum, voiceMsCount, llmMsSum, llmMsCount, field, ...]`. */
export type BlockPayload = [
  suffix: string,
  expireAtMs: number,
  isCombos: 0 | 1,
  cells: Array<string | number>,
];

/** What `applyBatch-6.lua` receives, before `encodeBatch` packs it; its header documents each member. */
export interface BatchPayload {
  ids: string[];
  seen: [currentSet: string, previousSet: string, currentExpireAtMs: number];
  combos: string[];
  blocks: BlockPayload[];
}

export interface AggregateOptions {
  keyspace: Keyspace;
  retention: Retention;
  dedupeWindowMs: number;
  nowMs: number;
}

/** The key under which a recording's dimensions are interned: a JSON array, unambiguous for any text. */
export function comboOf(event: RecordingCompleted): string {
  return JSON.stringify([event.member_email, event.voice_model, event.language_model, event.app_name]);
}

/**
 * Dedupe sets per window of `dedupeWindowMs`: an id counted at t sits in the set of window
 * floor(t / W), which lives until the end of the next window. Checking this window's set and the
 * previous one finds every id counted less than W ago (and some up to 2W ago).
 */
export function dedupeSets(nowMs: number, windowMs: number): BatchPayload["seen"] {
  const epoch = Math.floor(nowMs / windowMs);
  return [`seen:${epoch}`, `seen:${epoch - 1}`, (epoch + 2) * windowMs];
}

/** Accumulates cells of one block key; field → offset of its sums in `cells`. */
class BlockCells {
  readonly cells: Array<string | number> = [];
  private readonly at = new Map<string | number, number>();

  add(field: string | number, event: RecordingCompleted): void {
    let offset = this.at.get(field);
    if (offset === undefined) {
      offset = this.cells.length + 1;
      this.at.set(field, offset);
      this.cells.push(field, 0, 0, 0, 0, 0, 0, 0);
    }
    this.bump(offset, 1);
    this.bump(offset + 1, event.word_count);
    this.bump(offset + 2, event.duration_ms);
    if (event.voice_processing_ms !== null) {
      this.bump(offset + 3, event.voice_processing_ms);
      this.bump(offset + 4, 1);
    }
    if (event.llm_processing_ms !== null) {
      this.bump(offset + 5, event.llm_processing_ms);
      this.bump(offset + 6, 1);
    }
  }

  private bump(at: number, by: number): void {
    this.cells[at] = (this.cells[at] as number) + by;
  }
}

/**
 * Folds one organization's recordings into one cell per (block, view, field), so a batch where
 * many recordings share buckets costs Redis one update per cell, batched per key. Blocks of tiers
 * whose retention has passed are not written (the planner does not read them: both follow
 * `isBlockKept`).
 */
export function aggregateBatch(
  recordings: readonly CountableRecording[],
  options: AggregateOptions,
): BatchPayload {
  const { keyspace, retention, nowMs } = options;
  const comboIndex = new Map<string, number>();
  const blocks: Array<{ suffix: string; cells: BlockCells; expireAtMs: number; isCombos: 0 | 1 }> = [];
  // Per tier, block start → its cells in every view (in VIEWS order); key names are built once per block.
  const byStart = new Map<Tier, Map<number, BlockCells[]>>(TIERS.map((t) => [t, new Map()]));
  const viewsOf = (tier: Tier, startMs: number): BlockCells[] => {
    const starts = byStart.get(tier) as Map<number, BlockCells[]>;
    let views = starts.get(startMs);
    if (views === undefined) {
      const expireAtMs = blockExpiresAt(retention, tier, startMs) ?? 0;
      views = VIEWS.map((view) => {
        const cells = new BlockCells();
        blocks.push({
          suffix: keyspace.blockSuffix(tier, startMs, view),
          cells,
          expireAtMs,
          isCombos: view === "combos" ? 1 : 0,
        });
        return cells;
      });
      starts.set(startMs, views);
    }
    return views;
  };

  for (const { event, recordedAtMs } of recordings) {
    const combo = comboOf(event);
    let index = comboIndex.get(combo);
    if (index === undefined) {
      index = comboIndex.size + 1;
      comboIndex.set(combo, index);
    }
    const fields = [
      index,
      TOTAL_FIELD,
      event.member_email,
      event.voice_model,
      projectionField(event.language_model),
      event.app_name,
    ];
    for (const tier of TIERS) {
      const startMs = floorUtc(tier, recordedAtMs);
      if (!isBlockKept(retention, tier, startMs, nowMs)) continue;
      const views = viewsOf(tier, startMs);
      for (let v = 0; v < views.length; v++)
        (views[v] as BlockCells).add(fields[v] as string | number, event);
    }
  }

  return {
    ids: recordings.map((r) => r.event.recording_id),
    seen: dedupeSets(nowMs, options.dedupeWindowMs),
    combos: [...comboIndex.keys()],
    blocks: blocks.map((b): BlockPayload => [b.suffix, b.expireAtMs, b.isCombos, b.cells.cells]),
  };
}
