// The three operations' answers, as the seed document describes them (and CONTRACT.md completes).
import type { Dimension } from "../state/vocabulary";

export interface Dimensions {
  voice_models: string[];
  language_models: string[];
  app_names: string[];
}

export interface Summary {
  total_recordings: number;
  total_duration_minutes: number;
  total_words: number;
  avg_llm_processing_seconds: number;
  avg_voice_processing_seconds: number;
}

/** A row of `/stats`; grouped rows carry the group's value under the dimension's name. */
export type StatsRow = {
  time_bucket: string;
  recording_count: number;
  total_words: number;
  total_duration: number;
  avg_llm_processing_time: number;
  avg_voice_processing_time: number;
  avg_wpm: number;
} & { [D in Dimension]?: string | null };

export interface StatsPage {
  data: StatsRow[];
  pagination: { page: number; page_size: number; total_rows: number; total_pages: number; count: number };
  meta: {
    start_date: string;
    end_date: string;
    granularity: string;
    group_by: string | null;
    timezone?: string;
  };
}

/** RFC 9457 problem details, with the 400's parameter list (CONTRACT §3). */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  errors?: { parameter: string; message: string }[];
}
