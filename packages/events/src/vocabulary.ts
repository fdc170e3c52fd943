// The vocabulary of a recording: its dimensions, declared once. No imports, so that browser code
// (the dashboard) takes it through `@vu/events/vocabulary` without zod or kafkajs.

/**
 * The dimensions a recording is filtered and grouped by, in their fixed order: the one definition
 * of that order. Combination tuples, projection views, the apply script's dimension-set keys (its
 * constants are generated from this list: packages/store/src/luaConstants.ts), the query API's
 * filters, the published rows, the dashboard's controls and the tests' oracle and workload all
 * derive from it.
 */
export const DIMENSIONS = ["member_email", "voice_model", "language_model", "app_name"] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** A recording's dimension values in `DIMENSIONS` order (null: no language model). */
export type DimensionValues = readonly [
  memberEmail: string,
  voiceModel: string,
  languageModel: string | null,
  appName: string,
];

/** Each dimension's position in `DIMENSIONS` (and so in `DimensionValues`). */
export const DIMENSION_INDEX = Object.fromEntries(DIMENSIONS.map((d, i) => [d, i])) as Readonly<
  Record<Dimension, 0 | 1 | 2 | 3>
>;
