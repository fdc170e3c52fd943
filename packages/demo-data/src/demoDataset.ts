import type { RecordingCompletedInput } from "@vu/events";
import type { HomeTimeZone } from "./catalog";
import { generateEvents } from "./eventGenerator";
import { type OrganizationProfile, smallOrganization } from "./organizationProfile";

export interface DemoOrganization {
  profile: OrganizationProfile;
  /** Lazy and re-iterable; `count` events in order of `recorded_at`. */
  events: Iterable<RecordingCompletedInput>;
  count: number;
}

/** Fixed, so every `npm start` shows the same organizations, members and curves. */
const DEMO_SEED = 20_260_101;
const HISTORY_MONTHS = 14;

const ORGANIZATIONS: readonly { id: string; homeTimeZone: HomeTimeZone; count: number }[] = [
  { id: "acme", homeTimeZone: "Europe/Berlin", count: 1_800 },
  { id: "globex", homeTimeZone: "America/New_York", count: 1_200 },
  { id: "initech", homeTimeZone: "Asia/Kolkata", count: 900 },
];

/**
 * The data set `npm start` loads: three small organizations with 14 months of history up to
 * `nowMs`, long enough to cross both European and both US DST changes, month ends and a year end,
 * yet only a few thousand events so it loads in seconds.
 *
 * Recording ids depend only on the organization and position, so loading the set twice (within the
 * dedupe window) counts it once.
 */
export function demoDataset(nowMs: number): DemoOrganization[] {
  const fromMs = monthsBefore(nowMs, HISTORY_MONTHS);
  return ORGANIZATIONS.map(({ id, homeTimeZone, count }) => {
    const profile = smallOrganization(id, DEMO_SEED, { homeTimeZone });
    const events = generateEvents({
      profile,
      seed: DEMO_SEED,
      fromMs,
      toMs: nowMs,
      count,
      idPrefix: `demo-${id}`,
    });
    return { profile, events, count };
  });
}

/** The same day and time `months` calendar months earlier (UTC; Date rolls the 31st over). */
function monthsBefore(ms: number, months: number): number {
  const date = new Date(ms);
  date.setUTCMonth(date.getUTCMonth() - months);
  return date.getTime();
}
