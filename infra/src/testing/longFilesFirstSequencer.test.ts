import { describe, expect, it } from "vitest";
import type { TestSpecification } from "vitest/node";
import { rank } from "./longFilesFirstSequencer";

const file = (moduleId: string) => ({ moduleId }) as TestSpecification;

describe("the long files first", () => {
  it("ranks the longest fault files before the other faults, and those before a file of seconds", () => {
    const broker = rank(file("/repo/test/faults/brokerRestart.int.test.ts"));
    const fault = rank(file("/repo/test/faults/redisEmptied.int.test.ts"));
    const exactness = rank(file("/repo/test/exactness.int.test.ts"));
    const main = rank(file("/repo/services/query-api/src/main.int.test.ts"));
    const short = rank(file("/repo/services/query-api/src/routes/v1Stats.int.test.ts"));
    expect(broker).toBeLessThan(exactness);
    expect(exactness).toBeLessThan(fault);
    expect(fault).toBeLessThan(main);
    expect(main).toBeLessThan(short);
  });
});
