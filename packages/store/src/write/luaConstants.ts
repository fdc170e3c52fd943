import { DIMENSIONS } from "@vu/events";
import { DERIVED_DIGIT, PLACEMENTS, RULE_THRESHOLD_WORDS, RULE_TIER_WORDS } from "../format/blockPlacement";
import { SEEN_IDS_SUFFIX } from "../format/keyspace";
import {
  DIMENSION_SETS_FROM,
  DIMENSIONS_FIELD,
  DIMENSIONS_FROM_COMBOS,
  SKETCHED_FIELD,
  SKETCHED_MARK,
} from "../format/organizationExtent";
import { QUARTERS_PER_HOUR } from "../format/quarterCells";
import {
  SKETCH_COUNT_MAX,
  SKETCH_KEY_FORMAT,
  SKETCH_PAIR_BYTES,
  SKETCH_PAIR_FORMAT,
} from "../format/sketches";
import { SMALL_CELL_BYTES, SMALL_CELL_MAX, SUM_FIELDS } from "../format/sums";
import { APPLY_REPLY, CALL_ARGS, CALL_KEYS, ORGANIZATION_ARGS, ORGANIZATION_KEYS } from "./applyCall";
import { FIELD_FORMS } from "./batchAggregate";
import { SKETCH_CELLS } from "./batchEncoding";
import { RECORDING_DIGEST_BYTES } from "./recordingDigest";

/** The 1-based position of `item` in `list`, as Lua counts. */
function position<T>(list: readonly T[], item: T): number {
  const index = list.indexOf(item);
  if (index < 0) throw new Error(`${String(item)} is not in ${list.join(", ")}`);
  return index + 1;
}

/**
 * Every constant a Lua script shares with TypeScript, derived here from its TypeScript
 * declaration; `loadScript` writes them as `local` declarations where a script says
 * `--- @constants`. Lua cannot import the declarations, so this is how a count, an index or a code
 * reaches it; luaScripts.test.ts checks that the scripts write none of them out themselves and
 * use no name this lacks.
 */
