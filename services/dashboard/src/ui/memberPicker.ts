import { splitList } from "../state/screenState";
import { el } from "./dom";

export interface MemberPicker {
  element: HTMLElement;
  /** The members chosen, as the view holds them. */
  setSelected(values: readonly string[]): void;
}

/** How long typing pauses before the picker asks for suggestions. */
const SUGGEST_AFTER_MS = 200;

/**
 * Members are picked, not typed blind: what is typed is looked up with `/stats/dimensions?q=…`
 * (`suggest`), and the members found are offered in the input's list. Enter or "Add" adds what is
 * typed (several, comma-separated, are allowed: a member may not be in the suggestions yet); each
 * chosen member has its own "Remove" button.
 */
export function createMemberPicker(options: {
  suggest: (typed: string) => Promise<string[]>;
  onChange: (values: string[]) => void;
}): MemberPicker {
  const input = el("input", {
    id: "filter-member_email",
    name: "filter-member_email",
    type: "search",
    list: "member-suggestions",
    inputmode: "email",
    autocomplete: "off",
    spellcheck: "false",
    placeholder: "Type a name or address",
    "aria-describedby": "members-hint",
  });
  const suggestions = el("datalist", { id: "member-suggestions" });
  const add = el("button", { type: "button", class: "secondary" }, "Add");
  add.setAttribute("aria-label", "Add member");
  const chosen = el("ul", { class: "chosen", "aria-label": "Chosen members" });
  const hint = el("span", { id: "members-hint", class: "hint" }, "None chosen: all");
  const element = el(
    "div",
    { class: "field multi member-picker" },
    el("label", { for: "filter-member_email" }, "Members"),
    el("div", { class: "picker-row" }, input, add),
    suggestions,
    chosen,
    hint,
  );

  let selected: readonly string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  const commit = () => {
    clearTimeout(timer);
    const typed = splitList(input.value).filter((value) => !selected.includes(value));
    input.value = "";
    if (typed.length > 0) options.onChange([...selected, ...typed]);
  };
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const ask = ++asked;
      const found = await options.suggest(input.value.trim()).catch(() => []);
      // An older answer arriving late must not replace a newer one.
      if (ask !== asked) return;
      suggestions.replaceChildren(...found.map((value) => el("option", { value })));
      suggestions.dataset.for = input.value.trim();
    }, SUGGEST_AFTER_MS);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    // Enter would submit the settings form (the custom range's submit).
    event.preventDefault();
    commit();
  });
  add.addEventListener("click", commit);

  const setSelected = (values: readonly string[]) => {
    selected = values;
    chosen.replaceChildren(
      ...values.map((value) => {
        const remove = el("button", { type: "button", class: "link-button" }, "Remove");
        remove.setAttribute("aria-label", `Remove ${value}`);
        remove.addEventListener("click", () => options.onChange(selected.filter((v) => v !== value)));
        return el("li", { "data-value": value }, el("span", {}, value), remove);
      }),
    );
    hint.textContent = values.length === 0 ? "None chosen: all" : `${values.length} chosen`;
  };
  return { element, setSelected };
}
