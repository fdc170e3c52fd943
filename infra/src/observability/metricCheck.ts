// What the alert rules and the dashboard in infra/observability ask Prometheus for, checked against
// what the services register: a metric renamed in the code, or misspelt in an expression, fails
// infra/src/observability/observability.test.ts instead of an alert that can never fire.

/** A metric the services register: its name as prom-client knows it, its type and its labels. */
export interface RegisteredMetric {
  name: string;
  type: string;
  labelNames: readonly string[];
}

/** A PromQL expression and where it was found, for the failure message. */
export interface Expression {
  where: string;
  expr: string;
}

/** One rule of a Prometheus rules file, as far as the checks need it. */
export interface Rule {
  group: string;
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/**
 * The services' own metrics and the default process and Node.js ones (collectDefaultMetrics):
 * names with these prefixes in an expression must be registered. Others (`up`, recording rules)
 * are Prometheus' own.
 */
const CHECKED_NAME = /(?<![\w:])((?:vu|process|nodejs)_[a-zA-Z0-9_]*)\b(\s*\{[^}]*\})?/g;

/** Labels every series has or gains from the scrape, whatever the metric. */
const TARGET_LABELS = ["job", "instance"];

/** The rules of a parsed rules file (`groups: [{ name, rules: [...] }]`). */
export function rulesOf(document: unknown): Rule[] {
  const groups = (document as { groups?: unknown })?.groups;
  if (!Array.isArray(groups)) throw new Error("a rules file holds `groups:`");
  return groups.flatMap((group: { name?: string; rules?: Rule[] }) => {
    if (!Array.isArray(group.rules)) throw new Error(`group ${group.name ?? "?"} has no rules`);
    return group.rules.map((rule) => ({ ...rule, group: String(group.name) }));
  });
}

/** Every PromQL expression of a Grafana dashboard: each panel's (rows' included) targets and the variables' queries. */
export function dashboardExpressions(dashboard: unknown): Expression[] {
  type Panel = { title?: string; targets?: Array<{ expr?: string; refId?: string }>; panels?: Panel[] };
  const board = dashboard as {
    panels?: Panel[];
    templating?: { list?: Array<{ name?: string; type?: string; query?: unknown }> };
  };
  const fromPanels = (panels: Panel[] = []): Expression[] =>
    panels.flatMap((panel) => [
      ...(panel.targets ?? []).flatMap((target) =>
        typeof target.expr === "string" && target.expr.trim() !== ""
          ? [{ where: `panel "${panel.title}" ${target.refId ?? ""}`.trim(), expr: target.expr }]
          : [],
      ),
      ...fromPanels(panel.panels),
    ]);
  const variables = (board.templating?.list ?? []).flatMap((variable) => {
    if (variable.type !== "query") return [];
    const query =
      typeof variable.query === "string" ? variable.query : (variable.query as { query?: string })?.query;
    return typeof query === "string" ? [{ where: `variable ${variable.name}`, expr: query }] : [];
  });
  return [...fromPanels(board.panels), ...variables];
}

/** `expr` with the text of its string literals blanked out, so a label value never reads as a name. */
function withoutStrings(expr: string): string {
  return expr.replace(
    /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g,
    (literal) => `"${" ".repeat(literal.length - 2)}"`,
  );
}

/** The metric a name in an expression reads: itself, or the histogram or summary of `_bucket`, `_sum` and `_count`. */
export function resolveMetric(
  name: string,
  registered: ReadonlyMap<string, RegisteredMetric>,
): { metric: RegisteredMetric; extraLabels: string[] } | undefined {
  const exact = registered.get(name);
  if (exact) return { metric: exact, extraLabels: exact.type === "summary" ? ["quantile"] : [] };
  const suffix = /^(.*)_(bucket|sum|count)$/.exec(name);
  if (!suffix) return undefined;
  const [, base = "", part] = suffix;
  const metric = registered.get(base);
  if (metric?.type === "histogram") return { metric, extraLabels: part === "bucket" ? ["le"] : [] };
  if (metric?.type === "summary" && part !== "bucket") return { metric, extraLabels: [] };
  return undefined;
}

export interface MetricCheck {
  /** One sentence per problem: an unknown metric, or a label its metric does not have. */
  problems: string[];
  /** Names of registered metrics the expressions read (`_bucket` etc. resolved). */
  used: Set<string>;
  /** How many metric names were checked in all. */
  references: number;
}

/**
 * Checks every metric name in `expressions` (the services' prefixes, see CHECKED_NAME) against
 * `registered`, and the labels each selector matches on and each `by`/`without`/`on`/`ignoring`
 * groups by against the labels of the metrics the expression reads.
 */
export function checkExpressions(
  expressions: readonly Expression[],
  registered: ReadonlyMap<string, RegisteredMetric>,
): MetricCheck {
  const problems: string[] = [];
  const used = new Set<string>();
  let references = 0;
  for (const { where, expr } of expressions) {
    const text = withoutStrings(expr);
    const labelsHere = new Set(TARGET_LABELS);
    for (const [, name = "", selector] of text.matchAll(CHECKED_NAME)) {
      references++;
      const resolved = resolveMetric(name, registered);
      if (!resolved) {
        problems.push(`${where}: ${name} is not a metric the services register`);
        continue;
      }
      used.add(resolved.metric.name);
      const labels = new Set([...TARGET_LABELS, ...resolved.metric.labelNames, ...resolved.extraLabels]);
      for (const label of labels) labelsHere.add(label);
      for (const [, label = ""] of (selector ?? "").matchAll(/([a-zA-Z_]\w*)\s*(?:=~|!~|!=|=)/g)) {
        if (label !== "__name__" && !labels.has(label)) {
          problems.push(`${where}: ${name} has no label "${label}" (it has ${[...labels].join(", ")})`);
        }
      }
    }
    for (const [, , list = ""] of text.matchAll(/\b(by|without|on|ignoring)\s*\(([^)]*)\)/g)) {
      for (const label of list
        .split(",")
        .map((l) => l.trim())
        .filter(Boolean)) {
        if (!labelsHere.has(label)) problems.push(`${where}: no metric it reads has the label "${label}"`);
      }
    }
  }
  return { problems, used, references };
}

/**
 * The anchor GitHub gives a markdown heading: lower case, punctuation but `-` and `_` dropped,
 * spaces turned into `-`.
 */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a markdown document's headings. */
export function headingAnchors(markdown: string): Set<string> {
  return new Set(
    [...markdown.matchAll(/^#{1,6}\s+(.+)$/gm)].map(([, heading = ""]) =>
      headingAnchor(heading.replace(/`/g, "")),
    ),
  );
}
