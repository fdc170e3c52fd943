import type { OrganizationExtent } from "../format/organizationExtent";
import { BoundedMemo } from "./boundedMemo";

/** How long a read extent serves as a planning hint (see `RollupReader.recentExtent`). */
export const EXTENT_HINT_MS = 5_000;

/** Keys whose size a reader remembers (a few dozen containers per small organization, a large one's hours). */
const MAX_REMEMBERED_KEYS = 50_000;

/** An organization's layout fields as a read found them (LAYOUT_FIELDS of blockPlacement.ts). */
export type LayoutFields = ReadonlyArray<string | null>;

/**
 * What a reader learnt of each organization at its last read, keyed by generation and
 * organization: hints that save a round trip or plan the next read, each checked against what that
 * read returns, never trusted for an answer.
 */
export class OrganizationHints {
  readonly #extents = new BoundedMemo<{ extent: OrganizationExtent; at: number }>();
  /** The layout at the last read: what the next read assumes. */
  readonly #layouts = new BoundedMemo<LayoutFields>();
  /**
   * The recordings counted at the last read, or at the last read of the write stamp (which an API
   * request sends as it starts): what bounds the fields a read's keys hold (`fieldsAtMost`).
   */
  readonly #recordings = new BoundedMemo<{ n: number; at: number }>();
  /**
   * Per key read whole, its fields when a read last fetched it, with the organization's recordings
   * then: what a read weighs when it chooses which containers to read (dayHours.ts), and a bound on
   * its size now (a recording adds at most one field to a key), so that a read whose keys are known
   * to be small asks no HLEN first.
   */
  readonly #fields = new BoundedMemo<{ fields: number; n: number }>(MAX_REMEMBERED_KEYS);
  /**
   * Organizations whose extent, at their last listing, said their dimension values are their
   * combination table's (DIMENSIONS_FROM_COMBOS): the next listing reads the table at once.
   */
  readonly #valuesFromCombos = new BoundedMemo<true>();

  constructor(private readonly now: () => number) {}

  rememberExtent(generation: number, org: string, extent: OrganizationExtent): OrganizationExtent {
    this.#extents.set(hintKey(generation, org), { extent, at: this.now() });
    return extent;
  }

  /** The extent last read, while at most EXTENT_HINT_MS old. */
  recentExtent(generation: number, org: string): OrganizationExtent | undefined {
    const hint = this.#extents.get(hintKey(generation, org));
    return hint !== undefined && this.now() - hint.at <= EXTENT_HINT_MS ? hint.extent : undefined;
  }

  layout(generation: number, org: string): LayoutFields | undefined {
    return this.#layouts.get(hintKey(generation, org));
  }

  rememberLayout(generation: number, org: string, layout: LayoutFields): void {
    this.#layouts.set(hintKey(generation, org), layout);
  }

  /** The recordings counted at the last read, while at most EXTENT_HINT_MS old. */
  recentRecordings(generation: number, org: string): number | undefined {
    const hint = this.#recordings.get(hintKey(generation, org));
    return hint !== undefined && this.now() - hint.at <= EXTENT_HINT_MS ? hint.n : undefined;
  }

  rememberRecordings(generation: number, org: string, n: number): void {
    this.#recordings.set(hintKey(generation, org), { n, at: this.now() });
  }

  /** The recordings counted at the last read, however old: a scale for estimates, never a bound. */
  lastRecordings(generation: number, org: string): number | undefined {
    return this.#recordings.get(hintKey(generation, org))?.n;
  }

  /** The extent last read, however old: a scale for estimates. */
  lastExtent(generation: number, org: string): OrganizationExtent | undefined {
    return this.#extents.get(hintKey(generation, org))?.extent;
  }

  /** A key's fields as a read found them, when the organization had counted `n` recordings. */
  rememberFields(key: string, fields: number, n: number): void {
    this.#fields.set(key, { fields, n });
  }

  /** The key's fields when last read; undefined if no read remembers it. */
  fields(key: string): number | undefined {
    return this.#fields.get(key)?.fields;
  }

  /**
   * At most how many fields `keys` hold together once the organization has counted `n`
   * recordings: what each held when last read, plus what the recordings counted since may have
   * added. A recording adds at most one field to one key in each of `placesPerRecording` places
   * (per tier read, the one key its block is written to; its sketch key beside), so together the
   * keys gain at most that many fields per recording. A key no read remembers holds at most `n`.
   */
  fieldsAtMost(keys: Iterable<string>, n: number, placesPerRecording: number): number {
    let fields = 0;
    let since = 0;
    for (const key of keys) {
      const known = this.#fields.get(key);
      if (known === undefined) fields += n;
      else {
        fields += known.fields;
        since = Math.max(since, n - known.n);
      }
    }
    return fields + since * placesPerRecording;
  }

  /** Whether the last listing of the organization's dimension values found them in its combination table. */
  valuesFromCombos(generation: number, org: string): boolean {
    return this.#valuesFromCombos.get(hintKey(generation, org)) === true;
  }

  rememberValuesFromCombos(generation: number, org: string): void {
    this.#valuesFromCombos.set(hintKey(generation, org), true);
  }

  /** The organization keeps its dimension sets now (the mark never comes back). */
  forgetValuesFromCombos(generation: number, org: string): void {
    this.#valuesFromCombos.delete(hintKey(generation, org));
  }

  /** Forgets every hint (they described another state of the store). */
  clear(): void {
    this.#extents.clear();
    this.#layouts.clear();
    this.#recordings.clear();
    this.#fields.clear();
    this.#valuesFromCombos.clear();
  }
}

const hintKey = (generation: number, org: string) => `${generation}:${org}`;
