import {
  DAY_MS,
  floorUtc,
  HOUR_MS,
  MINUTE_MS,
  nextUtc,
  type Retention,
  TIER_CODE,
  type Tier,
  WEEK_MS,
} from "@vu/time-buckets";

/**
 * Where a block's cells live: each organization's tier has a **placement**, which only ever moves
 * on, as the organization's recordings get denser in that tier (LAYOUT_RULE):
 * - `container`: blocks keep only their combination cells, and the blocks of one longer period
 *   share one container hash, each field led by the block's index (`<index>:<field>`). In a small
 *   organization a block holds a cell or two, which a key of its own would cost many times over.
 * - `keyed`: once a container would hold more than a few thousand recordings, each block gets one
 *   key of its combination cells, so a read of a short range walks no one else's cells.
 * - `projected`: once a block averages enough recordings that walking its combinations to find one
 *   total costs more than keeping the total, each block gets a key per projection (projections.ts).
 * A block may hold cells written under earlier placements: a read sums every place. The extent
 * keeps, per tier, the latest `recorded_at` counted when the placement last moved (its mark): a
 * block starting after it has cells in the current place only, so recent ranges read one key.
 *
 * Before all of these, weeks and months are `derived` in a new organization: not stored at all,
 * read as the sum of their days. While days are in containers, a year of days is one key, so a
 * week or a month read from its days reads the keys it would have read anyway and walks at most
 * the organization's own few recordings; a small organization so writes two cells per recording
 * fewer. They are stored (from `container` on) once the day tier leaves its containers; the
 * blocks that started by then (`derived:<code>`, the latest `recorded_at` counted before) are
 * still read from their days, which hold all their recordings, never from the tier's own cells.
 */
export type StoredTier = Exclude<Tier, "quarter">;
export const STORED_TIERS: readonly StoredTier[] = ["minute", "hour", "day", "week", "month"];

/** The period one container spans, and a block's index inside it. */
interface ContainerRule {
  /** The container's start for a block start (UTC). */
  start(blockStartMs: number): number;
  /** The next container's start. */
  end(containerStartMs: number): number;
  /** The block's index in its container: a short decimal in every field. */
  index(blockStartMs: number, containerStartMs: number): number;
}

const byLength = (blockMs: number) => (startMs: number, containerMs: number) =>
  Math.round((startMs - containerMs) / blockMs);

const utcYear = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear(), 0, 1);
const nextYear = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear() + 1, 0, 1);

/**
 * Periods sized so that a small organization's container collects many blocks (one key instead
 * of one per block: a key costs Redis more than the cell or two a small organization's block
 * holds) while a read of a short range still walks little besides what it asked for: a tier
 * leaves its containers once they would hold about as many recordings as `LAYOUT_RULE` allows
 * per `RULE_PERIOD_MS`, so a container holds at most a few thousand cells. Minutes are kept in
 * their UTC day, hours in their month, days in their year: four to twelve times longer than the
 * rule's periods, so a small organization's sparse blocks share few keys.
 */
const CONTAINERS: Readonly<Record<StoredTier, ContainerRule>> = {
  minute: { start: (ms) => floorUtc("day", ms), end: (ms) => ms + DAY_MS, index: byLength(MINUTE_MS) },
  hour: { start: (ms) => floorUtc("month", ms), end: (ms) => nextUtc("month", ms), index: byLength(HOUR_MS) },
  day: { start: utcYear, end: nextYear, index: byLength(DAY_MS) },
  week: { start: utcYear, end: nextYear, index: byLength(WEEK_MS) },
  month: { start: utcYear, end: nextYear, index: (ms) => new Date(ms).getUTCMonth() },
};

export interface ContainerPlace {
  /** The container's start (its key names it) and the next container's start. */
  startMs: number;
  endMs: number;
  /** The block's index in the container. */
  index: number;
  /** What leads each of the block's fields in the container: its index and FIELD_SEPARATOR. */
  prefix: string;
}

/** A block's place in its container (placement `container`). */
export function containerOf(tier: StoredTier, blockStartMs: number): ContainerPlace {
  const rule = CONTAINERS[tier];
  const startMs = rule.start(blockStartMs);
  const index = rule.index(blockStartMs, startMs);
  return { startMs, endMs: rule.end(startMs), index, prefix: `${index}${FIELD_SEPARATOR}` };
}

/** More than any container's block index: the minutes of a UTC day. */
export const MAX_BLOCKS_PER_CONTAINER = DAY_MS / MINUTE_MS;

/** A block's index in the container starting at `containerStartMs` (the one `containerOf` gives it). */
export function containerIndex(tier: StoredTier, blockStartMs: number, containerStartMs: number): number {
  return CONTAINERS[tier].index(blockStartMs, containerStartMs);
}

