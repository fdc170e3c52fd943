import { DIMENSIONS, type Dimension } from "@vu/events/vocabulary";
import type { Dimensions } from "../api/types";
import { isKnownZone } from "../state/presets";
import type { ViewState } from "../state/viewState";
import { splitList } from "../state/viewState";
import {
  CHART_METRIC_LABELS,
  CHART_METRICS,
  DIMENSION_LABELS,
  GRANULARITIES,
  NO_LANGUAGE_MODEL,
  RANGE_LABELS,
  RANGE_PRESETS,
  type RangeChoice,
} from "../state/vocabulary";
import { el } from "./dom";
import { createMultiSelect, type MultiSelect, type MultiSelectOption } from "./multiSelect";

export interface Controls {
  element: HTMLElement;
  /** Shows a view (after back/forward) without firing changes. */
  show(view: ViewState): void;
}

const option = (value: string, label: string, selected: boolean) => el("option", { value, selected }, label);

function labelledSelect(id: string, label: string, choices: [string, string][], current: string) {
  const select = el("select", { id, name: id }, ...choices.map(([v, l]) => option(v, l, v === current)));
  return { select, field: el("div", { class: "field" }, el("label", { for: id }, label), select) };
}

/** The filter choices per dimension from /stats/dimensions; members are typed (the API lists none). */
function filterChoices(
  dimensions: Dimensions,
): Record<Exclude<Dimension, "member_email">, MultiSelectOption[]> {
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
export function createControls(
  initial: ViewState,
  dimensions: Dimensions,
  zones: readonly string[],
  onChange: (change: Partial<ViewState>) => void,
): Controls {
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
  const groupBy = labelledSelect(
    "group_by",
    "Group by",
    [["", "No grouping"], ...DIMENSIONS.map((d): [string, string] => [d, DIMENSION_LABELS[d]])],
    initial.groupBy ?? "",
  );
  const metric = labelledSelect(
    "metric",
    "Chart shows",
    CHART_METRICS.map((m) => [m, CHART_METRIC_LABELS[m]]),
    initial.metric,
  );

  const choices = filterChoices(dimensions);
  const multi: Record<Exclude<Dimension, "member_email">, MultiSelect> = {
    voice_model: createMultiSelect({
      label: DIMENSION_LABELS.voice_model,
      name: "filter-voice_model",
      choices: choices.voice_model,
      onChange: (values) => onChange({ filters: { ...current.filters, voice_model: values } }),
    }),
    language_model: createMultiSelect({
      label: DIMENSION_LABELS.language_model,
      name: "filter-language_model",
      choices: choices.language_model,
      onChange: (values) => onChange({ filters: { ...current.filters, language_model: values } }),
    }),
    app_name: createMultiSelect({
      label: DIMENSION_LABELS.app_name,
      name: "filter-app_name",
      choices: choices.app_name,
      onChange: (values) => onChange({ filters: { ...current.filters, app_name: values } }),
    }),
  };
  const members = el("input", {
    id: "filter-member_email",
    name: "filter-member_email",
    type: "text",
    inputmode: "email",
    autocomplete: "off",
    spellcheck: "false",
    placeholder: "ada@example.com, bob@example.com",
    "aria-describedby": "members-hint",
  });
  const membersField = el(
    "div",
    { class: "field multi" },
    el("label", { for: "filter-member_email" }, "Members"),
    members,
    el("span", { id: "members-hint", class: "hint" }, "E-mail addresses, comma-separated; empty: all"),
  );

  const form = el(
    "form",
    { class: "controls", "aria-label": "View settings", novalidate: true },
    el(
      "fieldset",
      {},
      el("legend", {}, "Period"),
      el("div", { class: "row" }, range.field, zoneField),
      custom,
    ),
    el(
      "fieldset",
      {},
      el("legend", {}, "Breakdown"),
      el("div", { class: "row" }, granularity.field, groupBy.field, metric.field),
    ),
    el(
      "fieldset",
      { class: "filters" },
      el("legend", {}, "Filters"),
      el(
        "div",
        { class: "row" },
        multi.voice_model.element,
        multi.language_model.element,
        multi.app_name.element,
        membersField,
      ),
    ),
  );

  let current = initial;
  const show = (view: ViewState) => {
    current = view;
    range.select.value = view.range;
    custom.hidden = view.range !== "custom";
    from.value = view.from ?? "";
    to.value = view.to ?? "";
    if (document.activeElement !== zone) zone.value = view.timezone;
    granularity.select.value = view.granularity;
    groupBy.select.value = view.groupBy ?? "";
    metric.select.value = view.metric;
    multi.voice_model.setSelected(view.filters.voice_model);
    multi.language_model.setSelected(view.filters.language_model);
    multi.app_name.setSelected(view.filters.app_name);
    if (document.activeElement !== members) members.value = view.filters.member_email.join(", ");
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
    onChange({ granularity: granularity.select.value as ViewState["granularity"] }),
  );
  groupBy.select.addEventListener("change", () =>
    onChange({ groupBy: (groupBy.select.value || null) as Dimension | null }),
  );
  metric.select.addEventListener("change", () =>
    onChange({ metric: metric.select.value as ViewState["metric"] }),
  );
  members.addEventListener("change", () =>
    onChange({ filters: { ...current.filters, member_email: splitList(members.value) } }),
  );

  show(initial);
  return { element: form, show };
}
