import { type RecordingCompletedInput, recordingCompletedSchema } from "@vu/events";
import {
  createKeyspace,
  createRollupReader,
  createRollupWriter,
  emptySums,
  type Keyspace,
  PROJECTIONS,
  type Projection,
  type RedisClient,
  type Sums,
  utcStamp,
} from "@vu/store";
import { snapshotCellsOf, sumCells } from "@vu/store/cell-format";
import { bucketsOf, DAY_MS, DEFAULT_RETENTION, isBlockKept, type Tier } from "@vu/time-buckets";
import { uniquePrefix } from "./names";

export interface ExpectedBlocks {
  /** Recordings counted. */
  count: number;
  blocks: Array<{ tier: Tier; startMs: number; sums: Sums }>;
}

/**
 * How long after `nowMs` the worker may still count an event: a test asks for the expected blocks
 * once it has produced, then waits (minutes at most) for the worker.
 */
export const INGEST_CLOCK_MARGIN_MS = 15 * 60_000;

/**
 * Whether a block is stored whenever the worker counted it: still kept a margin after `nowMs`
 * (retention only ever drops blocks, so it was kept at every earlier moment too). A block on the
 * edge of its tier's retention is stored when the worker reaches it a second early and refused a
 * second late: comparing it would test the clock, not the counting, so it is left out.
 */
const keptForCertain = (tier: Tier, startMs: number, nowMs: number): boolean =>
  isBlockKept(DEFAULT_RETENTION, tier, startMs, nowMs + INGEST_CLOCK_MARGIN_MS);

/**
 * What every block of every tier must hold after the events are counted once: the first copy of
 * each (organization, recording_id) counts; blocks past the default retention are not stored, and
 * blocks on its edge (see `keptForCertain`) are left out of the comparison.
 */
export function expectedBlocks(
  events: readonly RecordingCompletedInput[],
  org: string,
  nowMs = Date.now(),
): ExpectedBlocks {
  const seen = new Set<string>();
  const blocks = new Map<string, { tier: Tier; startMs: number; sums: Sums }>();
  for (const input of events) {
    const e = recordingCompletedSchema.parse(input);
    if (e.organization_id !== org || seen.has(e.recording_id)) continue;
    seen.add(e.recording_id);
    for (const { tier, startMs } of bucketsOf(Date.parse(e.recorded_at))) {
      if (!keptForCertain(tier, startMs, nowMs)) continue;
      const key = `${tier}:${utcStamp(startMs)}`;
      const block = blocks.get(key) ?? { tier, startMs, sums: emptySums() };
      blocks.set(key, block);
      block.sums.count += 1;
      block.sums.words += e.word_count;
      block.sums.durationMs += e.duration_ms;
      if (e.voice_processing_ms !== null) {
        block.sums.voiceMsSum += e.voice_processing_ms;
        block.sums.voiceMsCount += 1;
      }
      if (e.llm_processing_ms !== null) {
        block.sums.llmMsSum += e.llm_processing_ms;
        block.sums.llmMsCount += 1;
      }
    }
  }
  return { count: seen.size, blocks: [...blocks.values()] };
}

/** The stored totals of the given blocks (all combinations summed), in one round trip. */
export async function storedBlocks(
  redis: RedisClient,
  keyspace: Keyspace,
  org: string,
  blocks: ReadonlyArray<{ tier: Tier; startMs: number }>,
  generation = 1,
  projection: Projection = "total",
): Promise<Sums[]> {
  const snapshot = await createRollupReader({ redis, keyspace }).readBlocks(
    generation,
    org,
    blocks,
    projection,
  );
  // A block's cells may be in its key of the projection and in places without projections
  // (blockPlacement.ts). Every cell is summed, whatever its field: what is stored, not a question.
  const { cells, comboCells } = snapshotCellsOf(snapshot);
  return cells.map((own, b) => sumCells(comboCells[b] ?? [], sumCells(own)));
}

/** Whether the stored blocks equal the expected ones exactly, and the first difference if not. */
export async function compareWithStore(
  redis: RedisClient,
  keyspace: Keyspace,
  org: string,
  expected: ExpectedBlocks,
): Promise<string | null> {
  // Every projection of a block must hold the same totals: combinations, total and each dimension's.
  for (const projection of PROJECTIONS) {
    const stored = await storedBlocks(redis, keyspace, org, expected.blocks, 1, projection);
    for (const [i, block] of expected.blocks.entries()) {
      const got = JSON.stringify(stored[i]);
      const want = JSON.stringify(block.sums);
      if (got !== want) {
        return `${org} ${block.tier} ${utcStamp(block.startMs)} ${projection}: stored ${got}, expected ${want}`;
      }
    }
  }
  return null;
}

/** The keyspace of a test's own prefix. */
export const keyspaceOf = (names: { prefix: string }): Keyspace => createKeyspace({ prefix: names.prefix });

/**
 * A writer and a reader over a key prefix of the test's own (or `options.prefix`, for two writers
 * of one store), with the worker's default retention and dedupe window and a clock fixed at
 * `nowMs`: the store's side of a test that counts and reads. `sketches`: the writer's option.
 */
export function storeUnderTest(
  redis: RedisClient,
  nowMs: number,
  options: { prefix?: string; sketches?: boolean } = {},
) {
  const keyspace = createKeyspace({ prefix: options.prefix ?? uniquePrefix() });
  const writer = createRollupWriter({
    redis,
    keyspace,
    retention: DEFAULT_RETENTION,
    dedupeWindowMs: 7 * DAY_MS,
    now: () => nowMs,
    ...(options.sketches === undefined ? {} : { sketches: options.sketches }),
  });
  return { keyspace, writer, reader: createRollupReader({ redis, keyspace }) };
}
