import { drawMemberTraits, type MemberTraits } from "./memberTraits";
import type { OrganizationProfile } from "./organizationProfile";
import type { Random } from "./random";
import type { TimelineZone } from "./timeline";
import { createWeightedPicker, type WeightedPicker, zipfWeights } from "./weightedPicker";

/** Draws who recorded, and with which models and app, for one organization. */
export interface OrganizationSampler {
  /** The members' home zones with their summed activity, for the timeline. */
  zones: readonly TimelineZone[];
  /** A member living in `zone`, by activity. */
  pickMember(zone: number): SampledMember;
  pickVoiceModel(traits: MemberTraits): string;
  pickLanguageModel(traits: MemberTraits): string | null;
  pickApp(traits: MemberTraits): string;
}

export interface SampledMember {
  email: string;
  traits: MemberTraits;
}

/** Among members who use language models, the share of recordings still made without one. */
const NO_LANGUAGE_MODEL_RATE = 0.1;

export function createOrganizationSampler(profile: OrganizationProfile, random: Random): OrganizationSampler {
  requireNonEmpty(profile);
  // Catalog order is popularity order: the first models and apps take most of the use.
  const pickAppIndex = createWeightedPicker(zipfWeights(profile.apps.length, 0.9));
  const pickVoiceIndex = createWeightedPicker(zipfWeights(profile.voiceModels.length, 1));
  const namedModels = profile.languageModels.filter((model) => model !== null);
  const pickNamedIndex =
    namedModels.length > 0 ? createWeightedPicker(zipfWeights(namedModels.length, 0.8)) : undefined;
  const offersNone = profile.languageModels.includes(null);
  const traits = drawMemberTraits(
    profile.members.length,
    { app: pickAppIndex, voiceModel: pickVoiceIndex, languageModel: pickNamedIndex },
    random,
  );
  const members = profile.members.map(
    (email, index): SampledMember => ({ email, traits: at(traits, index) }),
  );
  const { zones, pickers } = groupByZone(profile, traits);

  return {
    zones,
    pickMember: (zone) => at(members, pickFrom(pickers[zone], random)),
    pickVoiceModel: (memberTraits) => at(profile.voiceModels, pickOwn(memberTraits.voiceModels, random)),
    pickLanguageModel(memberTraits) {
      if (pickNamedIndex === undefined) return null;
      // A profile without `null` has every recording pass a language model, whoever records.
      const without = !memberTraits.usesLanguageModels || random.chance(NO_LANGUAGE_MODEL_RATE);
      if (offersNone && without) return null;
      return at(namedModels, pickOwn(memberTraits.languageModels, random));
    },
    pickApp(memberTraits) {
      const index = random.chance(memberTraits.appLoyalty)
        ? memberTraits.favoriteApp
        : pickOwn(memberTraits.otherApps, random);
      return at(profile.apps, index);
    },
  };
}

interface ZonePicker {
  members: number[];
  pick: WeightedPicker;
}

/** One member picker per home zone, so the timeline can choose the zone first. */
function groupByZone(profile: OrganizationProfile, traits: readonly MemberTraits[]) {
  const membersByZone = new Map<string, number[]>();
  profile.members.forEach((_, member) => {
    const zone = profile.memberTimeZones[member] ?? "UTC";
    const members = membersByZone.get(zone);
    if (members === undefined) membersByZone.set(zone, [member]);
    else members.push(member);
  });
  const zones: TimelineZone[] = [];
  const pickers: ZonePicker[] = [];
  for (const [timeZone, members] of membersByZone) {
    const activities = members.map((member) => at(traits, member).activity);
    zones.push({ timeZone, share: activities.reduce((sum, activity) => sum + activity, 0) });
    pickers.push({ members, pick: createWeightedPicker(activities) });
  }
  return { zones, pickers };
}

/** One of a member's own few choices, the first (their default) most often. */
function pickOwn(own: readonly number[], random: Random): number {
  return at(own, random.chance(0.75) ? 0 : Math.floor(random.float() * own.length));
}

function pickFrom(picker: ZonePicker | undefined, random: Random): number {
  if (picker === undefined) throw new RangeError("no such zone");
  return at(picker.members, picker.pick(random.float()));
}

/** Indexed access for indexes that are in range by construction. */
function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`index ${index} out of range`);
  return item;
}

function requireNonEmpty(profile: OrganizationProfile): void {
  for (const field of ["members", "voiceModels", "languageModels", "apps"] as const) {
    if (profile[field].length === 0) throw new RangeError(`profile.${field} must not be empty`);
  }
  if (profile.memberTimeZones.length !== profile.members.length) {
    throw new RangeError("profile.memberTimeZones must have one zone per member");
  }
}
