import { DIMENSIONS, type Dimension } from "@vu/events/vocabulary";
import type { Dimensions } from "../api/types";
import { isKnownZone } from "../state/presets";
import type { ScreenState } from "../state/screenState";
import { type SelectionMode, selectionOf, withGroupAt, withSelection } from "../state/selection";
import {
  CHART_METRIC_LABELS,
  CHART_METRICS,
  COMPARISON_LABELS,
  COMPARISONS,
  DIMENSION_LABELS,
  GRANULARITIES,
  MAX_GROUP_BY,
  NO_LANGUAGE_MODEL,
  RANGE_LABELS,
  RANGE_PRESETS,
  type RangeChoice,
  WEEK_STARTS,
} from "../state/vocabulary";
import { el } from "./dom";
import { createMemberPicker } from "./memberPicker";
import { createMultiSelect, type MultiSelect, type MultiSelectOption } from "./multiSelect";
import { createModeToggle, type ModeToggle } from "./selectionMode";

export interface Controls {
  element: HTMLElement;
  /** Shows a view (after back/forward) without firing changes. */
  show(view: ScreenState): void;
}

const option = (value: string, label: string, selected: boolean) => el("option", { value, selected }, label);

function labelledSelect(id: string, label: string, choices: [string, string][], current: string) {
  const select = el("select", { id, name: id }, ...choices.map(([v, l]) => option(v, l, v === current)));
  return { select, field: el("div", { class: "field" }, el("label", { for: id }, label), select) };
}

/** Members are picked as they are typed (memberPicker.ts); every other dimension lists its values. */
type ListedDimension = Exclude<Dimension, "member_email">;
const LISTED = DIMENSIONS.filter((d): d is ListedDimension => d !== "member_email");

/** The filter choices per dimension from /stats/dimensions; members are picked as they are typed. */
function filterChoices(dimensions: Dimensions): Record<ListedDimension, MultiSelectOption[]> {
  const plain = (values: string[]) => values.map((value) => ({ value, label: value }));
  return {
    voice_model: plain(dimensions.voice_models),
    language_model: [
      ...plain(dimensions.language_models),
      { value: NO_LANGUAGE_MODEL, label: "(no language model)" },
    ],
    app_name: plain(dimensions.app_names),
  };
}

