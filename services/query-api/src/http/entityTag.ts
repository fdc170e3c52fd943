import { createHash } from "node:crypto";
import { CONTENT_CODINGS, type ContentCoding } from "./encodedBodies";

/**
 * What an answer also depends on beside its question and the store's state: the code that renders
 * it. Raise it with a release that changes what an answer holds for the same question and data
 * (a new field, a fix to a number), so that no client keeps the old answer through a 304. The
 * zone rules Node was built with (`process.versions.tz`) are part of it too.
 */
export const ANSWER_FORMAT_VERSION = 1;

/**
 * A strong entity tag (RFC 9110 §8.8.3): SHA-256 over the parts, 128 bits of it in base64url.
 * The parts hold what decides the answer (docs/contract.md §9): its operation, organization and
 * parameters, the state of the store it is exact for and what its range was cut into. The tag
 * reveals none of them.
 */
export function entityTag(parts: readonly unknown[]): string {
  const what = JSON.stringify([ANSWER_FORMAT_VERSION, process.versions.tz ?? "", ...parts]);
  return `"${createHash("sha256").update(what).digest("base64url").slice(0, 22)}"`;
}

/** The opaque part of each entity tag an `If-None-Match` lists (RFC 9110 §13.1.2), weak ones too. */
function listedTags(header: string): { any: boolean; opaque: string[] } {
  if (header.trim() === "*") return { any: true, opaque: [] };
  const opaque = [...header.matchAll(/(?:W\/)?"([^"]*)"/g)].map((match) => match[1] ?? "");
  return { any: false, opaque };
}

/** `"abc"` → `abc` (a tag this module made: strong, quoted). */
const opaqueOf = (tag: string) => tag.slice(1, -1);

/**
 * The tag the client holds that names the same answer as `tag`, as the client's stored
 * representation's tag (with its content coding, RFC 9110 §8.8.3.3), or undefined when none does.
 * The comparison is the weak one `If-None-Match` asks for. `*` matches only with `orAny` (once the
 * answer is known to exist: a 200 would be sent).
 */
export function heldTag(ifNoneMatch: string | undefined, tag: string, orAny = false): string | undefined {
  if (ifNoneMatch === undefined) return undefined;
  const listed = listedTags(ifNoneMatch);
  if (listed.any) return orAny ? tag : undefined;
  const mine = opaqueOf(tag);
  const held = listed.opaque.find(
    (opaque) => opaque === mine || CONTENT_CODINGS.some((coding) => opaque === `${mine}-${coding}`),
  );
  return held === undefined ? undefined : `"${held}"`;
}

/** The tag of a representation in `coding`, told apart from the others' (RFC 9110 §8.8.3.3: "xyzzy-gzip"). */
export function codedTag(tag: string, coding: ContentCoding): string {
  return /^"[^"]*"$/.test(tag) ? `"${opaqueOf(tag)}-${coding}"` : tag;
}
