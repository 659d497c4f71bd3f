#!/usr/bin/env bash
# Storage's hot paths before and after a change, in one session on one machine: builds storage-bench here and in
# an export of BASE (default: where this branch left main) with BASELINE defined (SQLite through its own API
# only), then runs the two alternately RUNS times. The after binary also measures SQLite through the
# engine-neutral surface and, when CLOUDMUSIC_TEST_POSTGRES_URL is set (scripts/pg-cluster run ...), PostgreSQL.
#   Benchmarks/storage/run.sh [BASE]        RUNS=3 ROUNDS=9 by default
set -euo pipefail
cd "$(dirname "$0")/../.."
base=$(git rev-parse "${1:-$(git merge-base HEAD main)}")
runs=${RUNS:-3}
rounds=${ROUNDS:-9}

# The export is kept per base commit, so that a second run does not build it again.
before="${TMPDIR:-/tmp}/cloudmusic-storage-bench-$base"
if [ ! -d "$before" ]; then
  mkdir -p "$before.partial"
  git archive "$base" | tar -x -C "$before.partial"
  if ! grep -q '"storage-bench"' "$before.partial/Package.swift"; then
    cat >>"$before.partial/Package.swift" <<'SWIFT'
package.targets.append(
    .executableTarget(
        name: "storage-bench", dependencies: ["Storage"], path: "Benchmarks/storage/Bench",
        swiftSettings: [.define("BASELINE")]))
SWIFT
  fi
  mv "$before.partial" "$before"
fi
mkdir -p "$before/Benchmarks/storage/Bench"
cp Benchmarks/storage/Bench/main.swift "$before/Benchmarks/storage/Bench/main.swift"
(cd "$before" && swift build -c release --product storage-bench 2>&1 | tail -1)
swift build -c release --product storage-bench 2>&1 | tail -1

echo "before: $base   after: $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' + uncommitted changes')"
for run in $(seq "$runs"); do
  echo "--- run $run: before"
  "$before/.build/release/storage-bench" --rounds "$rounds" | grep direct
  echo "--- run $run: after"
  if [ "$run" -eq "$runs" ]; then
    .build/release/storage-bench --rounds "$rounds" | grep -v '^SQLite'
  else
    .build/release/storage-bench --rounds "$rounds" --postgres "" | grep -v '^SQLite'
  fi
done
