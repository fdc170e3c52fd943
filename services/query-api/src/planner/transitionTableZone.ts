import { type IANAZone, Zone, type ZoneOffsetFormat, type ZoneOffsetOptions } from "luxon";
import { OffsetTransitions } from "./offsetTransitions";

/**
 * An IANA zone whose offsets come from a table of its transitions (offsetTransitions.ts), found
 * once per UTC day, instead of from `Intl.DateTimeFormat#formatToParts` for every bucket edge and
 * label (luxon's way, the planner's largest cost per bucket). Everything else is the IANA zone's own.
 */
export class TransitionTableZone extends Zone {
  private readonly transitions: OffsetTransitions;

  constructor(private readonly inner: IANAZone) {
    super();
    this.transitions = new OffsetTransitions((atMs) => inner.offset(atMs));
  }

  override get type(): string {
    // luxon formats and guesses offsets by zone name for IANA zones: keep it on that path.
    return "iana";
  }

  override get name(): string {
    return this.inner.name;
  }

  get ianaName(): string {
    return this.inner.name;
  }

  override get isUniversal(): boolean {
    return false;
  }

  override get isValid(): true {
    return true;
  }

  override offsetName(ts: number, options: ZoneOffsetOptions): string | null {
    return this.inner.offsetName(ts, options);
  }

  override formatOffset(ts: number, format: ZoneOffsetFormat): string {
    return this.inner.formatOffset(ts, format);
  }

  override offset(ts: number): number {
    return this.transitions.offset(ts);
  }

  override equals(other: Zone): boolean {
    return other.type === "iana" && other.name === this.name;
  }
}
