import { describe, expect, it } from "vitest";
import { InvalidParameterError } from "./invalidParameterError";
import { resolveQueryZone } from "./timeZone";

const at = Date.parse("2026-07-01T12:00:00Z");

describe("resolveQueryZone", () => {
  it("defaults to UTC, or to the offset written in start_date", () => {
    const utc = resolveQueryZone(undefined, null);
    expect(utc.name).toBe("UTC");
    expect(utc.zone.isUniversal).toBe(true);
    expect(utc.zone.offset(at)).toBe(0);

    const kolkata = resolveQueryZone(undefined, 330);
    expect(kolkata.name).toBe("+05:30");
    expect(kolkata.zone.offset(at)).toBe(330);

    expect(resolveQueryZone(undefined, -480).name).toBe("-08:00");
    expect(resolveQueryZone(undefined, 0).name).toBe("UTC");
  });

  it("prefers the timezone parameter over start_date's offset", () => {
    const berlin = resolveQueryZone("Europe/Berlin", 330);
    expect(berlin.name).toBe("Europe/Berlin");
    expect(berlin.zone.offset(at)).toBe(120);
    expect(berlin.zone.offset(Date.parse("2026-01-01T00:00:00Z"))).toBe(60);
  });

  it("reads offsets in every written form", () => {
    expect(resolveQueryZone("+05:30", null)).toMatchObject({ name: "+05:30" });
    expect(resolveQueryZone("-0800", null)).toMatchObject({ name: "-08:00" });
    expect(resolveQueryZone("-0800", null).zone.offset(at)).toBe(-480);
    expect(resolveQueryZone("Z", null).name).toBe("UTC");
    expect(resolveQueryZone("+00:00", null).name).toBe("UTC");
    expect(resolveQueryZone(" 05:45", null).zone.offset(at)).toBe(345);
  });

  it("reports IANA names in IANA's spelling and treats every UTC alias as UTC", () => {
    expect(resolveQueryZone("europe/berlin", null).name).toBe("Europe/Berlin");
    expect(resolveQueryZone("utc", null).name).toBe("UTC");
    const etc = resolveQueryZone("Etc/UTC", null);
    expect(etc.name).toBe("Etc/UTC");
    expect(etc.zone.isUniversal).toBe(true);
    expect(resolveQueryZone("Asia/Kathmandu", null).zone.offset(at)).toBe(345);
    // A link that ICU does not list under its own name is kept as given.
    expect(resolveQueryZone("Asia/Kolkata", null).name).toBe("Asia/Kolkata");
  });

  it.each(["Mars/Olympus", "Berlin", "", "+25:00", "+5", "UTC+1"])(
    "rejects %j with a 400 naming timezone",
    (tz) => {
      let problem: unknown;
      try {
        resolveQueryZone(tz, null);
      } catch (error) {
        problem = error;
      }
      expect(problem).toBeInstanceOf(InvalidParameterError);
      expect((problem as InvalidParameterError).parameter).toBe("timezone");
    },
  );
});
