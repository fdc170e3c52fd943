import { type RecordingCompletedInput, recordingCompletedSchema } from "@vu/events";
import { describe, expect, it } from "vitest";
import { type GenerateEventsOptions, generateEvents } from "./eventGenerator";
import { buildOrganization, largeOrganization, smallOrganization } from "./organizationProfile";

const profile = largeOrganization("bench-org", 1);
// Deliberately not on hour boundaries, to exercise the partial first and last hours.
const fromMs = Date.UTC(2025, 0, 1, 0, 17, 3, 250);
const toMs = Date.UTC(2026, 2, 1, 13, 42, 9, 999);
const options: GenerateEventsOptions = { profile, seed: 11, fromMs, toMs, count: 20_000 };
const events = [...generateEvents(options)];

const take = (iterable: Iterable<RecordingCompletedInput>, count: number) => {
  const taken: RecordingCompletedInput[] = [];
  for (const event of iterable) {
    if (taken.length === count) break;
    taken.push(event);
  }
  return taken;
};

describe("generateEvents: determinism", () => {
  it("yields identical events for the same options, also when iterated again", () => {
    const iterable = generateEvents({ ...options, count: 500 });
    const first = [...iterable];
    expect([...iterable]).toEqual(first);
    expect([...generateEvents({ ...options, count: 500 })]).toEqual(first);
  });

  it("yields different events for a different seed", () => {
    const other = take(generateEvents({ ...options, seed: 12 }), 100);
    const same = events.slice(0, 100).filter((event, i) => {
      const { recording_id: _a, ...rest } = event;
      const { recording_id: _b, ...otherRest } = other[i] ?? event;
      return JSON.stringify(rest) === JSON.stringify(otherRest);
    });
    expect(same.length).toBeLessThan(5);
  });

  it("is lazy: taking a few events from a huge stream does not make the rest", () => {
    // An eager generator would build ten million events here (the test's timeout would end it).
    expect(take(generateEvents({ ...options, count: 10_000_000 }), 3)).toHaveLength(3);
  });
});

