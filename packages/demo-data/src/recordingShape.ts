import type { Random } from "./random";

/**
 * The measured numbers of one recording. Durations are log-normal around 2½ minutes (most between
 * 10 s and 20 min, a tail up to 4 h) with a few exact zeros: clients do report empty recordings,
 * and a zero total duration is the contract's `avg_wpm = 0` edge.
 */
const ZERO_DURATION_RATE = 0.004;
const MEDIAN_DURATION_MS = 150_000;
const DURATION_SPREAD = 1.1;
const MIN_DURATION_MS = 1_000;
const MAX_DURATION_MS = 4 * 3_600_000;

/** Share of recordings whose voice processing time was not measured (older clients). */
const UNMEASURED_VOICE_RATE = 0.03;
const MIN_LLM_MS = 200;
const MAX_LLM_MS = 8_000;

export function drawDurationMs(random: Random): number {
  if (random.chance(ZERO_DURATION_RATE)) return 0;
  const duration = MEDIAN_DURATION_MS * Math.exp(DURATION_SPREAD * random.normal());
  return Math.round(Math.min(Math.max(duration, MIN_DURATION_MS), MAX_DURATION_MS));
}

/** The member's rate, varied by ±5 wpm per recording and kept within 120–170. */
export function drawWordCount(durationMs: number, wordsPerMinute: number, random: Random): number {
  const rate = Math.min(Math.max(wordsPerMinute + random.between(-5, 5), 120), 170);
  return Math.round((durationMs / 60_000) * rate);
}

/** 5–15 % of the audio's length, or null when not measured. */
export function drawVoiceProcessingMs(durationMs: number, random: Random): number | null {
  if (random.chance(UNMEASURED_VOICE_RATE)) return null;
  return Math.round(durationMs * random.between(0.05, 0.15));
}

/** Grows with the text the model reads, with noise, within 200 ms–8 s. */
export function drawLlmProcessingMs(wordCount: number, random: Random): number {
  const expected = 300 + wordCount * 1.5;
  const noisy = expected * Math.exp(0.3 * random.normal());
  return Math.round(Math.min(Math.max(noisy, MIN_LLM_MS), MAX_LLM_MS));
}