export const LUA_CONSTANTS = {
  // The apply call's layout (applyCall.ts): KEYS and ARGV by name.
  CALL_KEYS: CALL_KEYS.length,
  CALL_KEY_GUARD: position(CALL_KEYS, "guard"),
  CALL_ARGS: CALL_ARGS.length,
  CALL_ARG_DEDUPE_WINDOW_MS: position(CALL_ARGS, "dedupeWindowMs"),
  CALL_ARG_LAYOUT_RULE: position(CALL_ARGS, "layoutRule"),
  CALL_ARG_GUARD: position(CALL_ARGS, "guard"),
  CALL_ARG_EXPECTED: position(CALL_ARGS, "expected"),
  CALL_ARG_SKETCHES: position(CALL_ARGS, "sketches"),
  ORG_KEYS: ORGANIZATION_KEYS.length,
  ORG_KEY_BASE: position(ORGANIZATION_KEYS, "base"),
  ORG_KEY_COMBOS: position(ORGANIZATION_KEYS, "combos"),
  /** The dimension sets follow it, one per dimension in DIMENSIONS order. */
  ORG_KEY_FIRST_DIMENSION: position(ORGANIZATION_KEYS, DIMENSIONS[0]),
  ORG_KEY_EXTENT: position(ORGANIZATION_KEYS, "extent"),
  ORG_ARGS: ORGANIZATION_ARGS.length,
  ORG_ARG_BATCH: position(ORGANIZATION_ARGS, "batch"),
  ORG_ARG_FIRST_RECORDED_AT: position(ORGANIZATION_ARGS, "firstRecordedAt"),
  ORG_ARG_LAST_RECORDED_AT: position(ORGANIZATION_ARGS, "lastRecordedAt"),
  ORG_ARG_OFFSET_FIELD: position(ORGANIZATION_ARGS, "offsetField"),
  ORG_ARG_FIRST_OFFSET: position(ORGANIZATION_ARGS, "firstOffset"),
  ORG_ARG_THROUGH_OFFSET: position(ORGANIZATION_ARGS, "throughOffset"),
  ORG_ARG_LAYOUT: position(ORGANIZATION_ARGS, "layout"),
  REPLY_OK: APPLY_REPLY.ok,
  REPLY_DUPLICATES: APPLY_REPLY.duplicates,
  REPLY_REPLAYED: APPLY_REPLY.replayed,
  REPLY_CHECKPOINT_MOVED: APPLY_REPLY.checkpointMoved,
  REPLY_LAYOUT_MOVED: APPLY_REPLY.layoutMoved,
  REPLY_SHARD_BEHIND: APPLY_REPLY.shardBehind,
  REPLY_FENCED: APPLY_REPLY.fenced,

  // A recording's vocabulary: its dimensions (@vu/events), its digest, its sums (sums.ts).
  DIMENSION_COUNT: DIMENSIONS.length,
  DIGEST_BYTES: RECORDING_DIGEST_BYTES,
  /** A large dedupe table's state, and the suffix of its set of ids (keyspace.ts). */
  SEEN_LARGE: SEEN_IDS_SUFFIX,
  SUM_COUNT: SUM_FIELDS.length,
  /** `struct` formats of a stored cell: a little-endian u32 per sum, or a double per sum. */
  SMALL_CELL: `<${"I4".repeat(SUM_FIELDS.length)}`,
  SMALL_CELL_BYTES,
  SMALL_CELL_MAX,
  LARGE_CELL: `<${"d".repeat(SUM_FIELDS.length)}`,
  /** Percentile sketch cells (sketches.ts): the width that marks a batch's block of them, a pair's format. */
  SKETCH_CELLS,
  SKETCH_PAIR: SKETCH_PAIR_FORMAT,
  SKETCH_KEY: SKETCH_KEY_FORMAT,
  SKETCH_PAIR_BYTES,
  SKETCH_COUNT_MAX,
  /** The extent's field that says the organization was always counted with sketches, and its value. */
  EXTENT_SKETCHED: SKETCHED_FIELD,
  EXTENT_SKETCHED_MARK: SKETCHED_MARK,
  /** Whether the dimension values are read from the combination table (organizationExtent.ts). */
  EXTENT_DIMENSIONS: DIMENSIONS_FIELD,
  EXTENT_DIMENSIONS_FROM_COMBOS: DIMENSIONS_FROM_COMBOS,
  DIMENSION_SETS_FROM,

  // The batch's blocks (batchAggregate.ts, quarterCells.ts).
  FIELD_FORM_LITERAL: FIELD_FORMS.literal,
  FIELD_FORM_COMBO: FIELD_FORMS.combo,
  FIELD_FORM_QUARTER_COMBO: FIELD_FORMS.quarterCombo,
  QUARTERS_PER_HOUR,

  // Tiers' placements and the layout rule's argument (blockPlacement.ts).
  PLACEMENT_CONTAINER: PLACEMENTS.indexOf("container"),
  PLACEMENT_KEYED: PLACEMENTS.indexOf("keyed"),
  PLACEMENT_PROJECTED: PLACEMENTS.indexOf("projected"),
  DERIVED: DERIVED_DIGIT,
  RULE_MIN_RECORDINGS: position(RULE_THRESHOLD_WORDS, "minRecordings"),
  RULE_PER_PERIOD: position(RULE_THRESHOLD_WORDS, "perPeriod"),
  RULE_PER_BLOCK: position(RULE_THRESHOLD_WORDS, "perBlock"),
  RULE_LEAST_SPAN_MS: position(RULE_THRESHOLD_WORDS, "leastSpanMs"),
  RULE_FIRST_TIER: RULE_THRESHOLD_WORDS.length + 1,
  RULE_TIER_WORDS: RULE_TIER_WORDS.length,
  /** A tier's words from its first (RULE_FIRST_TIER + k × RULE_TIER_WORDS) on. */
  RULE_TIER_CODE: position(RULE_TIER_WORDS, "code") - 1,
  RULE_TIER_BLOCK_MS: position(RULE_TIER_WORDS, "blockMs") - 1,
  RULE_TIER_PERIOD_MS: position(RULE_TIER_WORDS, "periodMs") - 1,
  RULE_TIER_FROM: position(RULE_TIER_WORDS, "from") - 1,
} as const satisfies Record<string, number | string>;

/** A Lua literal for `value`: an exact integer, or a string of printable ASCII. */
export function luaLiteral(value: number | string): string {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new RangeError(`${value} is not an exact integer`);
    return String(value);
  }
  if (!/^[\x20-\x7e]*$/.test(value)) throw new RangeError(`${JSON.stringify(value)} is not printable ASCII`);
  return `"${value.replace(/[\\"]/g, "\\$&")}"`;
}

/** The constants as Lua `local` declarations, one a line (generated from TypeScript: see LUA_CONSTANTS). */
export function luaConstants(): string {
  return Object.entries(LUA_CONSTANTS)
    .map(([name, value]) => `local ${name} = ${luaLiteral(value)}`)
    .join("\n");
}
