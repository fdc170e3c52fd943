import { APPLY_REPLY } from "./applyCall";
import type { OrganizationReply } from "./applyScript";
import type { CountableRecording } from "./batchAggregate";
import { type ApplyResult, type PreparedBatch, withoutIndexes } from "./preparedBatch";

/**
 * Several organizations' batches applied by shared script calls (see `RollupWriter.applyGroup`).
 * Resumable: after a failure, `run` again sends only the batches not yet settled.
 */
export interface GroupApply<R extends CountableRecording = CountableRecording> {
  /** Applies (or goes on applying) every batch; resolves with their results, in order. */
  run(): Promise<ApplyResult[]>;
  /**
   * Results of the batches settled so far, and the batches still to apply (after a failure), each
   * with what earlier calls already found of it (copies and replays dropped from it).
   */
  progress(): { settled: ApplyResult[]; unsettled: Array<UnsettledBatch<R>> };
}

export interface UnsettledBatch<R extends CountableRecording> {
  batch: PreparedBatch<R>;
  duplicates: number;
  replayed: number;
}

export interface GroupApplyOptions {
  /** One script call for the batches (distinct organizations of one hash tag): one reply each. */
  call(batches: readonly PreparedBatch[]): Promise<OrganizationReply[]>;
  /** Lays a batch out again (for the layout the writer now knows). */
  prepare<R extends CountableRecording>(
    org: string,
    recordings: readonly R[],
    origin: PreparedBatch["origin"],
  ): PreparedBatch<R>;
  /** An organization's layout, as an apply reply named it. */
  learnLayout(org: string, layout: string): void;
}

interface Pending<R extends CountableRecording> extends UnsettledBatch<R> {
  index: number;
}

/**
 * What one organization's reply leaves to do: nothing (its result), or its batch again without
 * what the refusal names. A refusal wrote nothing; dropping what it names and calling again
 * converges because ids only ever become counted and offsets only ever move on.
 */
function afterReply<R extends CountableRecording>(
  { prepare, learnLayout }: GroupApplyOptions,
  pending: Pending<R>,
  reply: OrganizationReply,
): ApplyResult | Pending<R> {
  const { batch } = pending;
  const { org, origin } = batch;
  if (reply[0] === APPLY_REPLY.ok) {
    learnLayout(org, reply[2]);
    return { counted: reply[1], duplicates: pending.duplicates, replayed: pending.replayed };
  }
  if (reply[0] === APPLY_REPLY.layoutMoved) {
    // Laid out for another layout than Redis holds (another worker moved a tier, or a new epoch).
    learnLayout(org, reply[1]);
    return { ...pending, batch: prepare(org, batch.recordings, origin) };
  }
  if (reply[0] === APPLY_REPLY.duplicates) {
    const kept = withoutIndexes(batch.recordings, reply[1]);
    const duplicates = pending.duplicates + batch.recordings.length - kept.length;
    return unlessDone({ ...pending, duplicates, batch: prepare(org, kept, origin) });
  }
  const kept = batch.recordings.filter((r) => Number(r.offset) > Number(reply[1]));
  const replayed = pending.replayed + batch.recordings.length - kept.length;
  if (Number(origin?.throughOffset) <= Number(reply[1]))
    return { counted: 0, duplicates: pending.duplicates, replayed };
  return unlessDone({ ...pending, replayed, batch: prepare(org, kept, origin) });
}

/**
 * A batch left empty is done, unless it has an origin: then it is still sent, to record the
 * offset, so a later replay skips the repeats it covered.
 */
function unlessDone<R extends CountableRecording>(pending: Pending<R>): ApplyResult | Pending<R> {
  const { batch, duplicates, replayed } = pending;
  return batch.recordings.length === 0 && batch.origin === undefined
    ? { counted: 0, duplicates, replayed }
    : pending;
}

/**
 * Applies `batches` in shared calls until each is settled: a refused batch goes again without
 * what its refusal names, in the next call.
 */
export function createGroupApply<R extends CountableRecording>(
  batches: readonly PreparedBatch<R>[],
  options: GroupApplyOptions,
): GroupApply<R> {
  const results: Array<ApplyResult | undefined> = [];
  let pending: Pending<R>[] = [];
  batches.forEach((batch, index) => {
    const first = unlessDone({ index, batch, duplicates: 0, replayed: 0 });
    if ("counted" in first) results[index] = first;
    else pending.push(first);
  });
  return {
    async run() {
      while (pending.length > 0) {
        const replies = await options.call(pending.map((p) => p.batch));
        const next: Pending<R>[] = [];
        // Laying a refused batch out again may fail (a recording the encoder cannot take): that
        // one stays unsettled as it was, the others move on, and only then the failure is thrown,
        // so `progress` never shows a batch both settled and to apply.
        let failure: { error: unknown } | undefined;
        replies.forEach((organizationReply, i) => {
          const entry = pending[i] as Pending<R>;
          try {
            const after = afterReply(options, entry, organizationReply);
            if ("counted" in after) results[entry.index] = after;
            else next.push(after);
          } catch (error) {
            failure ??= { error };
            next.push(entry);
          }
        });
        pending = next;
        if (failure !== undefined) throw failure.error;
      }
      return results as ApplyResult[];
    },
    progress: () => ({
      settled: results.filter((r): r is ApplyResult => r !== undefined),
      unsettled: pending.map(({ batch, duplicates, replayed }) => ({ batch, duplicates, replayed })),
    }),
  };
}
