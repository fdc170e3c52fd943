// infra/observability against the code: every metric the alert rules and the Grafana dashboard
// name is one the worker's or the API's registry holds (built here, never copied by hand), with
// the labels they match on; every alert has its runbook section; promtool accepts the rules and
// their unit tests wherever promtool can be had.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIngestMetrics } from "@vu/ingest-worker";
import { createApp, createHttpMetrics } from "@vu/query-api";
import { createKeyspace } from "@vu/store";
import { DEFAULT_RETENTION } from "@vu/time-buckets";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { stderrLog } from "../log";
import { run } from "../native/commands";
import { repoRoot } from "../paths";
import {
  checkExpressions,
  dashboardExpressions,
  type Expression,
  headingAnchors,
  type RegisteredMetric,
  rulesOf,
} from "./metricCheck";
import { findPromtool } from "./promtool";

const OBSERVABILITY = join(repoRoot, "infra", "observability");
const RULES_FILE = join(OBSERVABILITY, "alerts.yml");
const RULE_TESTS_FILE = join(OBSERVABILITY, "alerts.test.yml");
const DASHBOARD_FILE = join(OBSERVABILITY, "grafana-dashboard.json");
const RUNBOOK = "docs/operations.md";

const read = (path: string) => readFileSync(path, "utf8");
/** prom-client's Registry, as the services hand it out (infra does not depend on prom-client). */
type Registry = ReturnType<typeof createHttpMetrics>["registry"];
const rules = rulesOf(parse(read(RULES_FILE)));
const alerts = rules.filter((rule) => rule.alert !== undefined);
const dashboard = JSON.parse(read(DASHBOARD_FILE)) as unknown;

// The registries as the services build them: the worker's (its Redis gauges included) and the
// API's, through createApp itself. A Redis client that never connects: nothing is scraped here.
const redis = new Redis({ lazyConnect: true });
afterAll(() => redis.disconnect());

function workerRegistry(): Registry {
  return createIngestMetrics({ redisHealth: async () => ({ ok: true, usedMemoryBytes: 0 }) }).registry;
}

function apiRegistry(): Registry {
  const metrics = createHttpMetrics();
  const levels = { values: { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } };
  const silent: Record<string, unknown> = { level: "silent", levels };
  for (const method of ["trace", "debug", "info", "warn", "error", "fatal"]) silent[method] = () => undefined;
  silent.child = () => silent;
  createApp({
    redis,
    keyspace: createKeyspace({ prefix: "observability" }),
    reader: {} as never,
    tokens: {} as never,
    logger: silent as never,
    metrics,
    config: { retention: DEFAULT_RETENTION, rateLimitPerMinute: 1, tokenCacheMs: 100 },
  });
  return metrics.registry;
}

function registeredOf(...registries: Registry[]): Map<string, RegisteredMetric> {
  const registered = new Map<string, RegisteredMetric>();
  for (const registry of registries) {
    for (const metric of registry.getMetricsAsArray()) {
      // getMetricsAsArray, not getMetricsAsJSON: the same names and types without running the
      // collect hooks (which would ask Redis).
      const { name, type, labelNames } = metric as unknown as RegisteredMetric;
      registered.set(name, { name, type, labelNames: labelNames ?? [] });
    }
  }
  return registered;
}

const registered = registeredOf(workerRegistry(), apiRegistry());
const ruleExpressions: Expression[] = rules.map((rule) => ({
  where: `${rule.alert ? `alert ${rule.alert}` : `record ${rule.record}`} (group ${rule.group})`,
  expr: rule.expr,
}));

describe("the metrics the services register", () => {
  it("come from the worker's and the API's registries, default metrics included", () => {
    for (const name of [
      "vu_ingest_events_applied_total",
      "vu_ingest_undecodable_batches_total",
      "vu_token_records_refused_total",
      "vu_http_request_duration_seconds",
      "vu_result_cache_lookups_total",
      "vu_view_state",
      "vu_redis_memory_fill_ratio",
      "process_cpu_seconds_total",
      "nodejs_eventloop_lag_p99_seconds",
    ]) {
      expect(registered.has(name), name).toBe(true);
    }
    expect([...registered.keys()].filter((name) => name.startsWith("vu_")).length).toBeGreaterThanOrEqual(21);
    expect(registered.get("vu_ingest_dead_lettered_total")?.labelNames).toEqual(["reason"]);
  });
});

