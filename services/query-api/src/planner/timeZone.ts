import { FixedOffsetZone, IANAZone, type Zone } from "luxon";
import { InvalidParameterError } from "./invalidParameterError";
import { TransitionTableZone } from "./transitionTableZone";
import { formatUtcOffset, matchUtcOffset } from "./utcOffset";

/** The zone a query is answered in, and its name as reported in `meta.timezone`. */
export interface QueryZone {
  zone: Zone;
  name: string;
}

export const UTC_QUERY_ZONE: QueryZone = { zone: FixedOffsetZone.utcInstance, name: "UTC" };

const UNKNOWN_ZONE_MESSAGE =
  "must be an IANA time zone name such as Europe/Berlin or UTC, or an offset such as +05:30, -0800 or Z";

/** A fixed offset as a query zone: offset 0 is UTC (labels end in `Z`), others show as `+05:30`. */
export function offsetQueryZone(minutes: number): QueryZone {
  if (minutes === 0) return UTC_QUERY_ZONE;
  return { zone: FixedOffsetZone.instance(minutes), name: formatUtcOffset(minutes) };
}

let canonicalNames: ReadonlyMap<string, string> | undefined;

/** IANA spelling of a zone name given in any case (`europe/berlin` → `Europe/Berlin`). */
function ianaSpelling(name: string): string {
  canonicalNames ??= new Map(Intl.supportedValuesOf("timeZone").map((z) => [z.toLowerCase(), z]));
  // Links such as Asia/Kolkata (ICU lists Asia/Calcutta) are not in the list: keep them as given.
  return canonicalNames.get(name.toLowerCase()) ?? name;
}

/** True for names that mean UTC itself (UTC, Etc/UTC, GMT, ...), whatever their spelling. */
function isUtcName(name: string): boolean {
  return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone === "UTC";
}

/** Zones already resolved, by the name as given: resolving asks Intl twice, and zones remember their transitions. */
const namedZones = new Map<string, QueryZone | null>();
/** With each zone's own bound on the days it remembers, the zones' memory is bounded whatever is asked. */
const MAX_NAMED_ZONES = 64;

function namedQueryZone(name: string): QueryZone | null {
  let zone = namedZones.get(name);
  if (zone === undefined) {
    zone = resolveNamedZone(name);
    // A flood of names (made up, or every zone in turn) starts the memory over rather than growing it.
    if (namedZones.size >= MAX_NAMED_ZONES) namedZones.clear();
    namedZones.set(name, zone);
  }
  return zone;
}

function resolveNamedZone(name: string): QueryZone | null {
  if (!IANAZone.isValidZone(name)) return null;
  // UTC under any name computes as the fixed zero offset, so its labels end in `Z` (docs/contract.md §2).
  if (name.toLowerCase() === "utc") return UTC_QUERY_ZONE;
  const spelled = ianaSpelling(name);
  if (isUtcName(name)) return { zone: FixedOffsetZone.utcInstance, name: spelled };
  return { zone: new TransitionTableZone(IANAZone.create(spelled)), name: spelled };
}

/**
 * Resolves the query zone (docs/contract.md §2): the `timezone` parameter when given (an IANA name, matched
 * case-insensitively and reported in IANA's spelling, or an offset), else the offset written in
 * `start_date`, else UTC. An unknown zone is a 400 naming `timezone`.
 */
export function resolveQueryZone(timezone: string | undefined, startOffsetMinutes: number | null): QueryZone {
  if (timezone === undefined) {
    return startOffsetMinutes === null ? UTC_QUERY_ZONE : offsetQueryZone(startOffsetMinutes);
  }
  const offset = matchUtcOffset(timezone);
  if (offset !== null) {
    if (!offset.ok) throw new InvalidParameterError("timezone", offset.message);
    return offsetQueryZone(offset.minutes);
  }
  const named = namedQueryZone(timezone);
  if (named === null) throw new InvalidParameterError("timezone", UNKNOWN_ZONE_MESSAGE);
  return named;
}
