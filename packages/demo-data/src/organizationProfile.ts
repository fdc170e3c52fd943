import {
  CORE_APPS,
  HOME_TIME_ZONES,
  type HomeTimeZone,
  LANGUAGE_MODELS,
  MORE_APPS,
  VOICE_MODELS,
} from "./catalog";
import { memberEmails } from "./memberEmails";
import { createRandom, deriveSeed, type Random, shuffled } from "./random";

/** Who records in an organization and with what: the vocabulary events are drawn from. */
export interface OrganizationProfile {
  organizationId: string;
  /** E-mail addresses as the clients send them; some contain upper-case letters. */
  members: readonly string[];
  /** IANA zone of `members[i]`: where that member's working day happens. */
  memberTimeZones: readonly string[];
  voiceModels: readonly string[];
  /** `null` stands for recordings where no language model ran. */
  languageModels: readonly (string | null)[];
  apps: readonly string[];
}

export interface OrganizationShape {
  memberCount: number;
  voiceModelCount: number;
  /** Named language models; `null` is added on top. */
  namedLanguageModelCount: number;
  appCount: number;
  /** Where most members live; the others spread over the remaining home zones. */
  homeTimeZone: HomeTimeZone;
  /** Share of members living in `homeTimeZone`. */
  homeShare: number;
}

export interface SmallOrganizationOptions {
  /** Defaults to a zone chosen by the seed. */
  homeTimeZone?: HomeTimeZone;
}

/** About a dozen members, 3 voice models, 2 language models and `null`, the 6 core apps. */
export function smallOrganization(
  organizationId: string,
  seed: number,
  options: SmallOrganizationOptions = {},
): OrganizationProfile {
  const random = createRandom(deriveSeed(seed, `small:${organizationId}`));
  return buildOrganization(organizationId, seed, {
    memberCount: random.int(10, 14),
    voiceModelCount: 3,
    namedLanguageModelCount: 2,
    appCount: CORE_APPS.length,
    homeTimeZone: options.homeTimeZone ?? random.pick(HOME_TIME_ZONES),
    homeShare: 0.75,
  });
}

/**
 * The benchmark organization: exactly 500 members, 6 voice models, 8 language models (7 named and
 * `null`) and 40 apps, members spread over all home zones.
 */
export function largeOrganization(organizationId: string, seed: number): OrganizationProfile {
  return buildOrganization(organizationId, seed, {
    memberCount: 500,
    voiceModelCount: 6,
    namedLanguageModelCount: 7,
    appCount: 40,
    homeTimeZone: "Europe/Berlin",
    homeShare: 0.5,
  });
}

export function buildOrganization(
  organizationId: string,
  seed: number,
  shape: OrganizationShape,
): OrganizationProfile {
  const random = createRandom(deriveSeed(seed, `profile:${organizationId}`));
  return {
    organizationId,
    members: memberEmails(organizationId, shape.memberCount, random),
    memberTimeZones: Array.from({ length: shape.memberCount }, () => homeZone(shape, random)),
    voiceModels: take(VOICE_MODELS, shape.voiceModelCount, random),
    languageModels: [...take(LANGUAGE_MODELS, shape.namedLanguageModelCount, random), null],
    // The core apps always come first, so every organization shows the Unicode and CSV cases.
    apps: [
      ...CORE_APPS.slice(0, shape.appCount),
      ...take(MORE_APPS, Math.max(0, shape.appCount - CORE_APPS.length), random),
    ],
  };
}

function homeZone(shape: OrganizationShape, random: Random): string {
  if (random.chance(shape.homeShare)) return shape.homeTimeZone;
  return random.pick(HOME_TIME_ZONES.filter((zone) => zone !== shape.homeTimeZone));
}

/** `count` distinct entries of the catalog, keeping catalog order (its first entries are the popular ones). */
function take(catalog: readonly string[], count: number, random: Random): string[] {
  if (count > catalog.length) {
    throw new RangeError(
      `the catalog holds ${catalog.length} entries, ${count} requested: ${catalog.join(", ")}`,
    );
  }
  const chosen = new Set(shuffled(catalog, random).slice(0, count));
  return catalog.filter((entry) => chosen.has(entry));
}
