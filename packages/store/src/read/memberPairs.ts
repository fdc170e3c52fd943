import { SUM_FIELDS } from "../format/sums";
import type { CellAccumulator } from "./cellAccumulator";
import type { SketchAccumulator } from "./sketchAccumulator";
import type { BucketSumsSink } from "./sumsQuestion";

const WIDTH = SUM_FIELDS.length;

/**
 * docs/contract.md §9 `include=active_members`. The store keeps no set of members per block, only
 * sums per combination (or per member, in the members' projection), and a combination names its
 * member. So a question counting members sums its cells per (group, member) pair instead of per
 * group: a pair whose count nets above zero in a bucket (blocks added and subtracted, exact
 * integers) is a member with a recording in that (bucket, group), and the group's sums are its
 * pairs' sums added up. Pairs are numbered as first seen, once per distinct stored field (the
 * classifier caches them, fieldClasses.ts), so a cell costs what it costs without members.
 */
export class MemberPairs {
  /** Per pair, its group (the question's number for it) and its member (this table's member number). */
  groupOf = new Int32Array(256);
  memberOf = new Int32Array(256);
  private length = 0;
  private readonly members = new Map<string, number>();
  private readonly pairs = new Map<string, number>();

  /** The pair of `group` and the member with address `member`. */
  indexOf(group: number, member: string): number {
    let id = this.members.get(member);
    if (id === undefined) {
      id = this.members.size;
      this.members.set(member, id);
    }
    const key = `${group}:${id}`;
    let pair = this.pairs.get(key);
    if (pair === undefined) {
      pair = this.length++;
      if (pair >= this.groupOf.length) this.grow();
      this.groupOf[pair] = group;
      this.memberOf[pair] = id;
      this.pairs.set(key, pair);
    }
    return pair;
  }

  private grow(): void {
    const size = 2 * this.groupOf.length;
    const groupOf = new Int32Array(size);
    groupOf.set(this.groupOf);
    this.groupOf = groupOf;
    const memberOf = new Int32Array(size);
    memberOf.set(this.memberOf);
    this.memberOf = memberOf;
  }
}

/**
 * Folds one bucket's pairs into its groups: per group, the sums of its pairs with recordings and
 * their members (and with `sketches`, the group's sketch, summed per group already). Hands `bucket`'s sums and members of each such group to `into`, then
 * `accumulator` (summed per pair) starts empty. Groups and members are counted in arrays: no
 * object per group.
 */
export function createPairFolding(pairs: MemberPairs, sketches?: SketchAccumulator) {
  let sums = new Float64Array(WIDTH * 64);
  /** Per group: its pairs with recordings in the bucket, then where its members end in the list. */
  let counts = new Int32Array(64);
  let cursor = new Int32Array(64);
  const groups: number[] = [];
  /** The bucket's pairs with recordings, as (group, member) twice per pair. */
  let listed = new Int32Array(128);

  const ensure = (group: number) => {
    if (group < counts.length) return;
    const size = Math.max(group + 1, 2 * counts.length);
    const grownSums = new Float64Array(WIDTH * size);
    grownSums.set(sums);
    sums = grownSums;
    const grownCounts = new Int32Array(size);
    grownCounts.set(counts);
    counts = grownCounts;
    cursor = new Int32Array(size);
  };

  const list = (n: number, group: number, member: number) => {
    if (2 * n + 2 > listed.length) {
      const grownListed = new Int32Array(2 * listed.length);
      grownListed.set(listed);
      listed = grownListed;
    }
    listed[2 * n] = group;
    listed[2 * n + 1] = member;
  };

  return (accumulator: CellAccumulator, into: BucketSumsSink, bucket: number): void => {
    let n = 0;
    accumulator.drain((pair, from, at) => {
      const group = pairs.groupOf[pair] as number;
      ensure(group);
      if (counts[group] === 0) groups.push(group);
      counts[group] = (counts[group] as number) + 1;
      for (let k = 0, to = WIDTH * group; k < WIDTH; k++)
        sums[to + k] = (sums[to + k] as number) + (from[at + k] as number);
      list(n++, group, pairs.memberOf[pair] as number);
    });
    // Each group's members together, group after group: a cursor per group starts at its end and
    // moves back as its members are placed, ending at its start.
    let end = 0;
    for (const group of groups) {
      end += counts[group] as number;
      cursor[group] = end;
    }
    const members = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const group = listed[2 * i] as number;
      const at = (cursor[group] as number) - 1;
      cursor[group] = at;
      members[at] = listed[2 * i + 1] as number;
    }
    for (const group of groups) {
      const from = cursor[group] as number;
      const at = WIDTH * group;
      into.push(bucket, group, sums, at, {
        members: members.subarray(from, from + (counts[group] as number)),
        ...(sketches && { sketch: sketches.take(group) }),
      });
      sums.fill(0, at, at + WIDTH);
      counts[group] = 0;
    }
    groups.length = 0;
  };
}
