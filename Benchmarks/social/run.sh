#!/usr/bin/env bash
# Social benchmark: deep comment pages by cursor cost what the first page costs (1M comments on one song);
# the timeline and nearby with 10k people following 500 each and 1M placed moments; a notifications
# inbox of 100k: first page and unread counts.
#
# usage: Benchmarks/social/run.sh [--comments 1000000] [--deep 10000] [--requests 200]
#                                 [--users 10000] [--follows 500] [--moments 1000000] [--notifications 100000]
#                                 [--only comments|feeds|notifications] [--server-bin PATH]
#
# Builds the server in release mode (unless --server-bin), uses the demo library (made once with
# `cloudmusic-server demo` into Benchmarks/out/demo-library), and writes Benchmarks/out/social-results.json
# (comments), Benchmarks/out/feeds-results.json (moments) and Benchmarks/out/notifications-results.json.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/Benchmarks/out"
server_bin=""
extra=()
feeds_extra=()
notify=()
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --server-bin) server_bin="$2"; shift 2 ;;
    --comments|--deep|--size) extra+=("$1" "$2"); shift 2 ;;
    --requests) extra+=("$1" "$2"); feeds_extra+=("$1" "$2"); shift 2 ;;
    --users|--follows|--moments) feeds_extra+=("$1" "$2"); shift 2 ;;
    --notifications) notify+=("$1" "$2"); shift 2 ;;
    --only) only="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done
if [ -z "$server_bin" ]; then
  (cd "$root" && swift build -c release --product cloudmusic-server >&2)
  server_bin="$root/.build/release/cloudmusic-server"
fi
mkdir -p "$out"
library="$out/demo-library"
[ -f "$library/.complete" ] || "$server_bin" demo "$library" >&2
if [ -z "$only" ] || [ "$only" = comments ]; then
  echo "==> deep comment pages" >&2
  python3 "$here/comment-pages.py" --server-bin "$server_bin" --music "$library" "${extra[@]}" | tail -1 >"$out/social-results.json"
  echo "    results: $out/social-results.json" >&2
fi
if [ -z "$only" ] || [ "$only" = feeds ]; then
  echo "==> moments: timeline and nearby" >&2
  python3 "$here/feeds-bench.py" --server-bin "$server_bin" --music "$library" "${feeds_extra[@]}" | tail -1 >"$out/feeds-results.json"
  echo "    results: $out/feeds-results.json" >&2
fi
if [ -z "$only" ] || [ "$only" = notifications ]; then
  echo "==> notifications inbox" >&2
  python3 "$here/notifications-bench.py" --server-bin "$server_bin" "${notify[@]}" | tail -1 >"$out/notifications-results.json"
  echo "    results: $out/notifications-results.json" >&2
fi
