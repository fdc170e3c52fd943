import type { Summary } from "../api/types";
import { el } from "./dom";
import { formatDecimal, formatInteger, formatPrecise } from "./format";

/** The summary's fields, in its own units (minutes and seconds; seed: "the units differ"). */
const CARDS: readonly { field: keyof Summary; label: string; unit: string; format: (n: number) => string }[] =
  [
    { field: "total_recordings", label: "Recordings", unit: "", format: formatInteger },
    { field: "total_duration_minutes", label: "Minutes recorded", unit: "min", format: formatDecimal },
    { field: "total_words", label: "Words transcribed", unit: "", format: formatInteger },
    {
      field: "avg_voice_processing_seconds",
      label: "Avg voice processing",
      unit: "s",
      format: formatPrecise,
    },
    {
      field: "avg_llm_processing_seconds",
      label: "Avg language-model processing",
      unit: "s",
      format: formatPrecise,
    },
  ];

/** The summary cards; each carries the API's exact number in `data-value` beside the rounded text. */
export function renderCards(summary: Summary): HTMLElement {
  return el(
    "ul",
    { class: "cards" },
    ...CARDS.map(({ field, label, unit, format }) =>
      el(
        "li",
        { class: "card", "data-field": field, "data-value": summary[field] },
        el("span", { class: "card-label" }, label),
        el(
          "span",
          { class: "card-value" },
          format(summary[field]),
          unit ? el("span", { class: "unit" }, ` ${unit}`) : null,
        ),
      ),
    ),
  );
}
