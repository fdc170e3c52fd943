import type { Summary } from "../api/types";
import {
  COMPARISON_LABELS,
  type Comparison,
  PERCENTILE_LABEL,
  PROCESSING_PERCENTILE,
} from "../state/vocabulary";
import { el } from "./dom";
import { formatChange, formatDecimal, formatInteger, formatPrecise } from "./format";

/**
 * The summary's numbers, as opposed to its `previous` and `change` (compare) and the percentiles
 * (docs/contract.md §9, `p<q>_…`: fields named by the query, never compared).
 */
type SummaryField = Exclude<keyof Summary, "previous" | "change" | `p${number}_${string}`>;
type PercentileField = `p${number}_${string}`;

interface Card {
  field: SummaryField | PercentileField;
  label: string;
  unit: string;
  format: (n: number) => string;
}

/** The processing time's percentile card, beside its average's (null: no recording had that time). */
const percentileCard = (time: "voice" | "llm", label: string): Card => ({
  field: `p${PROCESSING_PERCENTILE}_${time}_processing_seconds`,
  label: `${PERCENTILE_LABEL} ${label}`,
  unit: "s",
  format: formatPrecise,
});

const isPercentile = (field: Card["field"]): field is PercentileField => /^p\d+_/.test(field);

/** The summary's fields, in its own units (minutes and seconds; seed: "the units differ"). */
const CARDS: readonly Card[] = [
  { field: "total_recordings", label: "Recordings", unit: "", format: formatInteger },
  { field: "total_duration_minutes", label: "Minutes recorded", unit: "min", format: formatDecimal },
  { field: "total_words", label: "Words transcribed", unit: "", format: formatInteger },
  {
    field: "avg_voice_processing_seconds",
    label: "Avg voice processing",
    unit: "s",
    format: formatPrecise,
  },
  percentileCard("voice", "voice processing"),
  {
    field: "avg_llm_processing_seconds",
    label: "Avg language-model processing",
    unit: "s",
    format: formatPrecise,
  },
  percentileCard("llm", "language-model processing"),
  // docs/contract.md §9: distinct members with a recording in the range, when the summary has it.
  { field: "active_members", label: "Active members", unit: "", format: formatInteger },
];

/**
 * A card's line against the period compared with: the API's relative change, or why there is none
 * (the API answers null where the previous value is 0). Carries the API's numbers in data attributes.
 */
function changeLine(
  summary: Summary,
  field: SummaryField,
  format: (n: number) => string,
  compare: Comparison,
): HTMLElement | null {
  const previous = summary.previous?.[field];
  const change = summary.change?.[field];
  if (previous === undefined || change === undefined) return null;
  const direction = change === null || change === 0 ? "flat" : change > 0 ? "up" : "down";
  const period = COMPARISON_LABELS[compare];
  const text =
    change === null
      ? `none in the ${period}`
      : `${formatChange(change)} vs ${format(previous)} in the ${period}`;
  return el(
    "span",
    {
      class: `card-change ${direction}`,
      "data-previous": previous,
      "data-change": change ?? "",
      "data-change-null": change === null,
    },
    text,
  );
}

/**
 * The summary cards, one per field the summary has; each carries the API's exact number in
 * `data-value` beside the rounded text.
 */
export function renderCards(summary: Summary, compare: Comparison): HTMLElement {
  const cards = CARDS.flatMap(({ field, label, unit, format }) => {
    const value = summary[field];
    if (value === undefined) return [];
    return el(
      "li",
      {
        class: `card${isPercentile(field) ? " percentile" : ""}`,
        "data-field": field,
        "data-value": value ?? "",
        "data-null": value === null,
      },
      el("span", { class: "card-label" }, label),
      el(
        "span",
        { class: "card-value" },
        value === null ? "—" : format(value),
        unit && value !== null ? el("span", { class: "unit" }, ` ${unit}`) : null,
      ),
      // Percentiles are not compared (docs/contract.md §9): no change line.
      isPercentile(field) ? null : changeLine(summary, field, format, compare),
    );
  });
  return el("ul", { class: "cards" }, ...cards);
}
