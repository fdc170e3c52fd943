/**
 * The raw material profiles are drawn from. Names are ASCII transliterations (Müller → Mueller)
 * because they become e-mail local parts; the Unicode lives in the app names.
 */

/** A table of single-word names, written packed (any white space between names), in order. */
function nameTable(text: string): readonly string[] {
  return text.trim().split(/\s+/);
}

// Names are single words (Nguyen-Tran, Van-der-Berg): each table is split on white space.
export const FIRST_NAMES = nameTable(`
  Anna Lukas Sophie Jonas Marie Felix Leonie Paul Hannah Maximilian
  Emma Elias Mia Noah Lena Ben Clara Finn Ida Jakob
  Olivia Liam Ava Ethan Isabella Mason Emily Lucas Grace James
  Priya Arjun Ananya Rohan Kavya Vikram Aditi Rahul Sneha Karthik
  Yuki Haruto Sakura Kenji Aiko Chen Mei Wei Lucia Mateo
  Sofia Diego Camila Amara Kwame Zeynep Emre Ingrid Sven Aoife
`);

export const LAST_NAMES = nameTable(`
  Mueller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann
  Koch Richter Klein Wolf Schroeder Neumann Schwarz Braun Zimmermann Krueger
  Smith Johnson Williams Brown Jones Miller Davis Wilson Anderson Taylor
  Sharma Patel Iyer Reddy Nair Gupta Menon Rao Kapoor Banerjee
  Tanaka Suzuki Watanabe Garcia Rodriguez Lopez Nguyen-Tran O'Brien Kowalski Novak
  Yilmaz Okafor Mensah Larsen Johansson Dubois Rossi Silva Kim Van-der-Berg
`);

/** The apps every small organization uses: common names plus the Unicode and CSV edge cases. */
export const CORE_APPS = [
  "Zoom",
  "Microsoft Teams",
  "Bürokratie-Assistent",
  "日本語メモ",
  "Ärztebrief",
  'Notes, "quoted"',
] as const;

/**
 * Further apps for large organizations. Some start with `=`, `+`, `-` or `@` (CSV formula injection,
 * docs/contract.md §5), one lies beyond U+FFFF (byte order differs from UTF-16 order, §2), one differs from
 * another only in case.
 */
// biome-ignore format: a name list reads better packed than one entry per line
export const MORE_APPS = [
  "Slack", "Google Meet", "Webex", "Outlook", "Microsoft Word", "Notion", "Obsidian", "Confluence",
  "Jira", "Salesforce", "HubSpot", "Zendesk", "Epic EHR", "SAP Business One", "DATEV", "Lexware",
  "Evernote", "OneNote", "Apple Notes", "Google Docs", "Diktat Pro", "Protokoll-Generator",
  "Éditeur de texte", "Señal Notas", "Ωmega Dictation", "Привет Заметки", "메모장", "笔记本",
  "🎙️ Voice Memos", "=Formel-Rechner", "+Plus Diktat", "-Minus Notes", "@Mention Bot", "zoom",
] as const;

export const VOICE_MODELS = [
  "whisper-large-v3",
  "vu-voice-2025-01",
  "whisper-medium",
  "parakeet-tdt-1.1b",
  "vu-voice-2024-06",
  "nova-2-general",
] as const;

export const LANGUAGE_MODELS = [
  "gpt-4o-mini",
  "claude-3-5-sonnet",
  "gpt-4o",
  "llama-3.1-70b-instruct",
  "mistral-large-2",
  "gemini-1.5-pro",
  "vu-summarizer-2",
] as const;

/** Member home zones: one without DST and two that change on different dates (EU vs US). */
export const HOME_TIME_ZONES = ["Europe/Berlin", "America/New_York", "Asia/Kolkata"] as const;
export type HomeTimeZone = (typeof HOME_TIME_ZONES)[number];
