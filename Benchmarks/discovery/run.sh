#!/usr/bin/env bash
# Discovery benchmark: GET /v1/home at 100k songs and 10k people, p99 sequential and under wrk.
#
# usage: Benchmarks/discovery/run.sh [--songs 100000] [--users 10000] [--tokens 1000] [--requests 4000]
#                                    [--seconds 20] [--connections 8] [--server-bin PATH]
#
# Builds the server in release mode (unless --server-bin) and writes Benchmarks/out/home-results.json.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/Benchmarks/out"
server_bin=""
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --server-bin) server_bin="$2"; shift 2 ;;
    --songs|--users|--plays|--sheets|--tokens|--requests|--seconds|--connections) extra+=("$1" "$2"); shift 2 ;;
    -h|--help) sed -n '2,7p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done
command -v wrk >/dev/null || { echo "run.sh: wrk is missing (apt-get install wrk)" >&2; exit 1; }
if [ -z "$server_bin" ]; then
  (cd "$root" && swift build -c release --product cloudmusic-server >&2)
  server_bin="$root/.build/release/cloudmusic-server"
fi
mkdir -p "$out"
work="$(mktemp -d "${TMPDIR:-/tmp}/cm-home-bench-XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo "==> home at ${extra[*]:-100k songs, 10k people}" >&2
python3 "$here/home-bench.py" --server-bin "$server_bin" --work "$work" "${extra[@]}" | tail -1 >"$out/home-results.json"
echo "    results: $out/home-results.json" >&2
cat "$out/home-results.json"
