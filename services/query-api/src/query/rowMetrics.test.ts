import { mergeSketches } from "@vu/store";
import { describe, expect, it } from "vitest";
import { ratio3, sumRatio3, toStatsRow, toSummary } from "./rowMetrics";

const sums = {
  count: 3,
  words: 250,
  durationMs: 90_000,
  voiceMsSum: 1000,
  voiceMsCount: 3,
  llmMsSum: 0,
  llmMsCount: 0,
};

describe("row metrics", () => {
  it("derives averages with SQL AVG semantics and words per minute, rounded to 3 places", () => {
    expect(toStatsRow("2026-11-01T00:00:00.000Z", sums)).toEqual({
      time_bucket: "2026-11-01T00:00:00.000Z",
      recording_count: 3,
      total_words: 250,
      total_duration: 90_000,
      avg_llm_processing_time: 0,
      avg_voice_processing_time: 333.333,
      avg_wpm: 166.667,
    });
  });

  it("puts the group field right after time_bucket and reports zero wpm for zero duration", () => {
    const row = toStatsRow(
      "t",
      { ...sums, durationMs: 0 },
      { dimensions: ["language_model"], values: [null] },
    );
    expect(Object.keys(row).slice(0, 2)).toEqual(["time_bucket", "language_model"]);
    expect(row.language_model).toBeNull();
    expect(row.avg_wpm).toBe(0);
  });

  it("shows active_members after the metrics, and its previous value after the previous metrics", () => {
    const row = toStatsRow("t", sums, undefined, {
      previous: sums,
      activeMembers: 2,
      previousActiveMembers: 1,
    });
    const keys = Object.keys(row);
    expect(keys.indexOf("active_members")).toBe(keys.indexOf("avg_wpm") + 1);
    expect(keys.at(-1)).toBe("previous_active_members");
    expect(keys.at(-2)).toBe("previous_avg_wpm");
    expect([row.active_members, row.previous_active_members]).toEqual([2, 1]);
    // Not counted, not shown: a row without the parameter is the row it always was.
    expect(toStatsRow("t", sums, undefined, { previous: sums })).not.toHaveProperty(
      "previous_active_members",
    );
    expect(toSummary(sums, 0)).toMatchObject({ active_members: 0 });
    expect(Object.keys(toSummary(sums, 4)).at(-1)).toBe("active_members");
  });

  it("shows the percentiles asked after the metrics, before active_members, rounded to 1 µs, null for none", () => {
    const row = toStatsRow("t", sums, undefined, {
      activeMembers: 2,
      percentiles: { asked: [50, 95], values: Float64Array.from([1012.3456, Number.NaN, 7, 0]) },
    });
    expect(Object.keys(row).slice(7)).toEqual([
      "p50_voice_processing_time",
      "p50_llm_processing_time",
      "p95_voice_processing_time",
      "p95_llm_processing_time",
      "active_members",
    ]);
    expect(Object.values(row).slice(7)).toEqual([1012.346, null, 7, 0, 2]);
    const summary = toSummary(sums, 2, { asked: [50], sketch: mergeSketches([]) });
    expect(Object.keys(summary).slice(5)).toEqual([
      "p50_voice_processing_seconds",
      "p50_llm_processing_seconds",
      "active_members",
    ]);
    expect(summary.p50_voice_processing_seconds).toBeNull();
  });

  it("reports the summary in minutes and seconds", () => {
    expect(toSummary(sums)).toEqual({
      total_recordings: 3,
      total_duration_minutes: 1.5,
      total_words: 250,
      avg_llm_processing_seconds: 0,
      avg_voice_processing_seconds: 0.333,
    });
    expect(ratio3(2n, 3n)).toBe(0.667);
  });

  it("rounds exact halves up, whatever their binary representation", () => {
    // As floats, 0.5005 * 1000 = 500.49999... and Math.round would give 0.5.
    expect(ratio3(30_030n, 60_000n)).toBe(0.501);
    expect(ratio3(30n, 60_000n)).toBe(0.001);
    expect(ratio3(1_001n, 2_000n)).toBe(0.501);
    expect(ratio3(3n, 2_000n)).toBe(0.002);
    expect(ratio3(1n, 3_000n)).toBe(0);
    expect(ratio3(5n, 0n)).toBe(0);
    // Beyond 2^53 the integers stay exact.
    expect(ratio3(2n ** 60n * 60_000n, 2n ** 60n)).toBe(60_000);
  });
});

describe("sumRatio3", () => {
  it("is ratio3 of the same integers, to the bit, on either side of 2^53", () => {
    const edges = [0, 1, 2, 3, 999, 1000, 1001, 59_999, 60_000, 2 ** 26, 2 ** 40 + 1, 4_503_599_627_370_495];
    const pairs: Array<[number, number]> = [];
    for (const n of edges) for (const d of edges) pairs.push([n, d]);
    // Near the rounding edges: n/d close to k.xyz5, where a quotient rounded in doubles could tip over.
    for (let d = 1; d < 5000; d += 7)
      for (const k of [0, 1, 12_345])
        for (const j of [-1, 0, 1]) pairs.push([Math.max(0, k * d + Math.round((d * 7) / 2000) + j), d]);
    let seed = 7;
    const next = (below: number) => {
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      return Math.floor((seed / 2 ** 32) * below);
    };
    for (let i = 0; i < 20_000; i++) pairs.push([next(2 ** 31) * next(2 ** 22), next(2 ** 31) + 1]);
    for (const [n, d] of pairs) {
      for (const scale of [1, 60_000]) {
        const expected = ratio3(BigInt(n) * BigInt(scale), BigInt(d));
        expect(Object.is(sumRatio3(n, d, scale), expected), `${n} × ${scale} ÷ ${d}`).toBe(true);
      }
    }
  });
});
