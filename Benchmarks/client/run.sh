#!/usr/bin/env bash
# Client SDK benchmarks against a local server on the demo library.
#
# usage: Benchmarks/client/run.sh [--runs 100] [--soak 60] [--library DIR]
#
#   play-latency: `load` of a streamed song (autoplay) to `.state(.playing)` and to the first progress event
#   past 0, p50/p95/p99 over --runs loads; the process's RSS before the player, while playing, and after
#   --soak seconds of continuous playing through the demo songs (libmpv with ao=null, real time).
#   lyric-sync: the cost per call of following a 5,000-line karaoke lyric (frames and seeks), against
#   Lyric.position(at:) in the same run.
#
# The demo library is made once into Benchmarks/out/demo-library (or --library). Results: one JSON line
# per benchmark, printed and written to Benchmarks/out/client-results.json.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/Benchmarks/out"
runs=100
soak=60
library="$out/demo-library"

while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --soak) soak="$2"; shift 2 ;;
    --library) library="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done

mkdir -p "$out"
(cd "$root" && swift build -c release --product cloudmusic-server >&2 && swift build -c release --product client-bench >&2)
bin="$root/.build/release"
[ -d "$library" ] || "$bin/cloudmusic-server" demo "$library" >&2

data="$(mktemp -d)"
log="$out/client-server.log"
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$data"
}
trap cleanup EXIT
"$bin/cloudmusic-server" serve --port 0 --data "$data" --music "$library" --log-level warning --signup-codes off \
  >"$log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 1 100); do
  port="$(grep -o '127\.0\.0\.1:[0-9]*' "$log" | head -1 | cut -d: -f2 || true)"
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "run.sh: the server did not start; see $log" >&2; exit 1; }
base="http://127.0.0.1:$port/"
# Wait for the first scan, so that the songs are there.
for _ in $(seq 1 600); do
  s="$(curl -fs "${base}v1/library/scan" || true)"
  case "$s" in *'"running":false'*lastReport*|*lastReport*'"running":false'*) break ;; esac
  sleep 0.1
done

{
  "$bin/client-bench" lyric-sync | tail -1
  "$bin/client-bench" play-latency --base-url "$base" --runs "$runs" --soak "$soak" | tail -1
} | tee "$out/client-results.json"
