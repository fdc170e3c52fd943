import { recordingCompletedSchema } from "@vu/events";
import { describe, expect, it } from "vitest";
import { CORE_APPS, HOME_TIME_ZONES } from "./catalog";
import { largeOrganization, smallOrganization } from "./organizationProfile";

const emailSchema = recordingCompletedSchema.shape.member_email;
const nonAscii = (text: string) => /[^\x20-\x7e]/.test(text);

describe("largeOrganization", () => {
  const profile = largeOrganization("bench-org", 42);

  it("matches the benchmark shape exactly", () => {
    expect(profile.organizationId).toBe("bench-org");
    expect(profile.members).toHaveLength(500);
    expect(profile.memberTimeZones).toHaveLength(500);
    expect(profile.voiceModels).toHaveLength(6);
    expect(profile.languageModels).toHaveLength(8);
    expect(profile.languageModels.filter((model) => model === null)).toHaveLength(1);
    expect(profile.apps).toHaveLength(40);
  });

  it("has no duplicates, even with e-mails compared lower-cased as the contract does", () => {
    expect(new Set(profile.members.map((email) => email.toLowerCase())).size).toBe(500);
    expect(new Set(profile.voiceModels).size).toBe(6);
    expect(new Set(profile.languageModels).size).toBe(8);
    expect(new Set(profile.apps).size).toBe(40);
  });

  it("spreads members over every home zone", () => {
    expect(new Set(profile.memberTimeZones)).toEqual(new Set(HOME_TIME_ZONES));
  });

  it("includes the Unicode and CSV edge cases among its apps", () => {
    expect(profile.apps).toEqual(
      expect.arrayContaining([
        "日本語メモ",
        "Ärztebrief",
        'Notes, "quoted"',
        "🎙️ Voice Memos",
        "=Formel-Rechner",
      ]),
    );
  });
});

describe("smallOrganization", () => {
  const profile = smallOrganization("acme", 7);

  it("has about a dozen members, 3 voice models, 2 language models plus null and the 6 core apps", () => {
    expect(profile.members.length).toBeGreaterThanOrEqual(10);
    expect(profile.members.length).toBeLessThanOrEqual(14);
    expect(profile.voiceModels).toHaveLength(3);
    expect(profile.languageModels).toHaveLength(3);
    expect(profile.languageModels).toContain(null);
    expect(profile.apps).toEqual(CORE_APPS);
    expect(profile.apps.filter(nonAscii).length).toBeGreaterThanOrEqual(3);
  });

  it("writes valid firstname.lastname@<org>.example addresses, some with capitals", () => {
    for (const email of profile.members) {
      expect(email).toMatch(/^[^@]+\.[^@]+@acme\.example$/i);
      expect(emailSchema.safeParse(email).success).toBe(true);
    }
    expect(profile.members.some((email) => email !== email.toLowerCase())).toBe(true);
  });

  it("derives a valid domain from any organization id", () => {
    const odd = smallOrganization("EU_west:tenant.42", 1);
    for (const email of odd.members) expect(emailSchema.safeParse(email).success).toBe(true);
    expect(odd.members[0]?.toLowerCase()).toMatch(/@eu-west-tenant-42\.example$/);
  });

  it("is deterministic per seed, different across seeds, and honours a chosen home zone", () => {
    expect(smallOrganization("acme", 7)).toEqual(profile);
    expect(smallOrganization("acme", 8).members).not.toEqual(profile.members);
    const berlin = smallOrganization("acme", 7, { homeTimeZone: "Europe/Berlin" });
    const inBerlin = berlin.memberTimeZones.filter((zone) => zone === "Europe/Berlin").length;
    expect(inBerlin).toBeGreaterThan(berlin.members.length / 2);
  });
});
