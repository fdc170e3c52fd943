import type { RecordingCompletedInput } from "@vu/events";
import { containerOf } from "@vu/store/cell-format";
import type { Random } from "../support/random";
import { type HostileKind, hostileMessages, type PoisonedMinute } from "./hostile";
import { malformedMessage } from "./malformed";
import { createTimeDrawer, DAY_MS, formatRecordedAt } from "./timeline";
import { buildVocabularies, emailAsSent, type OrgVocabulary } from "./vocabulary";

/** One Kafka message of the workload, in production order. */
export interface WorkloadMessage {
  /** The message key: the organization id, as the contract's producer keys it. */
  key: string;
  /** Sent through createRecordingProducer (validated); otherwise raw through kafkajs. */
  viaContractProducer: boolean;
  /** The text (or bytes) sent raw; null for a tombstone. Unused for contract-producer messages. */
  raw: string | Buffer | null;
  /** The event when the message is a valid one (counted unless too far ahead or a repeat). */
  event: RecordingCompletedInput | null;
  /** A hostile message's expected dead-letter reason kind ("apply_failed": valid, refused by the store). */
  hostile?: Exclude<HostileKind, null>;
}

export interface Workload {
  seed: number;
  /** The moment the workload is built around ("now" when it was generated). */
  anchorMs: number;
  organizations: OrgVocabulary[];
  messages: WorkloadMessage[];
  /** Rollup minutes the test must make unwritable before ingest (hostile workloads only). */
  poisoned: PoisonedMinute[];
}

export interface WorkloadOptions {
  seed: number;
  random: Random;
  anchorMs: number;
  organizations: number;
  /** Valid first copies; repeats, far-future and malformed messages come on top (a few percent). */
  events: number;
  /** Given organizations instead of drawn ones (then `organizations` is ignored). */
  vocabularies?: OrgVocabulary[];
  /** Mix in what a broken producer sends, and events a damaged store refuses (see hostile.ts). */
  hostile?: boolean;
}

function drawEvent(org: OrgVocabulary, id: string, atMs: number, random: Random): RecordingCompletedInput {
  const languageModel = random.pick(org.languageModels);
  const durationMs = random.chance(0.05) ? 0 : Math.round(Math.exp(random.float() * Math.log(7_200_000)));
  const wordCount = random.chance(0.03) ? 0 : Math.round((durationMs / 60_000) * random.int(60, 190));
  return {
    schema_version: 1,
    recording_id: id,
    organization_id: org.id,
    member_email: emailAsSent(random.pick(org.members), random),
    voice_model: random.pick(org.voiceModels),
    language_model: languageModel,
    app_name: random.pick(org.apps),
    recorded_at: formatRecordedAt(atMs, random),
    duration_ms: durationMs,
    word_count: wordCount,
    voice_processing_ms: random.chance(0.1) ? null : random.int(0, Math.floor(durationMs / 3) + 900),
    llm_processing_ms: languageModel === null || random.chance(0.08) ? null : random.int(80, 30_000),
  };
}

const viaProducer = (event: RecordingCompletedInput): WorkloadMessage => ({
  key: event.organization_id,
  viaContractProducer: true,
  raw: null,
  event,
});

/**
 * The seeded workload: valid events in random time order (late events are normal), then on top of
 * them corrected and identical repeats of some recordings, far-future events, malformed messages
 * (some carrying the id of a later valid event), valid raw events with unknown fields and
 * upper-case e-mails, and recording ids shared across organizations (distinct recordings).
 * Messages are placed by a position in the stream and sorted once at the end.
 */
