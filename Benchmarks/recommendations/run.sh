#!/usr/bin/env bash
# Recommendations benchmark: builds the generated taste model into Benchmarks/out/recommendations.sqlite (or
# reuses it with --reuse), then measures the time of one person's recommendations and the leave-one-out hit
# rate at 30 against random and "most played". See Benchmarks/recommendations/README.md.
#
# usage: Benchmarks/recommendations/run.sh [--songs 100000] [--users 10000] [--plays 1000000] [--testers 1000]
#                                          [--seed 1] [--reuse] [--db PATH]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
swift build -c release --product recommendation-bench
exec "$root/.build/release/recommendation-bench" "$@"
