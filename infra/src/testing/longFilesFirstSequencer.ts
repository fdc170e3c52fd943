import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Files that take minutes, longest first. The integration files run a few at a time
 * (vitest.config.ts) while most take seconds, so the run ends soon after its longest file if that
 * file starts first, and minutes later if it starts last. On a fresh clone vitest knows no
 * durations (it would order by file size), hence these rules: the fault matrix's folder and the
 * other files known to take minutes, then those that take tens of seconds. A file missing here
 * only costs wall time, never a result.
 */
const LONG_FILES: readonly RegExp[] = [
  /\/test\/faults\/(brokerRestart|workerKill)\./,
  /\/test\/(storeUpgrade|exactness)\./,
  /\/test\/faults\//,
  /\/(main|composeKafka|dashboard|compressedProducers)\.int\.test\.ts$/,
  /\/(crashRecovery|kafkaBroker)\.int\.test\.ts$/,
  /\/(httpProperties|ingestWorker|tokenResign|tracing|rollupStore)\.int\.test\.ts$/,
];

export function rank(file: TestSpecification): number {
  const index = LONG_FILES.findIndex((pattern) => pattern.test(file.moduleId));
  return index === -1 ? LONG_FILES.length : index;
}

/** Long files first (see LONG_FILES); within each rank, vitest's own order (failed, then longest, as far as its cache knows). */
export class LongFilesFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((file, order) => ({ file, order, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .map(({ file }) => file);
  }
}