describe("infra/observability/alerts.yml", () => {
  it("names only metrics the services register, and only labels they have", () => {
    const check = checkExpressions(ruleExpressions, registered);
    expect(check.problems).toEqual([]);
    expect(alerts.length).toBeGreaterThanOrEqual(16);
    expect(check.references).toBeGreaterThan(30);
  });

  it("alerts on lag, the view, dead letters, undecodable batches, refusals, token records, 5xx and Redis memory", () => {
    const check = checkExpressions(ruleExpressions, registered);
    for (const name of [
      "vu_ingest_consumer_lag",
      "vu_view_state",
      "vu_ingest_log_truncated",
      "vu_ingest_epochs_opened_total",
      "vu_ingest_dead_lettered_total",
      "vu_ingest_undecodable_batches_total",
      "vu_ingest_write_refusals_total",
      "vu_token_records_refused_total",
      "vu_http_request_duration_seconds",
      "vu_redis_memory_fill_ratio",
    ]) {
      expect(check.used.has(name), name).toBe(true);
    }
  });

  it("gives every alert a severity, a summary, a description and a runbook_url to its section of the runbook", () => {
    const anchors = headingAnchors(read(join(repoRoot, RUNBOOK)));
    for (const alert of alerts) {
      const name = alert.alert ?? "";
      expect(["warning", "critical"], name).toContain(alert.labels?.severity);
      expect(alert.annotations?.summary, name).toBeTruthy();
      expect(alert.annotations?.description, name).toBeTruthy();
      const [file, anchor = ""] = (alert.annotations?.runbook_url ?? "").split("#");
      expect(file, name).toBe(RUNBOOK);
      expect(anchor, name).toBe(name.toLowerCase());
      expect(anchors.has(anchor), `${RUNBOOK} has a section "${name}"`).toBe(true);
    }
  });

  it("has a unit test (alerts.test.yml) in which each alert fires", () => {
    const tests = (
      parse(read(RULE_TESTS_FILE)) as {
        rule_files: string[];
        tests: Array<{ alert_rule_test?: Array<{ alertname: string; exp_alerts?: unknown[] }> }>;
      }
    ).tests;
    const fired = new Set(
      tests.flatMap((test) =>
        (test.alert_rule_test ?? []).filter((t) => (t.exp_alerts ?? []).length > 0).map((t) => t.alertname),
      ),
    );
    const names = [...new Set(alerts.map((alert) => alert.alert))];
    expect(names.filter((name) => !fired.has(name ?? ""))).toEqual([]);
    expect(fired.size).toBe(names.length);
  });
});

describe("infra/observability/grafana-dashboard.json", () => {
  const expressions = dashboardExpressions(dashboard);

  it("names only metrics the services register, and only labels they have", () => {
    const check = checkExpressions(expressions, registered);
    expect(check.problems).toEqual([]);
    expect(expressions.length).toBeGreaterThan(30);
    expect(check.references).toBeGreaterThan(30);
  });

  it("shows every metric of the services' own", () => {
    const { used } = checkExpressions(expressions, registered);
    const own = [...registered.keys()].filter((name) => name.startsWith("vu_"));
    expect(own.filter((name) => !used.has(name))).toEqual([]);
  });
});

