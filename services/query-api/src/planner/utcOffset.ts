/**
 * UTC offsets as written in `start_date`/`end_date` and in the `timezone` parameter: `Z`, or a sign
 * and `hh:mm` with the colon optional (`+05:30`, `-0800`).
 *
 * A space is accepted where the `+` belongs: an unencoded `+` in a query string arrives as a space
 * (`?timezone=+05:30` → ` 05:30`), and reading it as `+` is the only meaning it can have.
 */
const OFFSET_PATTERN = /^(?:Z|([+\- ])(\d{2}):?(\d{2}))$/;

export type OffsetMatch = { ok: true; minutes: number } | { ok: false; message: string };

/**
 * Reads an offset; `null` when the text does not have an offset's shape at all (so the caller can
 * try another reading, e.g. an IANA zone name), a failed match when it has the shape but is out of
 * range. Hours 00–23 and minutes 00–59, as in RFC 3339.
 */
export function matchUtcOffset(text: string): OffsetMatch | null {
  const m = OFFSET_PATTERN.exec(text);
  if (!m) return null;
  const [, sign, hh, mm] = m;
  if (sign === undefined || hh === undefined || mm === undefined) return { ok: true, minutes: 0 };
  const hours = Number(hh);
  const minutes = Number(mm);
  if (hours > 23 || minutes > 59) {
    return { ok: false, message: `the offset ${text.trim()} is out of range (at most ±23:59)` };
  }
  const total = hours * 60 + minutes;
  return { ok: true, minutes: sign === "-" ? -total : total };
}

/** `+05:30`, `-08:00`, `+00:00`: the display form of an offset. */
export function formatUtcOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${sign}${hh}:${mm}`;
}
