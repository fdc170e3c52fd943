export { CALENDAR_UNITS, type CalendarUnit, floorCalendar, nextCalendar } from "./calendarUnits";
export {
  blockExpiresAt,
  DEFAULT_RETENTION,
  EXPIRY_GRACE_MS,
  isBlockKept,
  type Retention,
  retentionProblems,
  withQuarters,
} from "./retention";
export {
  DAY_MS,
  HOUR_MS,
  isTier,
  MINUTE_MS,
  QUARTER_MS,
  TIER_CODE,
  TIERS,
  type Tier,
  WEEK_MS,
} from "./tiers";
export { bucketsOf, ceilUtc, floorUtc, isAlignedUtc, nextUtc } from "./utcBuckets";
