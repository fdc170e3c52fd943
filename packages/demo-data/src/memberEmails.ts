import { FIRST_NAMES, LAST_NAMES } from "./catalog";
import type { Random } from "./random";

/**
 * `count` distinct member addresses `firstname.lastname@<organization>.example`. Distinct even
 * after lower-casing (the contract compares them lower-cased), while about one in seven is spelled
 * with capitals, as some clients send them.
 */
export function memberEmails(organizationId: string, count: number, random: Random): string[] {
  const domain = `${domainLabel(organizationId)}.example`;
  const seen = new Set<string>();
  const emails: string[] = [];
  for (let index = 0; index < count; index++) {
    const local = uniqueLocalPart(`${random.pick(FIRST_NAMES)}.${random.pick(LAST_NAMES)}`, seen);
    emails.push(spell(`${local}@${domain}`, index));
  }
  return emails;
}

/** Appends 2, 3, … to a name already taken, as mail admins do. */
function uniqueLocalPart(name: string, seen: Set<string>): string {
  let candidate = name;
  for (let suffix = 2; seen.has(candidate.toLowerCase()); suffix++) candidate = `${name}${suffix}`;
  seen.add(candidate.toLowerCase());
  return candidate;
}

/**
 * A fixed pattern rather than a random draw, so that even a dozen members include a capitalised
 * address, and every large organization an all-capitals one.
 */
function spell(email: string, index: number): string {
  if (index % 50 === 10) return email.toUpperCase();
  if (index % 7 === 3) return email;
  return email.toLowerCase();
}

/** An organization id may hold `.`, `_` and `:`; a DNS label may not. */
function domainLabel(organizationId: string): string {
  const label = organizationId
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .slice(0, 63)
    .replace(/^-+|-+$/g, "");
  return label === "" ? "organization" : label;
}
