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
  /** Probability that a recording goes to the favourite app rather than the member's other apps. */
  appLoyalty: number;
  /** The few other apps this member uses (indexes into the profile's apps). */
  otherApps: number[];
  /** The one or two voice models set up for this member (indexes into the profile's voice models). */
  voiceModels: number[];
  /** The one or two named language models this member uses (indexes into the named models). */
  languageModels: number[];
  /** Some members switched the language model off altogether. */
  usesLanguageModels: boolean;
}

const ACTIVITY_SPREAD = 1.1;

export interface TraitPickers {
  app: WeightedPicker;
  voiceModel: WeightedPicker;
  /** Undefined when the profile has no named language model. */
  languageModel: WeightedPicker | undefined;
}

/**
 * Real members use a handful of apps and the one or two models set up for them, not every
 * combination the organization offers: this keeps an organization's distinct combinations in the
 * thousands (500 members × their own few), as in production data.
 */
export function drawMemberTraits(memberCount: number, pickers: TraitPickers, random: Random) {
  const few = (picker: WeightedPicker, count: number) => {
    const picked = new Set<number>();
    for (let i = 0; i < count; i++) picked.add(picker(random.float()));
    return [...picked];
  };
  return Array.from(
    { length: memberCount },
    (): MemberTraits => ({
      activity: Math.exp(ACTIVITY_SPREAD * random.normal()),
      wordsPerMinute: random.between(125, 165),
      favoriteApp: pickers.app(random.float()),
      appLoyalty: random.between(0.4, 0.8),
      otherApps: few(pickers.app, 2 + Math.floor(random.float() * 4)),
      voiceModels: few(pickers.voiceModel, random.chance(0.3) ? 2 : 1),
      languageModels: pickers.languageModel ? few(pickers.languageModel, random.chance(0.4) ? 2 : 1) : [],
      usesLanguageModels: random.chance(0.85),
    }),
  );
}
