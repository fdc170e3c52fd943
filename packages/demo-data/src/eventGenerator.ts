import type { RecordingCompletedInput } from "@vu/events";
import type { OrganizationProfile } from "./organizationProfile";
import { createOrganizationSampler } from "./organizationSampler";
import { createRandom, deriveSeed } from "./random";
import { drawDurationMs, drawLlmProcessingMs, drawVoiceProcessingMs, drawWordCount } from "./recordingShape";
import { createTimeline } from "./timeline";

export interface GenerateEventsOptions {
  profile: OrganizationProfile;
  /** 32-bit integer; the same options always yield the same events. */
  seed: number;
  /** Events are recorded in [fromMs, toMs). */
  fromMs: number;
  toMs: number;
  count: number;
  /**
   * `recording_id` is `${idPrefix}-${n}` (n = 0, 1, …); default `rec-${seed}`. Two calls with the
   * same prefix produce the same ids, which the ingest deduplicates: give runs meant to add up
   * distinct prefixes (or seeds).
   */
  idPrefix?: string;
}

/** Leaves room for `-` and a counter within the contract's 128 characters. */
const MAX_ID_PREFIX_LENGTH = 100;

/**
 * `count` seeded, realistic `recording.completed` events for one organization, in order of
 * `recorded_at`. Lazy: events are made while iterated, so ten million stream in constant memory.
 * Each iteration starts afresh and yields the same events.
 */
export function generateEvents(options: GenerateEventsOptions): Iterable<RecordingCompletedInput> {
  validate(options);
  return { [Symbol.iterator]: () => streamEvents(options) };
}

function* streamEvents({
  profile,
  seed,
  fromMs,
  toMs,
  count,
  idPrefix = `rec-${seed}`,
}: GenerateEventsOptions): Generator<RecordingCompletedInput, void, undefined> {
  const random = createRandom(deriveSeed(seed, `events:${profile.organizationId}`));
  const sampler = createOrganizationSampler(profile, random);
  const timeline = createTimeline({ fromMs, toMs, zones: sampler.zones });
  let position = 0;
  for (let n = 0; n < count; n++) {
    position = nextSortedUniform(position, count - n, random.float());
    const recordedAtMs = timeline.advance(position);
    const { email, traits } = sampler.pickMember(timeline.pickZone(random.float()));
    const languageModel = sampler.pickLanguageModel(traits);
    const durationMs = drawDurationMs(random);
    const wordCount = drawWordCount(durationMs, traits.wordsPerMinute, random);
    yield {
      schema_version: 1,
      recording_id: `${idPrefix}-${n}`,
      organization_id: profile.organizationId,
      member_email: email,
      voice_model: sampler.pickVoiceModel(traits),
      language_model: languageModel,
      app_name: sampler.pickApp(traits),
      recorded_at: new Date(recordedAtMs).toISOString(),
      duration_ms: durationMs,
      word_count: wordCount,
      voice_processing_ms: drawVoiceProcessingMs(durationMs, random),
      llm_processing_ms: languageModel === null ? null : drawLlmProcessingMs(wordCount, random),
    };
  }
}

/**
 * The next of `remaining` sorted uniform draws after `previous`: the minimum of `remaining`
 * uniforms on [previous, 1), whose CDF inverts in closed form. Sorting without storing is what lets
 * a stream of millions come out in time order.
 */
function nextSortedUniform(previous: number, remaining: number, uniform: number): number {
  // 1 - (1 - u)^(1/remaining), written with expm1/log so it stays accurate when remaining is huge.
  return previous + (1 - previous) * -Math.expm1(Math.log1p(-uniform) / remaining);
}

function validate({ fromMs, toMs, count, idPrefix }: GenerateEventsOptions): void {
  if (!(Number.isFinite(fromMs) && Number.isFinite(toMs) && fromMs < toMs)) {
    throw new RangeError(`need fromMs < toMs, got [${fromMs}, ${toMs})`);
  }
  if (!(Number.isSafeInteger(count) && count >= 0)) {
    throw new RangeError(`count must be a non-negative integer, got ${count}`);
  }
  if (idPrefix !== undefined && (idPrefix.length === 0 || idPrefix.length > MAX_ID_PREFIX_LENGTH)) {
    throw new RangeError(`idPrefix must have 1–${MAX_ID_PREFIX_LENGTH} characters`);
  }
}