export function generateWorkload(options: WorkloadOptions): Workload {
  const { random, anchorMs } = options;
  const organizations =
    options.vocabularies ?? buildVocabularies(options.organizations, random.fork("vocabulary"));
  const times = createTimeDrawer(anchorMs, random.fork("times"));
  const weights = organizations.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  // Skewed sizes: the first organization is the largest.
  const pickOrg = () => {
    let roll = random.float() * total;
    for (const [i, w] of weights.entries()) {
      roll -= w;
      if (roll < 0) return organizations[i] as OrgVocabulary;
    }
    return organizations[0] as OrgVocabulary;
  };
  const orgOf = (id: string) => organizations.find((o) => o.id === id) ?? pickOrg();

  const base: RecordingCompletedInput[] = [];
  for (let n = 0; n < options.events; n++) {
    const org = pickOrg();
    const at = random.chance(0.02) ? times.nearFuture() : times.past();
    base.push(drawEvent(org, `rec-${n}`, at, random));
    // The same id in another organization: a different recording, counted in both.
    const other = organizations[(organizations.indexOf(org) + 1) % organizations.length];
    if (random.chance(0.01) && other && other !== org)
      base.push(drawEvent(other, `rec-${n}`, times.past(), random));
  }
  const placed: Array<{ at: number; message: WorkloadMessage }> = base.map((event, i) => ({
    at: i,
    message: viaProducer(event),
  }));
  const end = base.length;

  // Repeats: corrected values (ignored: the first copy stands) or identical resends, right after
  // the first copy or anywhere later.
  for (let r = Math.ceil(end * 0.04); r > 0; r--) {
    const index = random.int(0, end - 1);
    const first = base[index];
    if (!first) continue;
    const org = orgOf(first.organization_id);
    const copy = random.chance(0.25)
      ? { ...first }
      : { ...drawEvent(org, first.recording_id, times.past(), random), app_name: random.pick(org.apps) };
    placed.push({
      at: random.chance(0.3) ? index + 0.5 : random.int(index + 1, end),
      message: viaProducer(copy),
    });
  }

  // Never counted: valid by the schema but more than 24 h ahead (dead-lettered by the worker), or
  // broken (sent raw: the contract's producer refuses it). Half carry the id of a valid event
  // further down the stream, which must then count as usual.
  for (let b = Math.ceil(options.events * 0.015); b > 0; b--) {
    const index = random.int(0, end - 1);
    const later = base[random.int(index, Math.min(end - 1, index + 50))];
    const org = later && random.chance(0.5) ? orgOf(later.organization_id) : pickOrg();
    const id = later && later.organization_id === org.id ? later.recording_id : `bad-${b}`;
    const template = drawEvent(org, id, times.past(), random);
    const message: WorkloadMessage = random.chance(0.3)
      ? viaProducer({ ...template, recorded_at: new Date(times.farFuture()).toISOString() })
      : { key: org.id, viaContractProducer: false, raw: malformedMessage(template, random), event: null };
    placed.push({ at: index - 0.5, message });
  }

  // Valid events from a contract-unaware producer: unknown fields, upper-case e-mail, unique ids.
  for (let x = Math.ceil(options.events * 0.01); x > 0; x--) {
    const event = drawEvent(pickOrg(), `raw-${x}`, times.past(), random);
    const sent = { ...event, member_email: event.member_email.toUpperCase(), client: { v: 2 }, tags: ["x"] };
    placed.push({
      at: random.int(0, end) - 0.25,
      message: { key: event.organization_id, viaContractProducer: false, raw: JSON.stringify(sent), event },
    });
  }

  const poisoned = options.hostile ? placeHostile(base, placed, random.fork("hostile"), anchorMs) : [];

  // A stable sort keeps the order in which equal positions were placed.
  placed.sort((a, b) => a.at - b.at);
  return { seed: options.seed, anchorMs, organizations, messages: placed.map((p) => p.message), poisoned };
}

type Placed = Array<{ at: number; message: WorkloadMessage }>;

/**
 * Hostile messages at random places among the valid ones, and one poisoned minute per
 * organization (inside the minute retention, in a minute the organization has no other event,
 * so only the events meant for it are refused) holding a few events with ids of their own.
 */
function placeHostile(base: RecordingCompletedInput[], placed: Placed, random: Random, anchorMs: number) {
  const poisoned: PoisonedMinute[] = [];
  const orgs = [...new Set(base.map((e) => e.organization_id))];
  for (const org of orgs) {
    const templates = base.filter((e) => e.organization_id === org);
    for (let n = 0; n < 2; n++) {
      const template = random.pick(templates);
      for (const hostile of hostileMessages(template, random)) {
        const message: WorkloadMessage = {
          key: org,
          viaContractProducer: false,
          raw: hostile.raw,
          event: hostile.event,
        };
        if (hostile.kind !== null) message.hostile = hostile.kind;
        placed.push({ at: random.int(0, base.length) - 0.75, message });
      }
    }
    // The minute's whole container (its UTC day) is free of the organization's other
    // events: a sparse tier keeps those minutes together, and the test damages the container too.
    // Within the minute retention; an organization busy every day of it gets no poisoned minute.
    const taken = new Set(
      placed
        .map((p) => p.message.event)
        .filter((e) => e?.organization_id === org)
        .map((e) => minuteContainer(Date.parse(e?.recorded_at ?? ""))),
    );
    let minute = Math.floor((anchorMs - 2 * DAY_MS) / 60_000) - random.int(0, 600);
    for (let days = 0; days < 30 && taken.has(minuteContainer(minute * 60_000)); days++) minute -= 24 * 60;
    if (taken.has(minuteContainer(minute * 60_000))) continue;
    poisoned.push({ org, minuteMs: minute * 60_000 });
    for (let d = 0; d < 3; d++) {
      const event = {
        ...random.pick(templates),
        recording_id: `doomed-${d}`,
        recorded_at: new Date(minute * 60_000 + d * 7_000).toISOString(),
      };
      placed.push({
        at: random.int(0, base.length) - 0.75,
        message: { ...viaProducer(event), hostile: "apply_failed" },
      });
    }
  }
  return poisoned;
}

const minuteContainer = (ms: number) => containerOf("minute", ms).startMs;

/** How long after the anchor the worker still accepts a `recorded_at` (docs/contract.md §1: 24 hours). */
export function acceptedUntil(workload: Workload): number {
  return workload.anchorMs + DAY_MS;
}
