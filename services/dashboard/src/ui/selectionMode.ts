import type { SelectionMode } from "../state/selection";
import { el, uniqueId } from "./dom";

export interface ModeToggle {
  element: HTMLElement;
  mode(): SelectionMode;
  setMode(mode: SelectionMode): void;
}

/**
 * The checkbox that turns a filter's selection from "only these" (`filter[...]`) into "all but
 * these" (`exclude[...]`): a native checkbox, labelled with the dimension it belongs to.
 */
export function createModeToggle(
  dimensionLabel: string,
  onToggle: (mode: SelectionMode) => void,
): ModeToggle {
  const id = uniqueId("leave-out");
  const box = el("input", { id, type: "checkbox", class: "leave-out" });
  const element = el(
    "div",
    { class: "mode-toggle" },
    box,
    el(
      "label",
      { for: id },
      "Leave these out",
      el("span", { class: "visually-hidden" }, ` (${dimensionLabel})`),
    ),
  );
  const mode = (): SelectionMode => (box.checked ? "leave_out" : "keep");
  box.addEventListener("change", () => onToggle(mode()));
  return {
    element,
    mode,
    setMode: (next) => {
      box.checked = next === "leave_out";
    },
  };
}