describe("generateEvents: validity", () => {
  it("emits only events the v1 schema accepts", () => {
    for (const event of events.slice(0, 5_000)) {
      const parsed = recordingCompletedSchema.safeParse(event);
      expect(parsed.success, JSON.stringify([event, parsed.error?.issues])).toBe(true);
    }
  });

  it("emits exactly count events with unique recording ids and the profile's organization", () => {
    expect(events).toHaveLength(20_000);
    expect(new Set(events.map((event) => event.recording_id)).size).toBe(20_000);
    expect(events[0]?.recording_id).toBe("rec-11-0");
    expect(events.every((event) => event.organization_id === "bench-org")).toBe(true);
    expect(take(generateEvents({ ...options, idPrefix: "run-a" }), 1)[0]?.recording_id).toBe("run-a-0");
  });

  it("places recorded_at in [fromMs, toMs), as ISO 8601 with milliseconds and Z, in time order", () => {
    let previous = fromMs;
    for (const event of events) {
      expect(event.recorded_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const ms = Date.parse(event.recorded_at);
      expect(ms).toBeGreaterThanOrEqual(previous);
      previous = ms;
    }
    expect(previous).toBeLessThan(toMs);
  });

  it("stays inside a range of a few milliseconds", () => {
    const tiny = [...generateEvents({ ...options, fromMs: 1_000, toMs: 1_003, count: 50 })];
    const instants = new Set(tiny.map((event) => Date.parse(event.recorded_at)));
    expect([...instants].every((ms) => ms >= 1_000 && ms < 1_003)).toBe(true);
  });

  it("refuses an empty range, a bad count and an over-long id prefix", () => {
    expect(() => generateEvents({ ...options, toMs: fromMs })).toThrow(RangeError);
    expect(() => generateEvents({ ...options, count: -1 })).toThrow(RangeError);
    expect(() => generateEvents({ ...options, count: 1.5 })).toThrow(RangeError);
    expect(() => generateEvents({ ...options, idPrefix: "x".repeat(101) })).toThrow(RangeError);
  });
});

describe("generateEvents: realistic values", () => {
  it("leaves llm_processing_ms null exactly when no language model ran, else 200 ms–8 s", () => {
    for (const event of events) {
      if (event.language_model === null) expect(event.llm_processing_ms).toBeNull();
      else expect(event.llm_processing_ms).toSatisfy((ms: number) => ms >= 200 && ms <= 8_000);
    }
    const withoutModel = events.filter((event) => event.language_model === null).length;
    expect(withoutModel / events.length).toBeGreaterThan(0.1);
    expect(withoutModel / events.length).toBeLessThan(0.4);
  });

  it("has a few zero durations (with zero words) and a few unmeasured voice times", () => {
    const zeros = events.filter((event) => event.duration_ms === 0);
    expect(zeros.length).toBeGreaterThan(20);
    expect(zeros.length).toBeLessThan(events.length * 0.02);
    expect(zeros.every((event) => event.word_count === 0)).toBe(true);
    const unmeasured = events.filter((event) => event.voice_processing_ms === null).length;
    expect(unmeasured / events.length).toBeGreaterThan(0.02);
    expect(unmeasured / events.length).toBeLessThan(0.04);
  });

  it("keeps most durations between 10 s and 20 min, with a tail beyond", () => {
    const typical = events.filter((event) => event.duration_ms >= 10_000 && event.duration_ms <= 1_200_000);
    expect(typical.length / events.length).toBeGreaterThan(0.9);
    expect(events.some((event) => event.duration_ms > 3_600_000)).toBe(true);
  });

  it("speaks 120–170 words a minute and needs 5–15 % of the audio's length to transcribe", () => {
    for (const event of events.filter((e) => e.duration_ms >= 60_000)) {
      const minutes = event.duration_ms / 60_000;
      expect(event.word_count / minutes).toBeGreaterThanOrEqual(119.9);
      expect(event.word_count / minutes).toBeLessThanOrEqual(170.1);
      if (event.voice_processing_ms !== null) {
        expect(event.voice_processing_ms / event.duration_ms).toBeGreaterThanOrEqual(0.0499);
        expect(event.voice_processing_ms / event.duration_ms).toBeLessThanOrEqual(0.1501);
      }
    }
  });

  it("skews activity: the busiest members record far more than the typical one", () => {
    const perMember = new Map<string, number>();
    for (const event of events)
      perMember.set(event.member_email, (perMember.get(event.member_email) ?? 0) + 1);
    const counts = [...perMember.values()].sort((a, b) => b - a);
    const median = counts[Math.floor(counts.length / 2)] ?? 0;
    expect(counts[0]).toBeGreaterThan(5 * median);
    expect(perMember.size).toBeGreaterThan(400);
  });

  it("uses every model and app of the profile, the non-ASCII apps included", () => {
    expect(new Set(events.map((event) => event.voice_model))).toEqual(new Set(profile.voiceModels));
    expect(new Set(events.map((event) => event.language_model))).toEqual(new Set(profile.languageModels));
    const apps = new Set(events.map((event) => event.app_name));
    expect(apps).toEqual(new Set(profile.apps));
    expect([...apps].filter((app) => /[^\x20-\x7e]/.test(app)).length).toBeGreaterThan(5);
    const small = [...generateEvents({ ...options, profile: smallOrganization("acme", 3), count: 300 })];
    expect(small.some((event) => event.app_name === "日本語メモ")).toBe(true);
    expect(small.some((event) => event.app_name === "Bürokratie-Assistent")).toBe(true);
  });
});

describe("generateEvents: time of day", () => {
  const berlin = buildOrganization("berlin-only", 5, {
    memberCount: 30,
    voiceModelCount: 2,
    namedLanguageModelCount: 2,
    appCount: 6,
    homeTimeZone: "Europe/Berlin",
    homeShare: 1,
  });
  const local = new Intl.DateTimeFormat("en-US", {
    timeZone: "Europe/Berlin",
    hourCycle: "h23",
    weekday: "short",
    hour: "numeric",
  });
  const sample = [...generateEvents({ ...options, profile: berlin, count: 10_000 })];

  it("concentrates on weekday working hours in the members' zone, across DST", () => {
    const working = sample.filter((event) => {
      const parts = local.formatToParts(Date.parse(event.recorded_at));
      const weekday = parts.find((part) => part.type === "weekday")?.value ?? "";
      const hour = Number(parts.find((part) => part.type === "hour")?.value);
      return !["Sat", "Sun"].includes(weekday) && hour >= 8 && hour < 18;
    });
    expect(working.length / sample.length).toBeGreaterThan(0.8);
  });

  it("over 14 months, records in every DST change week of Europe and the US", () => {
    const days = new Set(sample.map((event) => event.recorded_at.slice(0, 10)));
    const weekAround = (date: string) =>
      [-3, -2, -1, 0, 1, 2, 3].some((offset) =>
        days.has(new Date(Date.parse(date) + offset * 86_400_000).toISOString().slice(0, 10)),
      );
    for (const change of ["2025-03-09", "2025-03-30", "2025-10-26", "2025-11-02"]) {
      expect(weekAround(change), change).toBe(true);
    }
    expect(days.has("2025-12-31")).toBe(true);
  });
});

// Speed is the bench's to measure (bench/src/ingestPath.ts --shape many opens 10,000 generators).
describe("generateEvents: many at once", () => {
  it("makes exactly the count asked for", () => {
    let count = 0;
    for (const _ of generateEvents({ ...options, count: 100_000 })) count++;
    expect(count).toBe(100_000);
  });

  it("opens a thousand organizations' generators side by side, each yielding", () => {
    const open = Array.from({ length: 1_000 }, (_, i) => {
      const iterator = generateEvents({ ...options, profile: smallOrganization(`t${i}`, i), count: 100 })[
        Symbol.iterator
      ]();
      return { iterator, first: iterator.next() };
    });
    expect(open.every(({ first }) => first.done === false)).toBe(true);
  });
});