/** Ends a block's index in a container field; combination fields are digits only. */
export const FIELD_SEPARATOR = ":";

/** Where a tier's blocks are written, in the order a tier moves through them. */
export const PLACEMENTS = ["container", "keyed", "projected"] as const;
/** A tier's placement: one of PLACEMENTS, or not stored (read from the tier it is derived from). */
export type Placement = (typeof PLACEMENTS)[number] | "derived";
/** The layout digit of a `derived` tier; the others' digit is their index in PLACEMENTS. */
export const DERIVED_DIGIT = "d";

/**
 * The tiers a new organization does not store, and the tier each is read from: weeks and months
 * are whole days (UTC), and a year of days in containers is one key (CONTAINERS).
 */
export const DERIVED_FROM: Readonly<Partial<Record<StoredTier, StoredTier>>> = { week: "day", month: "day" };

/**
 * Whether new organizations start with their DERIVED_FROM tiers derived: only while days are kept
 * forever (no retention), as weeks and months are, since a derived block is only as lasting as
 * its days.
 */
export function derivesTiers(retention: Retention): boolean {
  return retention.day === null;
}

const rank = (placement: Placement) => (placement === "derived" ? -1 : PLACEMENTS.indexOf(placement));

/**
 * When a tier's placement moves on (checked by the apply script after each batch, with the
 * arguments of `layoutArguments`), for an organization that has counted at least `minRecordings`:
 * to `keyed` once its recordings average `perPeriod` per period of the tier (RULE_PERIOD_MS: an hour
 * for minutes, a week for hours, a month for days, a year for weeks and months) over the span of
 * its data (first to last `recorded_at`), to `projected` once they average `perBlock` per block.
 *
 * The span counts as at least `leastSpanMs`, a day. A placement never moves back, so a burst must
 * not pass for a rate: an organization whose first thousand recordings fall in its busiest half
 * hour (a data set or a backfill starting at a peak) averages over 32 a minute in that half hour, and
 * judged over it alone would keep six keys per minute block for good (a projected minute) where
 * its real rate of 17 a minute needs one. A day holds a whole cycle of busy and quiet hours.
 */
export const LAYOUT_RULE = {
  minRecordings: 1000,
  perPeriod: 256,
  perBlock: 32,
  leastSpanMs: DAY_MS,
} as const;

/**
 * Nominal block lengths, and the periods over which the rule counts recordings for `keyed` (a month
 * counts as 30 days, a year as 365). The rule's periods are not the containers' (CONTAINERS):
 * they set how dense a tier gets before each block takes a key of its own, which a longer
 * container need not change.
 */
const BLOCK_MS: Readonly<Record<StoredTier, number>> = {
  minute: MINUTE_MS,
  hour: HOUR_MS,
  day: DAY_MS,
  week: WEEK_MS,
  month: 30 * DAY_MS,
};
const RULE_PERIOD_MS: Readonly<Record<StoredTier, number>> = {
  minute: HOUR_MS,
  hour: WEEK_MS,
  day: 30 * DAY_MS,
  week: 365 * DAY_MS,
  month: 365 * DAY_MS,
};

/**
 * The placement the rule gives a tier that is at `current`, for an organization of `recordings`
 * recordings whose data spans `spanMs`; `source`, for a derived tier, is the placement the rule
 * gives the tier it derives from (a derived tier stays so while that one is in containers). The
 * apply script computes the same (write/lua/includes/settleLayout.lua).
 */
export function placementBy(
  tier: StoredTier,
  recordings: number,
  spanMs: number,
  current: Placement,
  source: Placement = "container",
): Placement {
  if (recordings < LAYOUT_RULE.minRecordings) return current;
  if (current === "derived" && source === "container") return current;
  const span = Math.max(spanMs, LAYOUT_RULE.leastSpanMs);
  const averages = (periodMs: number, least: number) =>
    recordings * periodMs >= least * Math.max(span, periodMs);
  const reached: Placement = averages(BLOCK_MS[tier], LAYOUT_RULE.perBlock)
    ? "projected"
    : averages(RULE_PERIOD_MS[tier], LAYOUT_RULE.perPeriod)
      ? "keyed"
      : "container";
  return rank(reached) > rank(current) ? reached : current;
}

/** The rule's thresholds, in the order the apply script's argument gives them (`layoutArguments`). */
export const RULE_THRESHOLD_WORDS = [
  "minRecordings",
  "perPeriod",
  "perBlock",
  "leastSpanMs",
] as const satisfies ReadonlyArray<keyof typeof LAYOUT_RULE>;
/**
 * What the argument gives after the thresholds for each tier, in STORED_TIERS order: its code,
 * block ms, period ms and the 1-based position in STORED_TIERS of the tier it is derived from in a
 * new organization (0: stored from the start).
 */
