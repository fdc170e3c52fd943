import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type GenerateEventsOptions, generateEvents } from "./eventGenerator";
import {
  buildOrganization,
  largeOrganization,
  type OrganizationProfile,
  smallOrganization,
} from "./organizationProfile";

/**
 * Pins the generated events byte for byte: each case's SHA-256 over the JSON of its events was
 * computed once and written down here. A change to how events are made (a refactoring of the
 * timeline, a cache) must keep every hash; a change meant to alter events updates them on purpose.
 */

// Not on hour boundaries, to cover the partial first and last hours; 13 months across both DST changes.
const fromMs = Date.UTC(2025, 0, 1, 0, 17, 3, 250);
const toMs = Date.UTC(2026, 2, 1, 13, 42, 9, 999);
// Hour-aligned, as the bench's data sets are.
const alignedFromMs = Date.UTC(2024, 10, 3, 9);
const alignedToMs = Date.UTC(2025, 11, 3, 9);

/** A profile over zones with :30 and :45 offsets, southern-hemisphere DST and a DST-free UTC. */
const oddZones: OrganizationProfile = {
  organizationId: "odd-zones",
  members: ["a@odd.example", "b@odd.example", "C@odd.example", "d@odd.example", "e@odd.example"],
  memberTimeZones: ["Australia/Adelaide", "Asia/Kathmandu", "Pacific/Chatham", "America/St_Johns", "UTC"],
  voiceModels: ["whisper-large-v3"],
  languageModels: ["gpt-4o", null],
  apps: ["Zoom", "日本語メモ"],
};

const tenant = (id: string, seed: number, members: number) =>
  buildOrganization(id, seed, {
    memberCount: members,
    voiceModelCount: 1,
    namedLanguageModelCount: 1,
    appCount: 3,
    homeTimeZone: "Asia/Kolkata",
    homeShare: 0.8,
  });

interface PinnedCase {
  options: GenerateEventsOptions;
  /** Hash only the first `take` events (of a far larger count). */
  take?: number;
}

const cases: Record<string, PinnedCase> = {
  "large, first 3,000 of 10M": {
    options: { profile: largeOrganization("bench-org", 1), seed: 11, fromMs, toMs, count: 10_000_000 },
    take: 3_000,
  },
  "large, 5,000 over the range": {
    options: { profile: largeOrganization("bench-org", 1), seed: 11, fromMs, toMs, count: 5_000 },
  },
  "small Berlin": {
    options: {
      profile: smallOrganization("acme", 3, { homeTimeZone: "Europe/Berlin" }),
      seed: 7,
      fromMs,
      toMs,
      count: 2_000,
    },
  },
  "small New York": {
    options: {
      profile: smallOrganization("acme-us", 4, { homeTimeZone: "America/New_York" }),
      seed: -5,
      fromMs: alignedFromMs,
      toMs: alignedToMs,
      count: 2_000,
      idPrefix: "us",
    },
  },
  "small Kolkata": {
    options: {
      profile: smallOrganization("acme-in", 5, { homeTimeZone: "Asia/Kolkata" }),
      seed: 2_147_483_647,
      fromMs,
      toMs,
      count: 2_000,
    },
  },
  "tenant of one recording": {
    options: {
      profile: tenant("bench-t09999", 99, 1),
      seed: 42,
      fromMs: alignedFromMs,
      toMs: alignedToMs,
      count: 1,
    },
  },
  "tenant of 210 recordings": {
    options: {
      profile: tenant("bench-t05000", 50, 7),
      seed: 42,
      fromMs: alignedFromMs,
      toMs: alignedToMs,
      count: 210,
    },
  },
  "odd zones": { options: { profile: oddZones, seed: 3, fromMs, toMs, count: 3_000 } },
  "odd zones, three years": {
    options: {
      profile: oddZones,
      seed: 3,
      fromMs: Date.UTC(2023, 5, 1),
      toMs: Date.UTC(2026, 5, 1),
      count: 3_000,
    },
  },
  "a few hours across a DST change": {
    options: {
      profile: smallOrganization("acme", 3, { homeTimeZone: "Europe/Berlin" }),
      seed: 8,
      fromMs: Date.UTC(2025, 2, 30, 0, 30),
      toMs: Date.UTC(2025, 2, 30, 3, 10),
      count: 500,
    },
  },
  "a few milliseconds": {
    options: { profile: oddZones, seed: 9, fromMs: 1_000, toMs: 1_003, count: 50 },
  },
};

const EXPECTED: Record<string, string> = {
  "large, first 3,000 of 10M": "2b4f1ce7afb6a02c508a9ee982c30deca2fdb9cf1a00847ccfddd1b21f26c96f",
  "large, 5,000 over the range": "2ab4c72ddacf4cc2603f675d89355c5f3343f8d85f861953482ba0a8a9c8f1d1",
  "small Berlin": "16625237664a4d209ab8df23e707681ea5dcda4e3b11a28e1730c6318f722f3f",
  "small New York": "64c4175f2487afe98e1f8d15774fb58c7b9a9cea720f4482a90be0c4c1fc476f",
  "small Kolkata": "f7d7fc5bb8bc7e28f7d374c71d27074b45e677a31a352c92e6915f133cdc1263",
  "tenant of one recording": "f3dde0d3bad1dc6e98e6232773e9d41f82ed397bd649afef21bcee85b06efcb3",
  "tenant of 210 recordings": "a47203764b794f930e5ae52077b3b434d7fc9e50b478ea765db402e76af0f2e1",
  "odd zones": "2d7684d033706d72e8ed47bc3e261b8ca7fb83568cd2b9c5e24ce05762c9d216",
  "odd zones, three years": "8d9b614234d73cd05b15be61b24385807d7183eb0b1d37ffaea39dba5e3103bb",
  "a few hours across a DST change": "a3b24c5641ea058e97eb45f912936cc1a0873eff5adc1f841498d6a7c4aaa05f",
  "a few milliseconds": "7f568a0b9e4cd669e2ab33f981e08da0e4ee25568d1a67dd87cf70ff0f29e7bf",
};

function hashEvents({ options, take = Number.POSITIVE_INFINITY }: PinnedCase): string {
  const hash = createHash("sha256");
  let taken = 0;
  for (const event of generateEvents(options)) {
    if (taken++ === take) break;
    hash.update(`${JSON.stringify(event)}\n`);
  }
  return hash.digest("hex");
}

describe("generateEvents: pinned output", () => {
  it("yields byte-identical events for every pinned case", () => {
    const actual = Object.fromEntries(
      Object.entries(cases).map(([name, pinned]) => [name, hashEvents(pinned)]),
    );
    expect(actual).toEqual(EXPECTED);
  });

  it("yields the same events when many generators are open at once, interleaved", () => {
    const iterators = Object.values(cases).map((pinned) => ({
      pinned,
      iterator: generateEvents(pinned.options)[Symbol.iterator](),
      hash: createHash("sha256"),
      taken: 0,
    }));
    for (let open = iterators.length; open > 0; ) {
      open = 0;
      for (const entry of iterators) {
        if (entry.taken === (entry.pinned.take ?? Number.POSITIVE_INFINITY)) continue;
        const next = entry.iterator.next();
        if (next.done) continue;
        entry.taken++;
        entry.hash.update(`${JSON.stringify(next.value)}\n`);
        open++;
      }
    }
    const actual = Object.fromEntries(
      Object.keys(cases).map((name, i) => [name, iterators[i]?.hash.digest("hex")]),
    );
    expect(actual).toEqual(EXPECTED);
  });
});
