import { describe, expect, it } from "vitest";
import { compareByteOrder } from "./byteOrder";

describe("compareByteOrder", () => {
  it("orders by code point, not by UTF-16 unit", () => {
    // U+FF5E (fullwidth tilde) is one unit 0xFF5E; U+1F600 is the surrogate pair D83D DE00.
    // UTF-16 order puts the emoji first, byte order puts it last.
    const values = ["\u{1F600}", "\uFF5E", "Zoom", "Ärzte", "zoom", "Zo"];
    expect([...values].sort(compareByteOrder)).toEqual([
      "Zo",
      "Zoom",
      "zoom",
      "Ärzte",
      "\uFF5E",
      "\u{1F600}",
    ]);
  });
});
