export const HOUR_MS = 3_600_000;

/**
 * The UTC offset (minutes east) of `timeZone` at the start of each of `hourCount` UTC hours, the
 * first starting at `firstHour` hours of Unix time.
 *
 * Intl is the only zone database at hand, and one lookup costs microseconds: asking once per hour
 * of a multi-year range in several zones would take a noticeable part of a second. Offsets change at
 * most once a day, so this asks once per day and searches the hour only on days that changed.
 */
export function hourlyOffsets(timeZone: string, firstHour: number, hourCount: number): Int16Array {
  const offsetAt = createOffsetReader(timeZone);
  const offsetAtHour = (hour: number) => offsetAt((firstHour + hour) * HOUR_MS);
  const offsets = new Int16Array(hourCount);
  let start = 0;
  let current = offsetAtHour(0);
  while (start < hourCount) {
    const end = Math.min(start + 24, hourCount);
    const next = offsetAtHour(end - 1);
    const change = next === current ? end : firstHourDiffering(offsetAtHour, current, start, end - 1);
    offsets.fill(current, start, change);
    offsets.fill(next, change, end);
    current = next;
    start = end;
  }
  return offsets;
}

/** The first hour in (low, high] whose offset is not `current`; `high`'s offset is known to differ. */
function firstHourDiffering(
  offsetAtHour: (hour: number) => number,
  current: number,
  low: number,
  high: number,
): number {
  let from = low + 1;
  let to = high;
  while (from < to) {
    const middle = (from + to) >>> 1;
    if (offsetAtHour(middle) === current) from = middle + 1;
    else to = middle;
  }
  return from;
}

/** Builds the formatter once; each call then reads the zone's wall clock at an instant. */
export function createOffsetReader(timeZone: string): (ms: number) => number {
  const formatter = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
  });
  return (ms) => {
    const parts: Record<string, number> = {};
    for (const part of formatter.formatToParts(ms)) parts[part.type] = Number(part.value);
    const wallClock = Date.UTC(
      parts.year ?? 1970,
      (parts.month ?? 1) - 1,
      parts.day ?? 1,
      parts.hour ?? 0,
      parts.minute ?? 0,
    );
    // Whole minutes: the formatter does not show seconds, so compare with the instant's minute.
    return Math.round((wallClock - Math.floor(ms / 60_000) * 60_000) / 60_000);
  };
}
