import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The integration files run a few at a time (vitest.config.ts); the fault matrix's files take
 * minutes each, the rest seconds, so they start first and the short ones fill in beside them. On a
 * fresh clone vitest knows no durations (it would order by file size), hence the folder rule;
 * within each part, vitest's own order (failed first, then longest, as far as its cache knows).
 */
export class FaultsFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isFault = (file: TestSpecification) => file.moduleId.includes("/test/faults/");
    return [...sorted.filter(isFault), ...sorted.filter((file) => !isFault(file))];
  }
}
