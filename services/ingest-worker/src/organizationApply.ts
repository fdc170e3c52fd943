import { RetryAbortedError } from "@vu/service-runtime";
import { type ApplyResult, type CountableRecording, type PreparedBatch, StoreError } from "@vu/store";

/** What became of one organization's recordings in one chunk. */
export interface OrganizationOutcome<R> {
  counted: number;
  duplicates: number;
  /** Recordings the store refused on their own (a deterministic failure isolated to them). */
  refused: Array<{ recording: R; error: unknown }>;
}

export interface OrganizationApplyDeps<R extends CountableRecording> {
  prepare(org: string, recordings: readonly R[]): PreparedBatch<R>;
  /** One apply call; its script call is written to Redis before it returns (see app.ts). */
  apply(batch: PreparedBatch<R>): Promise<ApplyResult>;
  /** Runs `fn` again, with backoff, after failures that `isRetriable` accepts. */
  retrying<T>(fn: () => Promise<T>, isRetriable: (error: unknown) => boolean): Promise<T>;
}

/** Only the store's own verdict makes a failure transient; anything else would fail again. */
export const isTransientStoreError = (error: unknown) => error instanceof StoreError && error.retriable;

/**
 * Applies one organization's prepared recordings. Transient failures (Redis away, loading, out of
 * memory) are retried until they pass; the result is this organization's alone, so retrying it
 * never recounts another organization of the chunk. A deterministic failure (the apply script
 * refused the batch, writing nothing) is narrowed down by applying halves, until the recordings
 * that fail on their own are isolated: every other recording is counted once.
 */
export async function applyOrganization<R extends CountableRecording>(
  deps: OrganizationApplyDeps<R>,
  batch: PreparedBatch<R>,
): Promise<OrganizationOutcome<R>> {
  try {
    const result = await deps.retrying(() => deps.apply(batch), isTransientStoreError);
    return { ...result, refused: [] };
  } catch (error) {
    // Aborted: the consumer is stopping or lost the partition; the next owner applies the batch.
    if (error instanceof RetryAbortedError) throw error;
    return isolate(deps, batch.org, batch.recordings, error);
  }
}

/** Prepares and applies recordings, isolating those that fail on their own (see `applyOrganization`). */
export async function applyRecordings<R extends CountableRecording>(
  deps: OrganizationApplyDeps<R>,
  org: string,
  recordings: readonly R[],
): Promise<OrganizationOutcome<R>> {
  let prepared: PreparedBatch<R>;
  try {
    prepared = deps.prepare(org, recordings);
  } catch (error) {
    return isolate(deps, org, recordings, error);
  }
  return applyOrganization(deps, prepared);
}

async function isolate<R extends CountableRecording>(
  deps: OrganizationApplyDeps<R>,
  org: string,
  recordings: readonly R[],
  error: unknown,
): Promise<OrganizationOutcome<R>> {
  const [only] = recordings;
  if (recordings.length === 1 && only !== undefined) {
    return { counted: 0, duplicates: 0, refused: [{ recording: only, error }] };
  }
  const half = Math.ceil(recordings.length / 2);
  const outcome: OrganizationOutcome<R> = { counted: 0, duplicates: 0, refused: [] };
  for (const part of [recordings.slice(0, half), recordings.slice(half)]) {
    merge(outcome, await applyRecordings(deps, org, part));
  }
  return outcome;
}

function merge<R>(into: OrganizationOutcome<R>, from: OrganizationOutcome<R>): void {
  into.counted += from.counted;
  into.duplicates += from.duplicates;
  into.refused.push(...from.refused);
}
