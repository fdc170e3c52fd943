type AttributeValue = string | number | boolean | null | undefined;
type Child = Node | string | null | undefined | false;

/**
 * Creates an element with attributes and children. Text is always a text node (never parsed as
 * HTML), and no `style` attribute is ever needed: the page's CSP refuses inline styles.
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, AttributeValue> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/** A page-unique id for label/description links. */
let counter = 0;
export const uniqueId = (prefix: string): string => `${prefix}-${++counter}`;

/**
 * A wide table's horizontal scroller: focusable and named, so keyboard users can scroll it too
 * (axe: scrollable-region-focusable).
 */
export const scrollRegion = (label: string, content: Node): HTMLDivElement =>
  el("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": label }, content);
