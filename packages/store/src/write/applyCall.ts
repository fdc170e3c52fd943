import { DIMENSIONS, type Dimension } from "@vu/events";
import type { Keyspace } from "../format/keyspace";

// How a call of the apply script (lua/applyBatches.lua) is laid out, declared once: the writer
// builds its KEYS and ARGV from these lists, and the script finds each by the index luaConstants.ts
// derives from the same list. The script's header says what each one holds.

/** The call's own keys, before the organizations'. */
export const CALL_KEYS = ["guard"] as const;
/** The call's own arguments, before the organizations'. */
export const CALL_ARGS = ["dedupeWindowMs", "layoutRule", "guard", "expected", "sketches"] as const;
export type CallArgs = Record<(typeof CALL_ARGS)[number], string>;

/** One organization's keys: its base, its combinations, a set per dimension (in DIMENSIONS order), its extent. */
export const ORGANIZATION_KEYS = ["base", "combos", ...DIMENSIONS, "extent"] as const;
type OrganizationKey = (typeof ORGANIZATION_KEYS)[number];

/** One organization's arguments. */
export const ORGANIZATION_ARGS = [
  "batch",
  "firstRecordedAt",
  "lastRecordedAt",
  "offsetField",
  "firstOffset",
  "throughOffset",
  "layout",
] as const;
export type OrganizationArgs = Record<(typeof ORGANIZATION_ARGS)[number], string | Buffer>;

/**
 * The codes the script answers with: `ok` for the call and for an organization counted; the
 * call's refusals (`checkpointMoved`, `shardBehind`, `fenced`) and an organization's
 * (`duplicates`, `replayed`, `layoutMoved`) are negative (see the script header).
 */
export const APPLY_REPLY = {
  ok: 1,
  duplicates: -1,
  replayed: -2,
  checkpointMoved: -3,
  layoutMoved: -4,
  shardBehind: -5,
  fenced: -6,
} as const;

const isDimension = (key: OrganizationKey): key is Dimension =>
  (DIMENSIONS as readonly string[]).includes(key);

/** One organization's KEYS, in ORGANIZATION_KEYS order. */
export function organizationKeys(keyspace: Keyspace, generation: number, org: string): string[] {
  return ORGANIZATION_KEYS.map((key) => {
    if (isDimension(key)) return keyspace.dimension(generation, org, key);
    if (key === "base") return keyspace.orgBase(generation, org);
    return key === "combos" ? keyspace.combos(generation, org) : keyspace.extent(generation, org);
  });
}

/** One organization's ARGV, in ORGANIZATION_ARGS order. */
export const organizationArgs = (args: OrganizationArgs): Array<string | Buffer> =>
  ORGANIZATION_ARGS.map((name) => args[name]);

/** The call's own ARGV, in CALL_ARGS order. */
export const callArgs = (args: CallArgs): string[] => CALL_ARGS.map((name) => args[name]);
