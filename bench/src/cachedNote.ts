import type { TargetCheck } from "./targetCheck";

// What the report's cached figures are, said wherever they are shown (the target table, the query,
// engine, throughput and scaling tables): the result cache against systems that keep no answers,
// measured while nothing writes.

/** What a cached figure compares. */
export const CACHED_IS_RESULT_CACHE = `A **cached** figure is the API answering a repeated request from its result cache: an answer kept
from an earlier identical request, served again after one \`HMGET\` shows the organization's write
stamp unchanged. PostgreSQL, DuckDB and ClickHouse (over raw rows or its materialized view) compute
every answer: none of them keeps answers here (PostgreSQL and DuckDB have no result cache;
ClickHouse's query cache cannot be used in chDB, the embedded ClickHouse the bench runs). A cached
figure says what a dashboard's repeated question costs, not that the store answers a question
faster than the engines: the **computed** figures (\`Cache-Control: no-cache\`, planned, read and
summed every time) are that comparison.`;

/** When cached figures are measured, and the case they leave out. */
export const CACHED_WHILE_NOTHING_WRITES = `Cached figures are timed while nothing writes to the organization asked: after the ingest has
stopped, or (under steady ingest) while the stream writes organizations of its own only. So
its write stamp never moves and every request after the first is a hit. A live
dashboard asks while the worker applies new recordings; each batch applied for its organization
moves the stamp, and the next request computes the answer again, at the computed cost. How often
that happens, and what a live dashboard then waits, this report does not measure.`;

/** The note under the target table: how many of the rows met are cached rows, and what they are. */
export function cachedTargetsNote(checks: readonly TargetCheck[]): string {
  const met = checks.filter((c) => c.met === true);
  const cached = met.filter((c) => c.cached === true);
  if (cached.length === 0) return "";
  return `**${cached.length} of the ${met.length} rows met are cached rows**, whose target names the result cache or a kept answer.

${CACHED_IS_RESULT_CACHE}

${CACHED_WHILE_NOTHING_WRITES}`;
}
