import { describe, expect, it } from "vitest";
import { toStatsRow } from "../query/rowMetrics";
import { renderStatsCsv } from "./statsCsv";

const sums = {
  count: 2,
  words: 10,
  durationMs: 60_000,
  voiceMsSum: 3,
  voiceMsCount: 2,
  llmMsSum: 0,
  llmMsCount: 0,
};

describe("renderStatsCsv", () => {
  it("writes a header and the contract's columns, CRLF-terminated", () => {
    const csv = renderStatsCsv([toStatsRow("2026-11-01T00:00:00.000Z", sums)]);
    expect(csv).toBe(
      "time_bucket,recording_count,total_words,total_duration,avg_llm_processing_time,avg_voice_processing_time,avg_wpm\r\n" +
        "2026-11-01T00:00:00.000Z,2,10,60000,0,1.5,10\r\n",
    );
  });

  it("quotes commas, quotes and newlines, leaves null empty and defuses formulas", () => {
    const rows = [
      toStatsRow("t", sums, { dimensions: ["app_name"], values: ['Notes, "quoted"'] }),
      toStatsRow("t", sums, { dimensions: ["app_name"], values: ["=SUM(1)"] }),
      toStatsRow("t", sums, { dimensions: ["app_name"], values: ["-2+3"] }),
      toStatsRow("t", sums, { dimensions: ["app_name"], values: ["@cmd"] }),
      toStatsRow("t", sums, { dimensions: ["app_name"], values: ["\tTab"] }),
      toStatsRow("t", sums, { dimensions: ["app_name"], values: ["line\nbreak"] }),
      toStatsRow("t", sums, { dimensions: ["app_name"], values: [null] }),
    ];
    const lines = renderStatsCsv(rows, { groupBy: ["app_name"] }).split("\r\n");
    expect(lines[0]).toBe(
      "time_bucket,app_name,recording_count,total_words,total_duration,avg_llm_processing_time,avg_voice_processing_time,avg_wpm",
    );
    expect(lines.slice(1, 8).map((l) => l.split(",2,10,")[0])).toEqual([
      't,"Notes, ""quoted"""',
      "t,'=SUM(1)",
      "t,'-2+3",
      "t,'@cmd",
      "t,'\tTab",
      't,"line\nbreak"',
      "t,",
    ]);
  });

  it("writes a column per group_by dimension, in the order asked (docs/contract.md §7)", () => {
    const row = toStatsRow("t", sums, { dimensions: ["voice_model", "app_name"], values: ["v1", "Zoom"] });
    const [header, line] = renderStatsCsv([row], { groupBy: ["voice_model", "app_name"] }).split("\r\n");
    expect(header?.startsWith("time_bucket,voice_model,app_name,recording_count,")).toBe(true);
    expect(line?.startsWith("t,v1,Zoom,2,10,")).toBe(true);
  });

  it("writes complete last, as true or false, only when asked (docs/contract.md §9)", () => {
    const rows = [
      { ...toStatsRow("q1", sums), complete: true },
      { ...toStatsRow("q2", sums), complete: false },
    ];
    const lines = renderStatsCsv(rows, { complete: true }).split("\r\n");
    expect(lines[0]?.endsWith(",avg_wpm,complete")).toBe(true);
    expect(lines.slice(1, 3)).toEqual(["q1,2,10,60000,0,1.5,10,true", "q2,2,10,60000,0,1.5,10,false"]);
    expect(renderStatsCsv(rows).split("\r\n")[1]).toBe("q1,2,10,60000,0,1.5,10");
  });

  it("writes active_members after the metrics, and its previous value last (docs/contract.md §9)", () => {
    const row = toStatsRow("t", sums, undefined, {
      previous: sums,
      activeMembers: 2,
      previousActiveMembers: 0,
    });
    const [header, line] = renderStatsCsv([row], { compared: true, activeMembers: true }).split("\r\n");
    const columns = header?.split(",") ?? [];
    expect(columns.slice(6, 8)).toEqual(["avg_wpm", "active_members"]);
    expect(columns.at(-1)).toBe("previous_active_members");
    expect(line?.split(",")[7]).toBe("2");
    expect(line?.split(",").at(-1)).toBe("0");
  });

  it("writes the columns in the order of a row's fields, with every optional one (docs/contract.md §9)", () => {
    const row = {
      ...toStatsRow(
        "t",
        sums,
        { dimensions: ["app_name"], values: ["Zoom"] },
        {
          previous: sums,
          activeMembers: 2,
          previousActiveMembers: 1,
          // No recording with a time: the percentiles are null, empty cells.
          percentiles: { asked: [50, 95], values: new Float64Array(4).fill(Number.NaN) },
        },
      ),
      complete: false,
    };
    const [header, line] = renderStatsCsv([row], {
      groupBy: ["app_name"],
      compared: true,
      activeMembers: true,
      percentiles: [50, 95],
      complete: true,
    }).split("\r\n");
    const columns = header?.split(",") ?? [];
    expect(columns).toEqual(Object.keys(row));
    expect(columns.slice(8, 14)).toEqual([
      "p50_voice_processing_time",
      "p50_llm_processing_time",
      "p95_voice_processing_time",
      "p95_llm_processing_time",
      "active_members",
      "previous_recording_count",
    ]);
    expect(columns.slice(-2)).toEqual(["previous_active_members", "complete"]);
    expect(line?.split(",").slice(8, 12)).toEqual(["", "", "", ""]);
    expect(line?.split(",").slice(-2)).toEqual(["1", "false"]);
  });
});