export const RULE_TIER_WORDS = ["code", "blockMs", "periodMs", "from"] as const;

/** The rule as the apply script's argument: RULE_THRESHOLD_WORDS, then RULE_TIER_WORDS per tier. */
export function layoutArguments(retention: Retention): string {
  const derives = derivesTiers(retention);
  const tierWords = (t: StoredTier) => {
    const source = DERIVED_FROM[t];
    const words: Record<(typeof RULE_TIER_WORDS)[number], string | number> = {
      code: TIER_CODE[t],
      blockMs: BLOCK_MS[t],
      periodMs: RULE_PERIOD_MS[t],
      from: derives && source !== undefined ? STORED_TIERS.indexOf(source) + 1 : 0,
    };
    return RULE_TIER_WORDS.map((word) => words[word]);
  };
  return [...RULE_THRESHOLD_WORDS.map((word) => LAYOUT_RULE[word]), ...STORED_TIERS.flatMap(tierWords)].join(
    " ",
  );
}

/**
 * An organization's layout: each stored tier's placement and marks. Spelled in the extent as
 * `layout`, one digit per tier in STORED_TIERS order (the index in PLACEMENTS, or DERIVED_DIGIT;
 * missing: every tier in containers, none derived, the layout of an extent that counted recordings
 * without writing one; docs/decisions/0021-derived-weeks-and-months.md),
 * `mark:<tier code>` and `derived:<tier code>`.
 */
export interface OrgLayout {
  /** The `layout` field as stored (what the apply script compares a batch's layout with). */
  code: string;
  placement: Readonly<Record<StoredTier, Placement>>;
  /** Per tier: the latest `recorded_at` counted when its placement last moved; null: never moved. */
  marks: Readonly<Record<StoredTier, number | null>>;
  /**
   * Per tier: the latest `recorded_at` counted when it stopped being derived (its blocks that
   * started by then are read from the tier they derive from); null: never derived with data.
   */
  derivedUntil: Readonly<Record<StoredTier, number | null>>;
}

/** The extent's fields that spell the layout, in the order `parseLayout` takes their values. */
export const LAYOUT_FIELDS = [
  "layout",
  ...STORED_TIERS.map((t) => `mark:${TIER_CODE[t]}`),
  ...STORED_TIERS.map((t) => `derived:${TIER_CODE[t]}`),
] as const;

/** Every tier in containers: what an extent without a `layout` field (or a `""` layout) stands for. */
export const INITIAL_LAYOUT_CODE = "0".repeat(STORED_TIERS.length);

const digitOf = (placement: Placement) =>
  placement === "derived" ? DERIVED_DIGIT : String(PLACEMENTS.indexOf(placement));

const placementOf = (digit: string | undefined): Placement =>
  digit === DERIVED_DIGIT ? "derived" : (PLACEMENTS[Number(digit ?? "0")] ?? "container");

/** An organization's layout from the values of LAYOUT_FIELDS (as HMGET returns them). */
export function parseLayout(values: ReadonlyArray<string | null | undefined>): OrgLayout {
  const [stored] = values;
  const code = stored ?? INITIAL_LAYOUT_CODE;
  const placement = {} as Record<StoredTier, Placement>;
  const marks = {} as Record<StoredTier, number | null>;
  const derivedUntil = {} as Record<StoredTier, number | null>;
  const numberAt = (i: number) => {
    const value = values[i];
    return value == null ? null : Number(value);
  };
  STORED_TIERS.forEach((tier, i) => {
    placement[tier] = placementOf(code[i]);
    marks[tier] = numberAt(1 + i);
    derivedUntil[tier] = numberAt(1 + STORED_TIERS.length + i);
  });
  return { code, placement, marks, derivedUntil };
}

/**
 * The layout the rule gives an organization of `recordings` recordings spanning `spanMs`, from a
 * new organization's (derived tiers when `derives`, else containers): what a writer assumes for an
 * organization it knows nothing of, judging by its first batch. The apply script accepts it when
 * the rule, with the batch counted, agrees.
 */
export function layoutOf(recordings: number, spanMs: number, derives: boolean): OrgLayout {
  const settled = {} as Record<StoredTier, Placement>;
  for (const tier of STORED_TIERS) {
    const source = DERIVED_FROM[tier];
    const start: Placement = derives && source !== undefined ? "derived" : "container";
    settled[tier] = placementBy(tier, recordings, spanMs, start, source && settled[source]);
  }
  return parseLayout([STORED_TIERS.map((tier) => digitOf(settled[tier])).join("")]);
}
