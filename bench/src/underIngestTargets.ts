import type { OrganizationRole } from "./benchDataset";
import { hitRate, sumLookups } from "./cacheLookups";
import { everyQuery, type QueryFigure } from "./everyQuery";
import type { ApiRun } from "./queryBench";
import { f, runLabel } from "./reportFormat";
import { apiVariant, type BenchResults, runsOf, type SizeResult } from "./results";
import {
  MAX_SMALL_P99_UNDER_INGEST_MS,
  MAX_UNDER_INGEST_SLOWDOWN,
  UNDER_INGEST_RATE_SHARE,
} from "./targetBounds";
import type { TargetCheck } from "./targetCheck";
import { queriesOf } from "./tenantQueryTargets";
import type { UnderIngestQuery, UnderIngestResult } from "./underIngest";

const STREAM = `while the worker applies a steady stream at ${f(UNDER_INGEST_RATE_SHARE * 100)} % of its backlog rate`;
const SLOWDOWN_TARGET = `each computed p50 ≤ ${MAX_UNDER_INGEST_SLOWDOWN} × the same query idle, ${STREAM}`;
const SMALL_P99_TARGET = `each p99 ≤ ${MAX_SMALL_P99_UNDER_INGEST_MS} ms, ${STREAM}`;

/** The result cache's hit rate over the cached runs of some queries under ingest. */
export const passHitRate = (queries: readonly UnderIngestQuery[]): number =>
  hitRate(sumLookups(queries.map((q) => q.lookups)));

/** What the stream did: the rate the worker took against the rate asked, and the cache's hit rate. */
const streamNote = (pass: UnderIngestResult, queries: readonly UnderIngestQuery[]) =>
  `; stream ${f(pass.appliedRate)} of ${f(pass.targetRate)} events/s asked` +
  (pass.producedRate === undefined ? "" : ` (${f(pass.producedRate)} produced)`) +
  `, cache hit rate ${f(passHitRate(queries) * 100, 1)} %`;

function slowdownCheck(run: SizeResult, pass: UnderIngestResult, role: OrganizationRole): TargetCheck {
  const asked = new Set(queriesOf(run.queries, role).map((q) => q.id));
  const mine = pass.queries.filter((q) => asked.has(q.id));
  const figures: QueryFigure[] = mine.flatMap((under) => {
    const idle = run.queries.find((q) => q.id === under.id);
    const computed = idle ? apiVariant(idle, "computed")?.run : undefined;
    if (computed === undefined) return [];
    return [
      {
        id: under.id,
        value: under.computed.p50 / computed.p50,
        detail: `(${f(computed.p50, 2)} → ${f(under.computed.p50, 2)} ms)`,
      },
    ];
  });
  const row = everyQuery(figures, MAX_UNDER_INGEST_SLOWDOWN, (v) => `×${f(v, 2)}`);
  return {
    kind: "underIngestSlowdown",
    area: `Under ingest, ${role} (computed)`,
    target: `${SLOWDOWN_TARGET} (at ${runLabel(run)})`,
    measured: row.measured + streamNote(pass, mine),
    met: row.met,
  };
}

function smallP99Check(
  run: SizeResult,
  pass: UnderIngestResult,
  variant: "cached" | "computed",
): TargetCheck {
  const asked = new Set(queriesOf(run.queries, "smallest").map((q) => q.id));
  const mine = pass.queries.filter((q) => asked.has(q.id));
  const figures = mine.map((q) => {
    const r: ApiRun = q[variant];
    return { id: q.id, value: r.p99, detail: `(p50 ${f(r.p50, 2)} ms)` };
  });
  const row = everyQuery(figures, MAX_SMALL_P99_UNDER_INGEST_MS, (v) => `${f(v, 2)} ms`);
  return {
    kind: "underIngestSmallP99",
    ...(variant === "cached" ? { cached: true } : {}),
    area: `Under ingest, smallest (${variant})`,
    target: `${variant === "cached" ? "kept answers (result cache), other organizations written: " : ""}${SMALL_P99_TARGET} (at ${runLabel(run)})`,
    measured: row.measured + streamNote(pass, mine),
    met: row.met,
  };
}

const notRun = (kind: TargetCheck["kind"], area: string, target: string, why: string): TargetCheck => ({
  kind,
  area,
  target,
  measured: `not run (${why})`,
  met: null,
});

const NO_PASS = "`--skip-under-ingest`, or results from before the pass";

/**
 * The under-ingest targets at each shape's largest size: every queried organization's computed
 * p50 against its idle run (the single set's large one; the multi-tenant set's largest, median and
 * smallest), and the smallest organization's p99, cached and computed.
 */
export function underIngestChecks(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const single = runsOf(results, "single").at(-1);
  const many = runsOf(results, "many").at(-1);
  const roles: Array<[SizeResult | undefined, OrganizationRole[]]> = [
    [single, ["large"]],
    [many, ["largest", "median", "smallest"]],
  ];
  for (const [run, runRoles] of roles)
    for (const role of runRoles) {
      const area = `Under ingest, ${role} (computed)`;
      if (run === undefined) checks.push(notRun("underIngestSlowdown", area, SLOWDOWN_TARGET, "`--shapes`"));
      else if (run.underIngest === undefined)
        checks.push(notRun("underIngestSlowdown", area, SLOWDOWN_TARGET, NO_PASS));
      else checks.push(slowdownCheck(run, run.underIngest, role));
    }
  for (const variant of ["cached", "computed"] as const) {
    const area = `Under ingest, smallest (${variant})`;
    if (many === undefined) checks.push(notRun("underIngestSmallP99", area, SMALL_P99_TARGET, "`--shapes`"));
    else if (many.underIngest === undefined)
      checks.push(notRun("underIngestSmallP99", area, SMALL_P99_TARGET, NO_PASS));
    else checks.push(smallP99Check(many, many.underIngest, variant));
  }
  return checks;
}
