#!/usr/bin/env bash
# Shop benchmark: order creation under 32 concurrent buyers (orders/s, p99), and the administrators' orders
# list at 100k orders (p99; the target is under 20 ms).
#
# usage: Benchmarks/shop/run.sh [--buyers 32] [--seconds 15] [--orders 100000] [--requests 2000] [--server-bin PATH]
#
# Builds the server in release mode (unless --server-bin) and writes Benchmarks/out/shop-results.json.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/Benchmarks/out"
server_bin=""
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --server-bin) server_bin="$2"; shift 2 ;;
    --buyers|--seconds|--orders|--requests) extra+=("$1" "$2"); shift 2 ;;
    -h|--help) sed -n '2,7p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done
if [ -z "$server_bin" ]; then
  (cd "$root" && swift build -c release --product cloudmusic-server >&2)
  server_bin="$root/.build/release/cloudmusic-server"
fi
mkdir -p "$out"
work="$(mktemp -d "${TMPDIR:-/tmp}/cm-shop-bench-XXXXXX")"
trap 'rm -rf "$work"' EXIT
python3 "$here/shop-bench.py" --server-bin "$server_bin" --work "$work" "${extra[@]}" | tail -1 >"$out/shop-results.json"
echo "    results: $out/shop-results.json" >&2
cat "$out/shop-results.json"
