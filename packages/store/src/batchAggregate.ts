import type { RecordingCompleted } from "@vu/events";
import { blockExpiresAt, bucketsOf, isBlockKept, type Retention } from "@vu/time-buckets";
import type { Keyspace } from "./keyspace";

/** A validated recording, as the worker hands it to the store. */
export interface CountableRecording {
  event: RecordingCompleted;
  recordedAtMs: number;
}

/** The JSON argument of `applyBatch-6.lua`; its header documents each member. */
export interface BatchPayload {
  ids: string[];
  window: number;
  combos: string[];
  cells: Array<[string, number, number, number, number, number, number, number, number]>;
  expire: Array<[string, number]>;
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
 * Folds one organization's recordings into one cell per (block, combination), so a batch where
 * many recordings share buckets costs Redis one update per cell, not one per recording and tier.
 * Blocks of tiers whose retention has already passed are not written at all (the query planner
 * does not read them either: both follow `isBlockKept`).
 */
export function aggregateBatch(
  recordings: readonly CountableRecording[],
  options: AggregateOptions,
): BatchPayload {
  const { keyspace, retention, nowMs } = options;
  const comboIndex = new Map<string, number>();
  const cells = new Map<string, BatchPayload["cells"][number]>();
  const expire = new Map<string, number>();

  for (const { event, recordedAtMs } of recordings) {
    const combo = comboOf(event);
    let index = comboIndex.get(combo);
    if (index === undefined) {
      index = comboIndex.size + 1;
      comboIndex.set(combo, index);
    }
    const voice = event.voice_processing_ms;
    const llm = event.llm_processing_ms;
    for (const { tier, startMs } of bucketsOf(recordedAtMs)) {
      if (!isBlockKept(retention, tier, startMs, nowMs)) continue;
      const suffix = keyspace.blockSuffix(tier, startMs);
      const cellKey = `${suffix}|${index}`;
      let cell = cells.get(cellKey);
      if (cell === undefined) {
        cell = [suffix, index, 0, 0, 0, 0, 0, 0, 0];
        cells.set(cellKey, cell);
        const expiresAt = blockExpiresAt(retention, tier, startMs);
        if (expiresAt !== null) expire.set(suffix, expiresAt);
      }
      cell[2] += 1;
      cell[3] += event.word_count;
      cell[4] += event.duration_ms;
      if (voice !== null) {
        cell[5] += voice;
        cell[6] += 1;
      }
      if (llm !== null) {
        cell[7] += llm;
        cell[8] += 1;
      }
    }
  }

  return {
    ids: recordings.map((r) => r.event.recording_id),
    window: options.dedupeWindowMs,
    combos: [...comboIndex.keys()],
    cells: [...cells.values()],
    expire: [...expire.entries()],
  };
}
