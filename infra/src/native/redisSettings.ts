/**
 * Server settings every Redis this project starts gets (native, Testcontainers, docker-compose):
 * what the store's data wants from the server, measured in bench/ANALYSIS.md.
 *
 * `hash-max-listpack-entries 1024`: rollup blocks are hashes, and at 10M recordings an hour block
 * holds ~80 cells on average with a long tail past the default of 128, where Redis turns a hash
 * into a hashtable at ~75 bytes a cell instead of a listpack's ~50. At 1024, Redis used 9 % less
 * memory for the bench's 10.2M events (214.8 → 194.7 MiB per million), and neither the apply
 * script nor the reads got measurably slower (listpack lookups are linear, but the blocks stay
 * small enough; the selective HMGET of day blocks was 175 → 156 µs a call in the same run).
 */
export const REDIS_SERVER_SETTINGS: Readonly<Record<string, string>> = {
  "hash-max-listpack-entries": "1024",
};

/** The settings as `redis-server` arguments (`--name value`). */
export function redisSettingArgs(): string[] {
  return Object.entries(REDIS_SERVER_SETTINGS).flatMap(([name, value]) => [`--${name}`, value]);
}
