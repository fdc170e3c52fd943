import type { GenerationSource } from "../log/generation";
import type { LogPosition } from "../log/logPosition";
import { type LogRecord, standingOf, type ViewStanding, type ViewStatus } from "../log/logRecord";

/** The state of the store a read belongs to: a generation, in one epoch of it that is live. */
export interface ReadView {
  generation: number;
  epoch: string;
  /**
   * Read with the epoch, before any read made in this view: the view then held every event
   * produced before this instant (Unix time, ms; docs/contract.md §7 `X-Data-As-Of`).
   * Null or missing: not known.
   */
  asOfMs?: number | null;
}

/**
 * The view cannot answer: Redis lost its state (no epoch), or a replay of the topic is under way,
 * or the topic no longer holds events the view needs. Numbers read now would be knowingly wrong.
 */
export class ViewNotLiveError extends Error {
  constructor(readonly status: ViewStatus) {
    super(
      status.epoch === null
        ? "the store has no data epoch: Redis lost its state (or no worker has started yet); a worker replays the topic"
        : `the store is not live (${status.state ?? "unknown"}): ${status.reason ?? "replaying the topic"}`,
    );
    this.name = "ViewNotLiveError";
  }
}

function epochChanged(epoch: string | null): ViewNotLiveError {
  return new ViewNotLiveError({
    epoch,
    state: "replaying",
    reason: "the store's epoch changed during the read",
  });
}

/** How long a read view serves without asking Redis (each computed answer is confirmed anyway). */
export const VIEW_CACHE_MS = 500;

export interface LiveViewsOptions {
  log: Pick<LogPosition, "read" | "shardsBehind">;
  generations: GenerationSource;
  now: () => number;
  /** Called when the live epoch is another than the one known: every cache of the reader goes. */
  onNewEpoch: () => void;
}

/**
 * The view readers read: the generation they use and its live epoch, known for up to
 * VIEW_CACHE_MS, and with it when the shards' write counts were last found whole.
 */
export class LiveViews {
  #known: { view: ReadView; at: number } | undefined;
  /** When the shards' write counts were last found whole (`confirm` refreshes the view, not this). */
  #shardsCheckedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: LiveViewsOptions) {}

  /** The live view, from memory while fresh; throws ViewNotLiveError when the store cannot answer. */
  async current(): Promise<ReadView> {
    const { generations, now } = this.options;
    const generation = await generations.current();
    const known = this.#known;
    const fresh = (at: number) => now() - at <= VIEW_CACHE_MS;
    if (
      known !== undefined &&
      known.view.generation === generation &&
      fresh(known.at) &&
      fresh(this.#shardsCheckedAt)
    )
      return known.view;
    return this.#fromRedis(generation, true);
  }

  /** Whether the store is still in `view`'s epoch and live, asked of Redis now. */
  async confirm(view: ReadView): Promise<void> {
    const current = await this.#fromRedis(view.generation);
    if (current.epoch !== view.epoch) throw epochChanged(current.epoch);
  }

  /**
   * As `confirm`, from the view's status read in the same state as a read (atomicRead.ts): live,
   * in `view`'s epoch. Another epoch is not taken as the view here (the status alone has no "as
   * of"): the view known is dropped, so the next `current` reads the log hash.
   */
  confirmStatus(view: ReadView, status: ViewStatus): void {
    if (status.epoch === null || status.state !== "live") {
      this.#known = undefined;
      throw new ViewNotLiveError(status);
    }
    if (status.epoch !== view.epoch) {
      this.#known = undefined;
      throw epochChanged(status.epoch);
    }
  }

  async #fromRedis(generation: number, checkShards = false): Promise<ReadView> {
    // The whole log hash (a few fields per partition): the status and the "as of" in one read.
    const record = await this.options.log.read(generation);
    const standing = standingOf(record);
    if (checkShards && standing.state === "live") {
      await this.#refuseShardsBehind(generation, record);
      this.#shardsCheckedAt = this.options.now();
    }
    return this.#viewOf(generation, standing);
  }

  /** The view of `standing`, or why there is none; a new epoch drops every cache. */
  #viewOf(generation: number, standing: ViewStanding): ReadView {
    if (standing.epoch === null || standing.state !== "live") throw new ViewNotLiveError(standing);
    if (this.#known !== undefined && this.#known.view.epoch !== standing.epoch) this.options.onNewEpoch();
    const view = { generation, epoch: standing.epoch, asOfMs: standing.asOfMs };
    this.#known = { view, at: this.options.now() };
    return view;
  }

  /**
   * On a cluster, a node that lost writes (restarted empty, a failover to a replica that lagged)
   * holds fewer of them than the log hash, on another node, recorded with the checkpoints. The
   * worker replays the topic when it meets this, but only after Kafka answers; readers check it
   * themselves with each refresh of the view, so no short answer is served meanwhile.
   */
  async #refuseShardsBehind(generation: number, record: LogRecord): Promise<void> {
    const behind = await this.options.log.shardsBehind(generation, record);
    if (behind.length === 0) return;
    throw new ViewNotLiveError({
      epoch: record.epoch,
      state: "replaying",
      reason: `a Redis Cluster node lost writes (shards ${behind.join(", ")}); the topic is replayed`,
    });
  }
}
