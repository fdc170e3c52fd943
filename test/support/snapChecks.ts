import type { ApiServer } from "@vu/testkit/api";
import { DateTime } from "luxon";
import {
  answerSummary,
  type CountedRecording,
  formatIn,
  keptGridStep,
  type QueryPairs,
  resolveRange,
} from "../oracle";
import { DAY_MS } from "../workload/timeline";
import { httpGet, queryString } from "./httpClient";
import type { Random } from "./random";

const ZONES = ["Asia/Kolkata", "+05:30", "Europe/Berlin", "America/New_York", "-0930"];

/**
 * A query whose edges are NOT on the kept grid: old data in zones not aligned to UTC hours or days,
 * or at minutes the store no longer holds. The service moves such edges (the planner's retention grid).
 */
export function generateSnappedQuery(nowMs: number, random: Random): QueryPairs {
  const timezone = random.pick(ZONES);
  const ageDays = random.chance(0.6) ? random.int(40, 390) : random.int(405, 430);
  const granularity = random.pick(
    ageDays > 400 ? ["day", "week", "month"] : ["hour", "day", "week", "month"],
  );
  const zone = /^[+-]/.test(timezone) ? `UTC${timezone.slice(0, 3)}:${timezone.slice(-2)}` : timezone;
  const start = DateTime.fromMillis(nowMs - ageDays * DAY_MS, { zone }).set({ minute: random.int(0, 59) });
  const end = start.plus({ days: granularity === "hour" ? random.int(1, 5) : random.int(1, 120) });
  return [
    ["timezone", timezone],
    ["start_date", start.toFormat("yyyy-MM-dd'T'HH:mm:ss")],
    ["end_date", end.toFormat(random.chance(0.5) ? "yyyy-MM-dd" : "yyyy-MM-dd'T'HH:mm:ss")],
    ["granularity", granularity],
    ["page_size", "1000"],
  ];
}

interface SnappedBody {
  data: Array<{ time_bucket: string; recording_count: number; total_words: number; total_duration: number }>;
  meta: {
    start_date: string;
    end_date: string;
    granularity: "hour" | "day" | "week" | "month";
    timezone: string;
  };
}

/**
 * Checks what must hold whatever the snapping of inner bucket edges (the oracle does not model
 * those): meta reports the requested bounds moved back / forward onto the finest grid kept there;
 * the rows add up exactly to the oracle's totals over that reported range; every label is the start
 * of a local bucket of the query zone, in ascending order. A description of what broke, or null.
 */
export async function checkSnappedQuery(
  api: ApiServer,
  org: string,
  recordings: readonly CountedRecording[],
  pairs: QueryPairs,
  nowMs: number,
): Promise<string | null> {
  const reply = await httpGet(api.baseUrl, "/api/v1/stats", api.tokenFor(org), queryString(pairs));
  const where = `org=${org} GET ${reply.url}\n   `;
  if (reply.status !== 200) return `${where} status ${reply.status} ${reply.text.slice(0, 200)}`;
  const body = JSON.parse(reply.text) as SnappedBody;
  const params = new Map(pairs);
  const requested = resolveRange(
    {
      start_date: params.get("start_date"),
      end_date: params.get("end_date"),
      timezone: params.get("timezone"),
    },
    nowMs,
  );
  const startStep = keptGridStep(requested.startMs, nowMs);
  const endStep = keptGridStep(requested.endMs, nowMs);
  const startMs = Math.floor(requested.startMs / startStep) * startStep;
  const endMs = Math.ceil(requested.endMs / endStep) * endStep;
  const expectedMeta = [formatIn(startMs, requested.zone), formatIn(endMs, requested.zone)];
  if (body.meta.start_date !== expectedMeta[0] || body.meta.end_date !== expectedMeta[1])
    return `${where} meta ${body.meta.start_date}..${body.meta.end_date}, expected ${expectedMeta.join("..")}`;

  const iso = (ms: number) => new Date(ms).toISOString();
  const total = answerSummary(
    recordings,
    [
      ["start_date", iso(startMs)],
      ["end_date", iso(endMs)],
    ],
    { nowMs },
  );
  if (total.status !== 200) return `${where} the oracle cannot total ${iso(startMs)}..${iso(endMs)}`;
  const sum = (field: "recording_count" | "total_words") => body.data.reduce((n, row) => n + row[field], 0);
  const got = [sum("recording_count"), sum("total_words")];
  const want = [total.metrics.total_recordings.value, total.metrics.total_words.value];
  if (got[0] !== want[0] || got[1] !== want[1])
    return `${where} rows add up to ${got[0]} recordings and ${got[1]} words; the range holds ${want[0]} and ${want[1]}`;

  let previous = Number.NEGATIVE_INFINITY;
  for (const row of body.data) {
    const label = DateTime.fromISO(row.time_bucket, { setZone: true });
    const local = DateTime.fromMillis(label.toMillis(), { zone: requested.zone });
    if (formatIn(local.startOf(body.meta.granularity).toMillis(), requested.zone) !== row.time_bucket)
      return `${where} ${row.time_bucket} is not the start of a local ${body.meta.granularity}`;
    if (label.toMillis() <= previous) return `${where} ${row.time_bucket} is out of order`;
    previous = label.toMillis();
  }
  return null;
}