describe("the metric check", () => {
  it("fails on a metric no service registers, a histogram part of a gauge, and a label a metric lacks", () => {
    const bad = checkExpressions(
      [
        { where: "misspelt", expr: "sum(rate(vu_ingest_events_aplied_total[5m]))" },
        {
          where: "not a histogram",
          expr: "histogram_quantile(0.9, rate(vu_ingest_consumer_lag_bucket[5m]))",
        },
        { where: "wrong label", expr: 'sum(increase(vu_ingest_dead_lettered_total{code="x"}[5m]))' },
        { where: "wrong grouping", expr: "sum by (reason) (vu_ingest_consumer_lag)" },
        { where: "default metric", expr: "rate(process_cpu_secs_total[5m])" },
      ],
      registered,
    );
    expect(bad.problems).toEqual([
      "misspelt: vu_ingest_events_aplied_total is not a metric the services register",
      "not a histogram: vu_ingest_consumer_lag_bucket is not a metric the services register",
      expect.stringMatching(/^wrong label: vu_ingest_dead_lettered_total has no label "code"/),
      'wrong grouping: no metric it reads has the label "reason"',
      "default metric: process_cpu_secs_total is not a metric the services register",
    ]);
  });

  it("fails on a rules file whose alert names an unknown metric", () => {
    const file = parse(`
groups:
  - name: bad
    rules:
      - alert: Typo
        expr: vu_ingest_consumer_lagg > 10
`);
    const [rule] = rulesOf(file);
    expect(checkExpressions([{ where: "Typo", expr: rule?.expr ?? "" }], registered).problems).toEqual([
      "Typo: vu_ingest_consumer_lagg is not a metric the services register",
    ]);
  });

  it("reads histogram parts, label values and legends rightly", () => {
    const good = checkExpressions(
      [
        {
          where: "parts",
          expr: 'histogram_quantile(0.99, sum by (route, le) (rate(vu_http_request_duration_seconds_bucket{route!="unmatched"}[5m])))',
        },
        {
          where: "mean",
          expr: "rate(vu_ingest_batch_apply_seconds_sum[5m]) / rate(vu_ingest_batch_apply_seconds_count[5m])",
        },
        // A label value that looks like a metric name is not one.
        { where: "value", expr: 'up{job="vu_not_a_metric"} == 0' },
        { where: "target labels", expr: "sum by (job, instance) (vu_redis_healthy)" },
      ],
      registered,
    );
    expect(good.problems).toEqual([]);
    expect(good.references).toBe(4);
  });
});

describe("the docs", () => {
  it.each([RUNBOOK, "README.md"])("%s names only metrics the services register", (doc) => {
    const names = [...read(join(repoRoot, doc)).matchAll(/(?<![\w:])vu_[a-z0-9_]+/g)].map(([name]) => name);
    expect(names.length).toBeGreaterThan(5);
    const check = checkExpressions(
      names.map((name) => ({ where: doc, expr: name })),
      registered,
    );
    expect(check.problems).toEqual([]);
  });
});

describe("promtool", () => {
  /** Set in CI where promtool must run: its absence then fails instead of skipping. */
  const required = process.env.VU_REQUIRE_PROMTOOL === "1";

  it("accepts the rules (check rules), their unit tests (test rules), and the dashboard's queries", {
    timeout: 600_000,
  }, async (context) => {
    const promtool = await findPromtool(stderrLog);
    if (!promtool.ok) {
      const note = `promtool is not available on this machine, so alerts.yml was not checked by it: ${promtool.reason}`;
      if (required) throw new Error(note);
      console.warn(note);
      context.skip(note);
      return;
    }
    const checked = await run(promtool.path, ["check", "rules", RULES_FILE], { timeoutMs: 120_000 });
    expect(checked.stdout).toMatch(new RegExp(`SUCCESS: ${rules.length} rules found`));
    const tested = await run(promtool.path, ["test", "rules", RULE_TESTS_FILE], {
      cwd: OBSERVABILITY,
      timeoutMs: 300_000,
    });
    expect(tested.stdout).toContain("SUCCESS");

    // The dashboard's queries parse too: each as a recording rule, Grafana's variables given values.
    const dir = mkdtempSync(join(tmpdir(), "vu-dashboard-rules-"));
    try {
      const asRules = dashboardExpressions(dashboard).map(({ expr }, i) => ({
        record: `dashboard:query_${i}`,
        expr: expr
          .replaceAll("$__rate_interval", "5m")
          .replaceAll("$__interval", "1m")
          .replaceAll("$__range", "1h"),
      }));
      const file = join(dir, "dashboard.rules.json");
      // JSON is YAML: no quoting to get wrong.
      writeFileSync(file, JSON.stringify({ groups: [{ name: "dashboard", rules: asRules }] }));
      const dashboardChecked = await run(promtool.path, ["check", "rules", file], { timeoutMs: 120_000 });
      expect(dashboardChecked.stdout).toMatch(new RegExp(`SUCCESS: ${asRules.length} rules found`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