/** Every setting of the view, each labelled and reachable by keyboard; changes apply at once. */
export function createControls(options: {
  initial: ScreenState;
  dimensions: Dimensions;
  zones: readonly string[];
  /** Members whose address contains what was typed (`/stats/dimensions?q=…`). */
  suggestMembers: (typed: string) => Promise<string[]>;
  onChange: (change: Partial<ScreenState>) => void;
}): Controls {
  const { initial, dimensions, zones, onChange } = options;
  const range = labelledSelect(
    "range",
    "Range",
    [...RANGE_PRESETS, "custom" as const].map((r) => [r, RANGE_LABELS[r]]),
    initial.range,
  );
  const from = el("input", { id: "from", name: "from", type: "date", required: true });
  const to = el("input", { id: "to", name: "to", type: "date", required: true });
  const apply = el("button", { type: "submit" }, "Apply range");
  const custom = el(
    "div",
    { class: "custom-range" },
    el("div", { class: "field" }, el("label", { for: "from" }, "From"), from),
    el("div", { class: "field" }, el("label", { for: "to" }, "To (included)"), to),
    apply,
  );

  const compare = labelledSelect(
    "compare",
    "Compare with",
    COMPARISONS.map((c) => [c, COMPARISON_LABELS[c][0]?.toUpperCase() + COMPARISON_LABELS[c].slice(1)]),
    initial.compare,
  );

  const zoneList = el("datalist", { id: "zones" }, ...zones.map((z) => el("option", { value: z })));
  const zone = el("input", {
    id: "timezone",
    name: "timezone",
    type: "text",
    list: "zones",
    autocomplete: "off",
    spellcheck: "false",
    "aria-describedby": "timezone-error",
  });
  const zoneError = el("p", { id: "timezone-error", class: "field-error", hidden: true });
  const zoneField = el(
    "div",
    { class: "field" },
    el("label", { for: "timezone" }, "Time zone"),
    zone,
    zoneList,
    zoneError,
  );

  const granularity = labelledSelect(
    "granularity",
    "Granularity",
    GRANULARITIES.map((g) => [g, g[0]?.toUpperCase() + g.slice(1)]),
    initial.granularity,
  );
  const weekStart = labelledSelect(
    "week_start",
    "Weeks start on",
    WEEK_STARTS.map((d) => [d, d[0]?.toUpperCase() + d.slice(1)]),
    initial.weekStart,
  );
  const groupChoices = (none: string): [string, string][] => [
    ["", none],
    ...DIMENSIONS.map((d): [string, string] => [d, DIMENSION_LABELS[d]]),
  ];
  // One select per position: "Group by", then "and by" (a combination of dimensions).
  const groupSelects = Array.from({ length: MAX_GROUP_BY }, (_, position) =>
    labelledSelect(
      position === 0 ? "group_by" : `group_by_${position + 1}`,
      position === 0 ? "Group by" : "And by",
      groupChoices(position === 0 ? "No grouping" : "Nothing more"),
      initial.groupBy[position] ?? "",
    ),
  );
  const metric = labelledSelect(
    "metric",
    "Chart shows",
    CHART_METRICS.map((m) => [m, CHART_METRIC_LABELS[m]]),
    initial.metric,
  );

  const choices = filterChoices(dimensions);
  const select = (dimension: Dimension, mode: SelectionMode, values: readonly string[]) =>
    onChange(withSelection(current, dimension, { mode, values }));
  const toggles = {} as Record<Dimension, ModeToggle>;
  for (const dimension of DIMENSIONS) {
    toggles[dimension] = createModeToggle(DIMENSION_LABELS[dimension], (mode) => {
      // With nothing chosen yet the box only says how the next choice applies: no new view.
      const { values } = selectionOf(current, dimension);
      if (values.length > 0) select(dimension, mode, values);
    });
  }
  const multi = {} as Record<ListedDimension, MultiSelect>;
  for (const dimension of LISTED) {
    multi[dimension] = createMultiSelect({
      label: DIMENSION_LABELS[dimension],
      name: `filter-${dimension}`,
      choices: choices[dimension],
      onChange: (values) => select(dimension, toggles[dimension].mode(), values),
    });
    multi[dimension].element.append(toggles[dimension].element);
  }
  const members = createMemberPicker({
    suggest: options.suggestMembers,
    onChange: (values) => select("member_email", toggles.member_email.mode(), values),
  });
  members.element.append(toggles.member_email.element);

  const form = el(
    "form",
    { class: "controls", "aria-label": "View settings", novalidate: true },
    el(
      "fieldset",
      {},
      el("legend", {}, "Period"),
      el("div", { class: "row" }, range.field, zoneField, compare.field),
      custom,
    ),
    el(
      "fieldset",
      {},
      el("legend", {}, "Breakdown"),
      el(
        "div",
        { class: "row" },
        granularity.field,
        weekStart.field,
        ...groupSelects.map((g) => g.field),
        metric.field,
      ),
    ),
    el(
      "fieldset",
      { class: "filters" },
      el("legend", {}, "Filters"),
      el("div", { class: "row" }, ...LISTED.map((dimension) => multi[dimension].element), members.element),
    ),
  );

  let current = initial;
  const show = (view: ScreenState) => {
    current = view;
    range.select.value = view.range;
    custom.hidden = view.range !== "custom";
    from.value = view.from ?? "";
    to.value = view.to ?? "";
    if (document.activeElement !== zone) zone.value = view.timezone;
    granularity.select.value = view.granularity;
    weekStart.select.value = view.weekStart;
    groupSelects.forEach((g, position) => {
      g.select.value = view.groupBy[position] ?? "";
      // A second dimension needs a first.
      g.select.disabled = position > view.groupBy.length;
    });
    metric.select.value = view.metric;
    compare.select.value = view.compare;
    for (const dimension of DIMENSIONS) {
      const selection = selectionOf(view, dimension);
      // An empty selection has no mode of its own: the box keeps what the user set for the next choice.
      if (selection.values.length > 0) toggles[dimension].setMode(selection.mode);
    }
    for (const dimension of LISTED) multi[dimension].setSelected(selectionOf(view, dimension).values);
    members.setSelected(selectionOf(view, "member_email").values);
  };

  range.select.addEventListener("change", () => {
    const choice = range.select.value as RangeChoice;
    if (choice !== "custom") {
      onChange({ range: choice, from: null, to: null });
      return;
    }
    custom.hidden = false;
    from.focus();
  });
  // A custom range applies on submit (Enter in a date field or the button): half a range is not a view.
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (range.select.value === "custom" && from.value && to.value) {
      onChange({ range: "custom", from: from.value, to: to.value });
    }
  });
  zone.addEventListener("change", () => {
    const name = zone.value.trim();
    const known = isKnownZone(name);
    zone.setAttribute("aria-invalid", String(!known));
    zoneError.hidden = known;
    zoneError.textContent = known
      ? ""
      : `“${name}” is not a time zone name (for example Europe/Berlin or UTC).`;
    if (known) onChange({ timezone: name });
  });
  granularity.select.addEventListener("change", () =>
    onChange({ granularity: granularity.select.value as ScreenState["granularity"] }),
  );
  weekStart.select.addEventListener("change", () =>
    onChange({ weekStart: weekStart.select.value as ScreenState["weekStart"] }),
  );
  groupSelects.forEach((g, position) => {
    g.select.addEventListener("change", () => {
      const dimension = (g.select.value || null) as Dimension | null;
      onChange({ groupBy: withGroupAt(current.groupBy, position, dimension) });
    });
  });
  compare.select.addEventListener("change", () =>
    onChange({ compare: compare.select.value as ScreenState["compare"] }),
  );
  metric.select.addEventListener("change", () =>
    onChange({ metric: metric.select.value as ScreenState["metric"] }),
  );

  show(initial);
  return { element: form, show };
}
