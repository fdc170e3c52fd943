import { INITIAL_LAYOUT_CODE, type OrgLayout, parseLayout } from "./blockPlacement";

/** Organizations whose layout a writer remembers; past it, the longest unused is forgotten. */
const MAX_ORGS = 100_000;

/**
 * What a writer last heard of each organization's layout (every apply reply says), so a batch is
 * laid out right the first time. A wrong guess costs one refused call (`-4`), never a wrong count:
 * the apply script checks the layout before writing. A new organization has containers only.
 * Marks do not matter to a writer: only where each tier's blocks go.
 */
export function createLayoutCache() {
  const known = new Map<string, OrgLayout>();
  const initial = parseLayout([]);
  return {
    of(org: string): OrgLayout {
      return known.get(org) ?? initial;
    },
    learn(org: string, code: string): void {
      const normalized = code === "" ? INITIAL_LAYOUT_CODE : code;
      if (known.get(org)?.code === normalized) return;
      known.delete(org);
      known.set(org, parseLayout([normalized]));
      if (known.size > MAX_ORGS) {
        const oldest = known.keys().next().value;
        if (oldest !== undefined) known.delete(oldest);
      }
    },
  };
}
