import { DIMENSION_INDEX, type DimensionValues } from "@vu/events";
import type { Projection } from "../format/projections";
import { comboIdOf, projectionKeyOf, projectionValueOf } from "./containerCells";
import type { MemberPairs } from "./memberPairs";
import type { SumsQuestion } from "./sumsQuestion";

/** The class of a stored field whose field proper starts at `from` (see createClassifier). */
export type Classifier = (field: Buffer, from: number) => number;

/**
 * A field's class: the index of the slot it adds to (its group, or counting members its (group,
 * member) pair), or EXCLUDED by a filter.
 */
export const EXCLUDED = -1;
const UNKNOWN = -2;

/**
 * How each stored field of `projection` counts for a question: excluded by a filter, or the slot
 * it adds to (its group, or with `pairs` its (group, member) pair). Decided once per distinct
 * field, so the per-cell work is an array or map lookup and seven adds: combination ids index an
 * array, projection fields a map by a key that needs no decoding, decoded only the first time
 * they are seen.
 */
export function createClassifier(
  projection: Projection,
  combos: ReadonlyMap<string, DimensionValues>,
  question: Pick<SumsQuestion, "filters" | "groupBy" | "groupOf">,
  pairs: MemberPairs | undefined,
): Classifier {
  const { filters, groupBy, groupOf } = question;
  if (projection !== "combos" && projection !== "total") {
    // A projection answers only queries that filter and group on its own dimension.
    const foreign = filters.find((f) => f.dimension !== projection);
    if (foreign || groupBy.some((d) => d !== projection))
      throw new Error(`the ${projection} projection cannot answer this query`);
  }
  // Only cells that name their member can be counted by member.
  if (pairs && projection !== "combos" && projection !== "member_email")
    throw new Error(`the ${projection} projection cannot count members`);
  const ungrouped = groupOf([]);
  const slotOf = (group: number, member: string) => (pairs ? pairs.indexOf(group, member) : group);
  const byName = new Map<string, number>();
  const classifyValue = (projected: string | null): number => {
    if (projection === "total") return ungrouped;
    if (!filters.every((filter) => filter.passes(projected))) return EXCLUDED;
    const group = groupBy.length > 0 ? groupOf([projected]) : ungrouped;
    // The members' projection: the value is the member.
    return slotOf(group, projected ?? "");
  };
  const groupIndexes = groupBy.map((d) => DIMENSION_INDEX[d]);
  const filterIndexes = filters.map((f) => DIMENSION_INDEX[f.dimension]);
  const memberIndex = DIMENSION_INDEX.member_email;
  let byCombo = new Int32Array(256).fill(UNKNOWN);
  const classifyCombo = (id: number): number => {
    const values = combos.get(String(id));
    if (values === undefined) throw new Error(`rollup cell refers to unknown combination ${id}`);
    if (!filters.every((filter, i) => filter.passes(values[filterIndexes[i] as number] ?? null)))
      return EXCLUDED;
    const group = groupBy.length > 0 ? groupOf(groupIndexes.map((i) => values[i] ?? null)) : ungrouped;
    return slotOf(group, values[memberIndex] as string);
  };

  return (field: Buffer, from: number): number => {
    if (projection !== "combos") {
      const name = projectionKeyOf(field, from);
      let cls = byName.get(name);
      if (cls === undefined) {
        cls = classifyValue(projectionValueOf(field, from));
        byName.set(name, cls);
      }
      return cls;
    }
    const id = comboIdOf(field, from);
    if (id >= byCombo.length) {
      const grown = new Int32Array(Math.max(id + 1, 2 * byCombo.length)).fill(UNKNOWN);
      grown.set(byCombo);
      byCombo = grown;
    }
    let cls = byCombo[id] as number;
    if (cls === UNKNOWN) {
      cls = classifyCombo(id);
      byCombo[id] = cls;
    }
    return cls;
  };
}
