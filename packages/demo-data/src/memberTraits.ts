import type { Random } from "./random";
import type { WeightedPicker } from "./weightedPicker";

/** What makes one member's recordings look like theirs. */
export interface MemberTraits {
  /** Relative recording volume; log-normal, so a few members record far more than most. */
  activity: number;
  /** Speaking rate, 125–165 words per minute. */
  wordsPerMinute: number;
  /** Index into the profile's apps of the app this member mostly dictates into. */
  favoriteApp: number;
  /** Probability that a recording goes to the favourite app rather than any app. */
  appLoyalty: number;
  /** Some members switched the language model off altogether. */
  usesLanguageModels: boolean;
}

const ACTIVITY_SPREAD = 1.1;

export function drawMemberTraits(memberCount: number, appPicker: WeightedPicker, random: Random) {
  return Array.from(
    { length: memberCount },
    (): MemberTraits => ({
      activity: Math.exp(ACTIVITY_SPREAD * random.normal()),
      wordsPerMinute: random.between(125, 165),
      favoriteApp: appPicker(random.float()),
      appLoyalty: random.between(0.4, 0.8),
      usesLanguageModels: random.chance(0.85),
    }),
  );
}
