#!/usr/bin/env bash
# Web player benchmarks in Debian's Chromium (headless, Playwright) against a local release server on the
# demo library.
#
# usage: Benchmarks/web/run.sh [--runs 20] [--seconds 12]
#
#   first-render bytes: the HTML, CSS and JavaScript the browser fetched (bytes on the wire, gzip as served)
#   until the home screen was rendered, on a fresh profile.
#   open-to-home: from the start of navigation to `/` to the home screen rendered with its lists
#   (performance mark `cm-home-rendered`), median and p95 over --runs fresh profiles (cold), then with the
#   service worker and HTTP cache warm.
#   tap-to-playing: from the pointer going down on a song of the home list to the audio element's
#   `playing` event, median and p95 over --runs taps (songs alternate, so each tap loads a new song).
#   play page: a Chrome performance trace (devtools.timeline) of --seconds of the play page showing the
#   karaoke lyrics of a KSC song while it plays; long tasks (RunTask over 50 ms on the page's main thread),
#   the longest task, and the frames a second the page drew (requestAnimationFrame count).
#
# Results: one JSON line per figure, printed and written to Benchmarks/out/web-results.json; the trace is
# kept in Benchmarks/out/web-play-trace.json (open it in Chrome's Performance panel).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/Benchmarks/out"
runs=20
seconds=12

while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    -h|--help) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done

mkdir -p "$out"
(cd "$root" && bash scripts/install-deps >&2 && swift build -c release --product cloudmusic-server >&2)
venv="$("$root/scripts/test-venv")"
exec "$venv/bin/python" "$here/web-bench.py" --server "$root/.build/release/cloudmusic-server" --web "$root/Web" \
  --runs "$runs" --seconds "$seconds" --out "$out"
