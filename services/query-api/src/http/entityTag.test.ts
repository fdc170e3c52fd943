import { describe, expect, it } from "vitest";
import { codedTag, entityTag, heldTag } from "./entityTag";

describe("entityTag", () => {
  it("is a strong quoted tag, the same for the same parts and another for others", () => {
    const tag = entityTag(["stats", "acme", { granularity: "day" }, "stamp-1"]);
    expect(tag).toMatch(/^"[\w-]{22}"$/);
    expect(entityTag(["stats", "acme", { granularity: "day" }, "stamp-1"])).toBe(tag);
    expect(entityTag(["stats", "acme", { granularity: "day" }, "stamp-2"])).not.toBe(tag);
    expect(entityTag(["stats", "acme2", { granularity: "day" }, "stamp-1"])).not.toBe(tag);
  });
});

describe("heldTag", () => {
  const tag = entityTag(["summary", "acme"]);
  const opaque = tag.slice(1, -1);

  it("finds the tag among those listed, weak or strong, and returns it as the client holds it", () => {
    expect(heldTag(tag, tag)).toBe(tag);
    expect(heldTag(`"other", W/${tag}`, tag)).toBe(tag);
    expect(heldTag(`"other"`, tag)).toBeUndefined();
    expect(heldTag(undefined, tag)).toBeUndefined();
  });

  it("matches the tag of the answer in a content coding, which is the tag the 304 then names", () => {
    expect(heldTag(`"${opaque}-gzip"`, tag)).toBe(`"${opaque}-gzip"`);
    expect(heldTag(`"${opaque}-br"`, tag)).toBe(`"${opaque}-br"`);
    expect(heldTag(`"${opaque}-deflate"`, tag)).toBe(`"${opaque}-deflate"`);
    expect(heldTag(`"${opaque}-compress"`, tag)).toBeUndefined();
    expect(heldTag(`"${opaque.slice(1)}"`, tag)).toBeUndefined();
  });

  it("matches * only once an answer is known to exist", () => {
    expect(heldTag("*", tag)).toBeUndefined();
    expect(heldTag(" * ", tag, true)).toBe(tag);
  });
});

describe("codedTag", () => {
  it("names the coding inside the quotes (RFC 9110 §8.8.3.3)", () => {
    expect(codedTag('"xyzzy"', "gzip")).toBe('"xyzzy-gzip"');
    expect(codedTag('W/"xyzzy"', "br")).toBe('W/"xyzzy"');
  });
});
