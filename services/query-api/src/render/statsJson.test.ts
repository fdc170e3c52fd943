import { DIMENSIONS, type Dimension } from "@vu/events";
import type { Sums } from "@vu/store";
import { describe, expect, it } from "vitest";
import { toStatsRow } from "../query/rowMetrics";
import type { AggregatedRow } from "../query/rowTable";
import { renderStatsJson, type StatsJsonPage } from "./statsJson";

/** Seeded, so a failure names the shape that failed and repeats. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
  return {
    next,
    int: (below: number) => Math.floor(next() * below),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T,
  };
}

type Random = ReturnType<typeof random>;

/** Text JSON must escape or keep as it is: quotes, controls, non-ASCII, a lone surrogate, formula-like. */
const TEXTS = [
  "Zoom",
  'say "hi"',
  "back\\slash",
  "tab\there\n",
  "Bürokratie-Assistent",
  "😀",
  "\ud800",
  "",
  "=1+2",
];

function sums(r: Random): Sums {
  // Integers up to 2^53 and zeros: the metrics' exact rounding on both paths, and 0 ÷ 0.
  const value = () => r.pick([0, 1, 7, r.int(1_000_000), r.int(2 ** 30) * 2 ** 22, Number.MAX_SAFE_INTEGER]);
  return {
    count: value(),
    words: value(),
    durationMs: value(),
    voiceMsSum: value(),
    voiceMsCount: value(),
    llmMsSum: value(),
    llmMsCount: value(),
  };
}

function page(r: Random): StatsJsonPage {
  const groupBy = [...DIMENSIONS].sort(() => r.next() - 0.5).slice(0, r.int(DIMENSIONS.length + 1));
  const members = r.next() < 0.5;
  const previous = r.next() < 0.5;
  const rows = Array.from({ length: r.int(6) }, (): AggregatedRow => {
    const row: AggregatedRow = { label: r.pick(TEXTS), startMs: 0, sums: sums(r) };
    if (groupBy.length > 0) row.group = groupBy.map(() => (r.next() < 0.2 ? null : r.pick(TEXTS)));
    if (members) row.activeMembers = r.int(50);
    if (previous) {
      row.previous = sums(r);
      if (members) row.previousActiveMembers = r.int(50);
    }
    return row;
  });
  const complete = r.next() < 0.5 ? (label: string) => label.length % 2 === 0 : undefined;
  return {
    rows,
    groupBy: groupBy as Dimension[],
    isComplete: complete,
    pagination: { page: 1, page_size: 200, total_rows: rows.length, total_pages: 1, count: rows.length },
    meta: {
      start_date: "2026-11-01T00:00:00.000+01:00",
      end_date: "2026-12-01T00:00:00.000+01:00",
      granularity: "hour",
      group_by: groupBy.length > 0 ? groupBy.join(",") : null,
      timezone: "Europe/Berlin",
      ...(previous && {
        compare: "previous_period" as const,
        previous_start_date: "2026-10-01T00:00:00.000+02:00",
        previous_end_date: "2026-11-01T00:00:00.000+01:00",
      }),
    },
  };
}

/** What the route wrote before: the rows `toStatsRow` makes, stringified with the page's other members. */
function stringified(p: StatsJsonPage): string {
  const data = p.rows.map((row) => {
    const group = p.groupBy.length > 0 ? { dimensions: p.groupBy, values: row.group ?? [] } : undefined;
    const out = toStatsRow(row.label, row.sums, group, row);
    if (p.isComplete) out.complete = p.isComplete(row.label);
    return out;
  });
  return JSON.stringify({ data, pagination: p.pagination, meta: p.meta });
}

describe("renderStatsJson", () => {
  it("writes what JSON.stringify writes for the page's row objects, for every shape of row", () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const p = page(random(seed));
      expect(renderStatsJson(p), `seed ${seed}`).toBe(stringified(p));
    }
  });

  it("writes an empty page", () => {
    const p = page(random(3));
    const empty = { ...p, rows: [] };
    expect(renderStatsJson(empty)).toBe(stringified(empty));
    expect(JSON.parse(renderStatsJson(empty)).data).toEqual([]);
  });
});
