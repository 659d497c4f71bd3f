#!/usr/bin/env bash
# Terminal player benchmarks against a local server on the demo library (release builds).
#
# usage: Benchmarks/tui/run.sh [--runs 30] [--seconds 30] [--library DIR]
#
#   startup: wall time from starting `cloudmusic` in a pseudo-terminal (util-linux `script`) to the first
#   drawn screen (CLOUDMUSIC_EXIT_AFTER_FIRST_FRAME makes it quit right after drawing), median and p95 over
#   --runs, against `script` running `true` in the same run (the pty's own cost); also the player's own
#   count from `main` to the first frame.
#   playing: CPU of the player (% of one core, from /proc/<pid>/stat) and bytes it writes to the terminal
#   per second, while it plays a karaoke (KSC) song with the now-playing screen and its lyrics on screen,
#   over --seconds, at 80x24 and 200x60, in tmux (libmpv with ao=null decodes in real time); then the same
#   song on the help screen (only the control bar moves) and paused, to split decoding from drawing.
#
# Results: one JSON line per figure, printed and written to Benchmarks/out/tui-results.json.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/Benchmarks/out"
runs=30
seconds=30
library="$out/demo-library"

while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --library) library="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done

mkdir -p "$out"
(cd "$root" && swift build -c release --product cloudmusic-server >&2 && swift build -c release --product cloudmusic >&2)
bin="$root/.build/release"
[ -d "$library" ] || "$bin/cloudmusic-server" demo "$library" >&2

data="$(mktemp -d)"
log="$out/tui-server.log"
"$bin/cloudmusic-server" serve --port 0 --data "$data" --music "$library" --log-level warning >"$log" 2>&1 &
server_pid=$!
trap 'kill $server_pid 2>/dev/null; wait $server_pid 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 1 200); do grep -q "127.0.0.1:" "$log" && break; sleep 0.1; done
url="$(grep -o 'http://127.0.0.1:[0-9]*/' "$log" | head -1)"
[ -n "$url" ] || { echo "the server did not start; see $log" >&2; exit 1; }
for _ in $(seq 1 600); do
  curl -s "${url}v1/library/scan" | grep -q '"running":false' && curl -s "${url}v1/library/scan" | grep -q lastReport && break
  sleep 0.1
done

python3 "$here/tui-bench.py" --player "$bin/cloudmusic" --server "$url" --runs "$runs" --seconds "$seconds" \
  | tee "$out/tui-results.json"
