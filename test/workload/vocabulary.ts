import type { Random } from "../support/random";

/** What one organization's recordings are drawn from. */
export interface OrgVocabulary {
  id: string;
  /** Lower-case, as the service stores them; the workload sends some in other cases. */
  members: string[];
  voiceModels: string[];
  /** `null`: recordings where no language model ran. */
  languageModels: Array<string | null>;
  apps: string[];
}

/** Organization ids use every character the contract allows: letters, digits and . _ : - */
const ORG_IDS = ["org-alpha", "beta.example", "gamma:eu", "delta_42", "Epsilon-X", "zeta.9"] as const;

const LOCAL_PARTS = [
  "ada.lovelace",
  "grace_hopper",
  "o'brien",
  "-dash",
  "+plus",
  "lin.yu",
  "mueller.ana",
  "priya.iyer",
  "kenji",
  "sven.larsen",
  "camila.silva",
  "noah",
] as const;

const VOICE_MODELS = [
  "whisper-large-v3",
  "vu-voice-2025-01",
  "whisper-medium",
  "parakeet-tdt-1.1b",
  "Voice Ω",
];
const LANGUAGE_MODELS = ["gpt-4o-mini", "claude-3-5-sonnet", "gpt-4o", "llama-3.1-70b", "vu-summarizer-2"];

/**
 * App names that break naive code: a comma and quotes (CSV quoting), formula starters (= - @ + and
 * a tab: CSV injection guard), non-ASCII, characters beyond U+FFFF next to U+FF5E (byte order
 * differs from UTF-16 order), two names differing only in case, and a line break.
 */
export const EDGE_APPS = [
  "Zoom",
  "zoom",
  "Microsoft Teams",
  'Notes, "quoted"',
  "日本語メモ",
  "Ärztebrief",
  "=SUM(1)",
  "-x",
  "@y",
  "+1 Dialer",
  "\tTabbed",
  "\uFF5EWave",
  "🎙️ Voice Memos",
  "𝔘nicode Notes",
  "Line\nBreak",
] as const;

export function buildVocabularies(count: number, random: Random): OrgVocabulary[] {
  return ORG_IDS.slice(0, count).map((id, index) => {
    const domain = `${id.replace(/[^A-Za-z0-9]/g, "").toLowerCase()}.example.com`;
    const members = random.some(LOCAL_PARTS, 9).map((local) => `${local}@${domain}`);
    // The first organization always has every edge-case app, the others a random share of them.
    const apps = index === 0 ? [...EDGE_APPS] : random.some(EDGE_APPS, 10);
    const languageModels: Array<string | null> = [...random.some(LANGUAGE_MODELS, 3), null];
    return { id, members, voiceModels: random.some(VOICE_MODELS, 3), languageModels, apps };
  });
}

/** The address as a client might send it: sometimes with upper-case letters (compared lower-cased). */
export function emailAsSent(email: string, random: Random): string {
  if (!random.chance(0.2)) return email;
  return [...email].map((c) => (random.chance(0.5) ? c.toUpperCase() : c)).join("");
}
