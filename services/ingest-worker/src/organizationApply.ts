import { RetryAbortedError } from "@vu/service-runtime";
import {
  type ApplyResult,
  type BatchOrigin,
  type CountableRecording,
  type GroupApply,
  type PreparedBatch,
  ViewMovedError,
} from "@vu/store";
import { isRetriable } from "./retryRule";

/** What became of one organization's recordings in one chunk. */
export interface OrganizationOutcome<R> {
  counted: number;
  duplicates: number;
  /** Already applied before (a replay), recognised by offset. */
  replayed: number;
  /** Recordings the store refused on their own (a deterministic failure isolated to them). */
  refused: Array<{ recording: R; error: unknown }>;
}

export interface OrganizationApplyDeps<R extends CountableRecording> {
  prepare(org: string, recordings: readonly R[], origin: BatchOrigin | undefined): PreparedBatch<R>;
  /** One apply call; its script call is written to Redis before it returns (see batchHandler.ts). */
  apply(batch: PreparedBatch<R>): Promise<ApplyResult>;
  /** Runs `fn` again, with backoff, after failures that `isRetriable` accepts. */
  retrying<T>(fn: () => Promise<T>, isRetriable: (error: unknown) => boolean): Promise<T>;
}

/**
 * Applies one organization's prepared recordings. Failures the retry rule takes (retryRule.ts: the
 * store's verdict, e.g. Redis away, loading, out of memory) are retried until they pass; the result is this organization's alone, so retrying it
 * never recounts another organization of the chunk. A deterministic failure (the apply script
 * refused the batch, writing nothing) is narrowed down by applying halves, until the recordings
 * that fail on their own are isolated: every other recording is counted once.
 */
export async function applyOrganization<R extends CountableRecording>(
  deps: OrganizationApplyDeps<R>,
  batch: PreparedBatch<R>,
): Promise<OrganizationOutcome<R>> {
  try {
    const result = await deps.retrying(() => deps.apply(batch), isRetriable);
    return { ...result, refused: [] };
  } catch (error) {
    // Aborted: the consumer is stopping or lost the partition; the next owner applies the batch.
    // Or Redis is not where the worker resumed from: nothing is the batch's fault.
    if (error instanceof RetryAbortedError || error instanceof ViewMovedError) throw error;
    return isolate(deps, batch.org, batch.recordings, batch.origin, error);
  }
}

/**
 * Applies a group of organizations that share script calls (RollupWriter.groups). Transient
 * failures are retried, resuming with the batches not yet settled. A deterministic failure of a
 * shared call (it wrote nothing) is one organization's fault: each unsettled batch is then applied
 * on its own, which finds the culprit (`applyOrganization`).
 */
export async function applyGroup<R extends CountableRecording>(
  deps: OrganizationApplyDeps<R>,
  group: GroupApply<R>,
): Promise<OrganizationOutcome<R>[]> {
  try {
    const results = await deps.retrying(() => group.run(), isRetriable);
    return results.map((result) => ({ ...result, refused: [] }));
  } catch (error) {
    if (error instanceof RetryAbortedError || error instanceof ViewMovedError) throw error;
    const { settled, unsettled } = group.progress();
    const outcomes: OrganizationOutcome<R>[] = settled.map((result) => ({ ...result, refused: [] }));
    // One after the other (a rare path): a failure that must stop the chunk leaves none running.
    for (const { batch, duplicates, replayed } of unsettled) {
      const outcome = await applyOrganization(deps, batch);
      outcomes.push({
        ...outcome,
        duplicates: outcome.duplicates + duplicates,
        replayed: outcome.replayed + replayed,
      });
    }
    return outcomes;
  }
}

/** Prepares and applies recordings, isolating those that fail on their own (see `applyOrganization`). */
export async function applyRecordings<R extends CountableRecording>(
  deps: OrganizationApplyDeps<R>,
  org: string,
  recordings: readonly R[],
  origin: BatchOrigin | undefined,
): Promise<OrganizationOutcome<R>> {
  let prepared: PreparedBatch<R>;
  try {
    prepared = deps.prepare(org, recordings, origin);
  } catch (error) {
    return isolate(deps, org, recordings, origin, error);
  }
  return applyOrganization(deps, prepared);
}

/**
 * Halves are applied in offset order, the first covering the log up to just before the second's
 * first message, so the offset the store records for the organization only ever moves on and
 * never past a message not yet applied.
 */
async function isolate<R extends CountableRecording>(
  deps: OrganizationApplyDeps<R>,
  org: string,
  recordings: readonly R[],
  origin: BatchOrigin | undefined,
  error: unknown,
): Promise<OrganizationOutcome<R>> {
  const [only] = recordings;
  if (recordings.length === 1 && only !== undefined) {
    return { counted: 0, duplicates: 0, replayed: 0, refused: [{ recording: only, error }] };
  }
  const half = Math.ceil(recordings.length / 2);
  const first = recordings.slice(0, half);
  const second = recordings.slice(half);
  const outcome = merge(await applyRecordings(deps, org, first, originBefore(origin, second[0])), {
    counted: 0,
    duplicates: 0,
    replayed: 0,
    refused: [],
  });
  return merge(await applyRecordings(deps, org, second, origin), outcome);
}

/** The origin of a part that ends just before `next` (the first recording of the part after it). */
function originBefore(origin: BatchOrigin | undefined, next: CountableRecording | undefined) {
  if (origin === undefined || next?.offset === undefined) return origin;
  return { partition: origin.partition, throughOffset: String(Number(next.offset) - 1) };
}

function merge<R>(from: OrganizationOutcome<R>, into: OrganizationOutcome<R>): OrganizationOutcome<R> {
  into.counted += from.counted;
  into.duplicates += from.duplicates;
  into.replayed += from.replayed;
  into.refused.push(...from.refused);
  return into;
}
