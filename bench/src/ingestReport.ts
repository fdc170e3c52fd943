import { SIZING_RATE, sizingRows } from "./ingestSizing";
import { f, runLabel, table } from "./reportFormat";
import { type BenchResults, runsOf } from "./results";
import { NEW_ORGANIZATIONS } from "./steadyPass";

const cores = (n: number) => (Number.isFinite(n) ? f(n, 2) : "–");

/** Cores each component needs per SIZING_RATE events/s, from every ingest window of the largest sizes. */
export function sizingSection(r: BenchResults): string {
  const rows = sizingRows(r);
  const all = (row: (typeof rows)[number]) =>
    [row.worker, row.redis, row.broker].reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  return `${table(
    ["Ingest window", "Workers", "Events/s", "Worker(s)", "Redis", "Kafka broker", "Together"],
    rows.map((row) => [
      row.run,
      f(row.workers),
      f(row.eventsPerSecond),
      cores(row.worker),
      cores(row.redis),
      cores(row.broker),
      cores(all(row)),
    ]),
  )}

Cores per ${f(SIZING_RATE)} events/s: each process's CPU seconds in the window ÷ the events applied
in it, × ${f(SIZING_RATE)}. The broker is the local Kafka broker's process (– where it was not found
on this machine, or in results from before it was measured); it also serves anything else using it
at the time. On a machine with as many cores as the **Together** column needs per ${f(SIZING_RATE)}
events/s, and those cores free, the same processes would carry that rate; with two cores,
two workers share them with Redis and the broker, so their rate measures the machine as much as the
second worker.`;
}

/** The multi-tenant set's steady pass and new organizations, size by size. */
export function steadySection(r: BenchResults): string {
  const runs = runsOf(r, "many").filter((s) => s.steady || s.newOrganizations);
  if (runs.length === 0)
    return "Not measured in this run (no multi-tenant data set, or results from before it).";
  const intro = `After the multi-tenant set's queries: \`--steady-passes\` more recordings of every organization
(one per pass, each from the organization's own members, models and apps, at a time in the data
set's range), produced while the worker is stopped and read by it as a backlog; and
${f(NEW_ORGANIZATIONS)} organizations never seen, one recording each, read by the running worker.
Redis bytes are \`used_memory\` Δ ÷ events (÷ organizations).`;
  return `${intro}\n\n${table(
    [
      "Data set",
      "Steady pass",
      "Rate",
      "vs the backlog",
      "Redis bytes per further event",
      "New organizations",
      "Redis bytes per first recording",
    ],
    runs.map((s) => {
      const steady = s.steady;
      const probe = s.newOrganizations;
      return [
        runLabel(s),
        steady ? `${f(steady.passes)} × ${f(steady.organizations)} = ${f(steady.events)} events` : "–",
        steady ? `${f(steady.rate.eventsPerSecond)} events/s` : "–",
        steady ? `×${f(steady.rate.eventsPerSecond / s.ingest.worker.rate.eventsPerSecond, 2)}` : "–",
        steady ? f(steady.bytesPerEvent, 1) : "–",
        probe ? f(probe.organizations) : "–",
        probe ? f(probe.bytesPerOrganization) : "–",
      ];
    }),
  )}`;
}
