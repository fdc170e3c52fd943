import { createWriteStream, existsSync, renameSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { RecordingCompletedInput } from "@vu/events";
import type { EventSource } from "../benchDataset";

/** The raw table's columns, in CSV order; every engine declares them in this order. */
export const RAW_COLUMNS = [
  "organization_id",
  "recording_id",
  "member_email",
  "voice_model",
  "language_model",
  "app_name",
  "recorded_at",
  "duration_ms",
  "word_count",
  "voice_processing_ms",
  "llm_processing_ms",
] as const;

const quote = (text: string) => `"${text.replaceAll('"', '""')}"`;
const optional = (n: number | null) => (n === null ? "" : String(n));

/**
 * One CSV line per event, in the form the worker stores it: the contract lower-cases member_email
 * on the way in, so the comparison would otherwise differ only by spelling. An unquoted empty
 * field is NULL (PostgreSQL's COPY, DuckDB and ClickHouse all read it so); text is always quoted,
 * so an empty string could not be.
 */
function csvLine(e: RecordingCompletedInput): string {
  return [
    quote(e.organization_id),
    quote(e.recording_id),
    quote(e.member_email.toLowerCase()),
    quote(e.voice_model),
    e.language_model === null ? "" : quote(e.language_model),
    quote(e.app_name),
    e.recorded_at,
    e.duration_ms,
    e.word_count,
    optional(e.voice_processing_ms),
    optional(e.llm_processing_ms),
  ].join(",");
}

/** The data set as CSV text in chunks of 5,000 lines; `onRows` hears the running count. */
export function* csvChunks(
  dataset: EventSource,
  onRows: (rows: number) => void = () => {},
): Generator<string> {
  let lines: string[] = [];
  let rows = 0;
  for (const event of dataset.events) {
    lines.push(csvLine(event));
    if (lines.length === 5000) {
      rows += lines.length;
      onRows(rows);
      yield `${lines.join("\n")}\n`;
      lines = [];
    }
  }
  if (lines.length > 0) yield `${lines.join("\n")}\n`;
}

/**
 * The data set written once to a CSV file (no header) for the embedded engines to load, the same
 * rows PostgreSQL copies. Written under a temporary name and renamed, so a crash leaves no half file.
 */
export async function rawEventsFile(dataset: EventSource, file: string): Promise<string> {
  if (existsSync(file)) return file;
  await pipeline(Readable.from(csvChunks(dataset)), createWriteStream(`${file}.partial`));
  renameSync(`${file}.partial`, file);
  return file;
}
