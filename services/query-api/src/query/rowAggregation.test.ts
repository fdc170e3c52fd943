import type { BlockSnapshot, SumsQuestion } from "@vu/store";
import { describe, expect, it } from "vitest";
import { parseFilters } from "./filters";
import { type AggregatedBucket, aggregateRowsInTurns, type Turns } from "./rowAggregation";

/** Turns never due: the aggregation runs straight through, as for a small answer. */
const NEVER: Turns = { due: () => false, pause: async () => expect.unreachable("paused") };

/** One (bucket, group) as the store answers it: its group's values, its count (words ten each), its members. */
type Answer = [bucket: number, group: ReadonlyArray<string | null>, count: number, members?: string[]];

/**
 * A snapshot whose store answers `answers`, one step each, as the store does: the ungrouped group
 * named first, each other group when first met, members as numbers. The questions it was asked
 * go to `asked`.
 */
function answering(answers: readonly Answer[], asked: SumsQuestion[] = []): BlockSnapshot {
  return {
    extent: "unknown",
    stamp: null,
    sketched: true,
    *sumBuckets(question, into) {
      asked.push(question);
      question.groupOf([]);
      const ids = new Map<string, number>();
      const idOf = (member: string) => {
        if (!ids.has(member)) ids.set(member, ids.size);
        return ids.get(member) as number;
      };
      for (const [bucket, group, count, members] of answers) {
        const sums = Float64Array.from([0, 0, 0, count, 10 * count, 60_000 * count, 0, 0, 0, 0]);
        const extras = members && { members: Int32Array.from(members, idOf) };
        into.push(bucket, question.groupOf(group), sums, 3, extras);
        yield;
      }
    },
  };
}

const block = (startMs: number, sign: 1 | -1 = 1) => ({ tier: "hour" as const, startMs, sign });
const buckets: AggregatedBucket[] = [
  { label: "day1", startMs: 0, blocks: [block(0), block(1)] },
  { label: "day2", startMs: 10, blocks: [block(10)] },
  { label: "day3", startMs: 20, blocks: [block(20)] },
];

describe("aggregateRowsInTurns", () => {
  it("gives a row per (bucket, group) the store sums, labelled by its bucket, ungrouped without a group", async () => {
    const table = await aggregateRowsInTurns(
      buckets,
      answering([
        [0, [], 8],
        [1, [], 1],
      ]),
      { filters: [] },
      NEVER,
    );
    expect(table.rows()).toEqual([
      {
        label: "day1",
        startMs: 0,
        sums: {
          count: 8,
          words: 80,
          durationMs: 480_000,
          voiceMsSum: 0,
          voiceMsCount: 0,
          llmMsSum: 0,
          llmMsCount: 0,
        },
      },
      {
        label: "day2",
        startMs: 10,
        sums: {
          count: 1,
          words: 10,
          durationMs: 60_000,
          voiceMsSum: 0,
          voiceMsCount: 0,
          llmMsSum: 0,
          llmMsCount: 0,
        },
      },
    ]);
  });

  it("orders each bucket's groups in byte order with null last, by the first dimension, then the next", async () => {
    const answers: Answer[] = [
      [0, [null, "v1"], 2],
      [0, ["Zoom", "v2"], 1],
      [0, ["Ärzte", "v1"], 3],
      [0, ["Zoom", "v1"], 4],
      [2, ["Slack", null], 5],
      [2, ["Slack", "v1"], 6],
    ];
    const table = await aggregateRowsInTurns(
      buckets,
      answering(answers),
      { filters: [], groupBy: ["app_name", "language_model"] },
      NEVER,
    );
    expect(table.rows().map((r) => [r.label, ...(r.group ?? []), r.sums.count])).toEqual([
      ["day1", "Zoom", "v1", 4],
      ["day1", "Zoom", "v2", 1],
      ["day1", "Ärzte", "v1", 3],
      ["day1", null, "v1", 2],
      ["day3", "Slack", "v1", 6],
      ["day3", "Slack", null, 5],
    ]);
    expect(table.groupValues[0]).toEqual([]);
  });

  it("asks the store for the buckets, blocks, filters, groups and members of the query", async () => {
    const asked: SumsQuestion[] = [];
    const filters = parseFilters({ member_email: "A@x.com", language_model: "null" }, { app_name: "Zoom" });
    await aggregateRowsInTurns(buckets, answering([], asked), { filters, groupBy: ["voice_model"] }, NEVER);
    await aggregateRowsInTurns(
      buckets,
      answering([], asked),
      { filters: [], firstBlock: 4, activeMembers: true },
      NEVER,
    );
    const [first, second] = asked;
    expect(first).toMatchObject({ buckets, firstBlock: 0, groupBy: ["voice_model"], activeMembers: false });
    expect(second).toMatchObject({ buckets, firstBlock: 4, groupBy: [], activeMembers: true });
    // Each filter as docs/contract.md §2 and §7 read it: e-mails lower-cased, `null`, exclusions.
    const tests = (first?.filters ?? []).map((t) => [
      t.dimension,
      t.passes("a@x.com"),
      t.passes(null),
      t.passes("Zoom"),
    ]);
    expect(tests).toEqual([
      ["member_email", true, false, false],
      ["language_model", false, true, false],
      ["app_name", true, true, false],
    ]);
  });

  it("keeps each row's members as the store numbers them", async () => {
    const table = await aggregateRowsInTurns(
      buckets,
      answering([
        [0, ["Zoom"], 3, ["ada", "bob"]],
        [0, ["Slack"], 2, ["ada", "cy"]],
        [1, ["Zoom"], 1, ["ada"]],
      ]),
      { filters: [], groupBy: ["app_name"], activeMembers: true },
      NEVER,
    );
    expect(table.rows().map((r) => [r.label, r.group?.[0], r.activeMembers])).toEqual([
      ["day1", "Slack", 2],
      ["day1", "Zoom", 2],
      ["day2", "Zoom", 1],
    ]);
    expect(table.members?.distinct()).toBe(3);
  });

  it("answers as when it never pauses, pausing between the store's steps whenever its turn is due", async () => {
    const answers: Answer[] = [
      [0, ["Zoom"], 3],
      [0, ["Slack"], 2],
      [2, ["Zoom"], 1],
    ];
    let pauses = 0;
    const always: Turns = {
      due: () => true,
      pause: async () => {
        pauses++;
      },
    };
    const options = { filters: [], groupBy: ["app_name" as const] };
    const inTurns = await aggregateRowsInTurns(buckets, answering(answers), options, always);
    const straight = await aggregateRowsInTurns(buckets, answering(answers), options, NEVER);
    expect(inTurns.rows()).toEqual(straight.rows());
    expect(pauses).toBe(3);
  });

  it("passes on what the store refuses", async () => {
    const refusing: BlockSnapshot = {
      extent: "unknown",
      stamp: null,
      sketched: true,
      *sumBuckets() {
        yield;
        throw new Error("rollup cell refers to unknown combination 9");
      },
    };
    await expect(aggregateRowsInTurns(buckets, refusing, { filters: [] }, NEVER)).rejects.toThrow(
      /unknown combination 9/,
    );
  });
});
