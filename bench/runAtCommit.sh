#!/usr/bin/env bash
# Runs the benchmark on a frozen copy of one commit (default HEAD), so that commits landing in the
# work tree during a long run cannot give the worker and the API different code, then copies
# REPORT.md, latency.png and results.json back into this work tree's bench/.
#   bench/runAtCommit.sh [--commit <rev>] [bench flags...]      e.g. bench/runAtCommit.sh --quick
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
rev=HEAD
if [[ "${1:-}" == "--commit" ]]; then rev="$2"; shift 2; fi
sha="$(git -C "$repo" rev-parse --short "$rev")"
snapshot="${BENCH_SNAPSHOT_DIR:-${TMPDIR:-/tmp}/vu-bench-$sha}"

if [[ ! -d "$snapshot/node_modules" ]]; then
  rm -rf "$snapshot" && mkdir -p "$snapshot"
  git -C "$repo" archive "$sha" | tar -x -C "$snapshot"
  # Same lockfile, packages from the local pnpm store: no network, seconds.
  (cd "$snapshot" && node infra/bootstrap.mjs)
fi

cd "$snapshot"
status=0
BENCH_COMMIT="$sha" npx tsx bench/src/run.ts "$@" || status=$?
for file in REPORT.md latency.png results.json; do
  if [[ -f "bench/$file" ]]; then cp "bench/$file" "$repo/bench/$file"; fi
done
echo "[runAtCommit] measured $sha in $snapshot; report copied to $repo/bench" >&2
exit "$status"
