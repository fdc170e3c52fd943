import { type IANAZone, Zone, type ZoneOffsetFormat, type ZoneOffsetOptions } from "luxon";

/** Offsets remembered per zone before the memory starts over (about 1 MB). */
const MAX_REMEMBERED_OFFSETS = 20_000;

/**
 * An IANA zone that remembers the offset of every instant it was asked about. luxon computes an
 * IANA offset through `Intl.DateTimeFormat#formatToParts` each time, the planner's largest cost
 * per bucket (cutting, labelling); dashboards ask about the same bucket edges over and over. The
 * offset is a pure function of the instant, so remembering it is exact: no assumption about where
 * the zone's transitions lie. Everything else is the IANA zone's own.
 */
export class RememberingZone extends Zone {
  private readonly offsets = new Map<number, number>();

  constructor(private readonly inner: IANAZone) {
    super();
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
    let offset = this.offsets.get(ts);
    if (offset === undefined) {
      offset = this.inner.offset(ts);
      if (this.offsets.size >= MAX_REMEMBERED_OFFSETS) this.offsets.clear();
      this.offsets.set(ts, offset);
    }
    return offset;
  }

  override equals(other: Zone): boolean {
    return other.type === "iana" && other.name === this.name;
  }
}
