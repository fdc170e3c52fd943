/**
 * How busy a local hour is, relative to a weekday late morning (1.0). People dictate during office
 * hours, less at lunch and in the evening, hardly at night, at weekends or between Christmas and
 * New Year.
 */
// biome-ignore format: one row of 24 hours
const WEEKDAY_HOURS = [
  0.01, 0.01, 0.01, 0.01, 0.01, 0.02, 0.05, 0.15, 0.55, 0.95, 1.0, 1.0,
  0.6, 0.85, 0.95, 0.9, 0.8, 0.55, 0.3, 0.15, 0.1, 0.08, 0.04, 0.02,
];
const WEEKEND_FACTOR = 0.08;
const HOLIDAY_FACTOR = 0.25;

/**
 * The activity at a local wall-clock time, given as Unix time in milliseconds as if the zone
 * were UTC (so the UTC getters read local fields).
 */
export function activityAt(localMs: number): number {
  const date = new Date(localMs);
  const weekday = date.getUTCDay();
  const base = WEEKDAY_HOURS[date.getUTCHours()] ?? 0;
  const weekend = weekday === 0 || weekday === 6 ? WEEKEND_FACTOR : 1;
  return base * weekend * (isYearEndBreak(date) ? HOLIDAY_FACTOR : 1);
}

/** 24 December to 1 January. */
function isYearEndBreak(date: Date): boolean {
  const month = date.getUTCMonth();
  const day = date.getUTCDate();
  return (month === 11 && day >= 24) || (month === 0 && day === 1);
}

/** Adoption grows: the end of the range sees half again as many recordings as its start. */
export function growthAt(fraction: number): number {
  return 0.8 + 0.4 * fraction;
}
