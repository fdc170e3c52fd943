import { el, uniqueId } from "./dom";

export interface MultiSelectOption {
  value: string;
  label: string;
}

export interface MultiSelect {
  element: HTMLElement;
  select: HTMLSelectElement;
  setSelected(values: readonly string[]): void;
}

/**
 * A labelled native `<select multiple>`: the browser gives it keyboard use (arrows, Shift/Ctrl +
 * arrows, Space) and screen-reader semantics for free. Selected values missing from the options
 * (a shared link from someone who sees other data) are kept as options, so nothing is silently lost.
 */
export function createMultiSelect(options: {
  label: string;
  name: string;
  choices: readonly MultiSelectOption[];
  onChange: (values: string[]) => void;
}): MultiSelect {
  const id = uniqueId(options.name);
  const hintId = `${id}-hint`;
  const select = el("select", {
    id,
    name: options.name,
    multiple: true,
    size: Math.min(6, Math.max(3, options.choices.length)),
    "aria-describedby": hintId,
  });
  const clear = el("button", { type: "button", class: "link-button" }, "Clear");
  clear.setAttribute("aria-label", `Clear ${options.label} filter`);
  const element = el(
    "div",
    { class: "field multi" },
    el("label", { for: id }, options.label),
    select,
    el(
      "div",
      { class: "field-foot" },
      el("span", { id: hintId, class: "hint" }, "None selected: all"),
      clear,
    ),
  );
  const selectedValues = () => [...select.selectedOptions].map((o) => o.value);
  const showHint = () => {
    const n = select.selectedOptions.length;
    const hint = element.querySelector(`#${CSS.escape(hintId)}`);
    if (hint) hint.textContent = n === 0 ? "None selected: all" : `${n} selected`;
  };

  const setSelected = (values: readonly string[]) => {
    const known = new Set(options.choices.map((c) => c.value));
    const extra = values.filter((v) => !known.has(v)).map((value) => ({ value, label: value }));
    select.replaceChildren(
      ...[...options.choices, ...extra].map((choice) =>
        el("option", { value: choice.value, selected: values.includes(choice.value) }, choice.label),
      ),
    );
    showHint();
  };
  select.addEventListener("change", () => {
    showHint();
    options.onChange(selectedValues());
  });
  clear.addEventListener("click", () => {
    for (const option of select.options) option.selected = false;
    showHint();
    options.onChange([]);
  });
  return { element, select, setSelected };
}
