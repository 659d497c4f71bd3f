#!/usr/bin/env bash
# Event-stream benchmark (issue 19): 10,000 open /v1/events streams, the server's memory with them, and
# message-to-stream latency at 100, 500 and 1,000 messages a second. See Benchmarks/events/README.md.
#
# usage: Benchmarks/events/run.sh [--server-bin PATH] [events-bench.py options...]
#   e.g. Benchmarks/events/run.sh --streams 2000 --rates 100 500 --seconds 10
#        Benchmarks/events/run.sh --server-arg=--threads --server-arg=16
#        Benchmarks/events/run.sh --rates --mhd-block 1024 --mhd-pool 8192   (memory experiment)
#
# Builds the release server when it is missing or older than Sources/. Uses $PYTHON, else
# /root/.cache/cloudmusic/bench-venv/bin/python (with uvloop) when it exists, else python3.
# Results: stdout and Benchmarks/out/events-results.json.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
server_bin=""
shim=0
pass=()
while [ $# -gt 0 ]; do
  case "$1" in
    --server-bin) server_bin="$2"; shift 2 ;;
    --mhd-block|--mhd-pool) shim=1; pass+=("$1" "$2"); shift 2 ;;
    -h|--help) sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) pass+=("$1"); shift ;;
  esac
done

if [ -z "$server_bin" ]; then
  server_bin="$root/.build/release/cloudmusic-server"
  if [ ! -x "$server_bin" ] || [ -n "$(find "$root/Sources" "$root/Package.swift" -newer "$server_bin" -print -quit)" ]; then
    echo "building the release server (this takes a while)..." >&2
    (cd "$root" && swift build -c release --product cloudmusic-server >&2)
  fi
fi
[ -x "$server_bin" ] || { echo "run.sh: no server at $server_bin" >&2; exit 1; }

python="${PYTHON:-}"
if [ -z "$python" ]; then
  if [ -x /root/.cache/cloudmusic/bench-venv/bin/python ]; then
    python=/root/.cache/cloudmusic/bench-venv/bin/python
  else
    python=python3
  fi
fi

# 10,000 streams plus the senders' connections, in this shell and in the server it starts.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt 12000 ]; then
  echo "run.sh: ulimit -n is $(ulimit -n); 10,000 streams need about 10,200 descriptors" >&2
fi

mkdir -p "$root/Benchmarks/out"
if [ "$shim" = 1 ]; then
  # The libmicrohttpd sizes experiment (mhd-sizes.c), preloaded into the server only.
  cc -O2 -Wall -shared -fPIC -o "$root/Benchmarks/out/mhd-sizes.so" "$here/mhd-sizes.c" -ldl
  pass+=(--mhd-shim "$root/Benchmarks/out/mhd-sizes.so")
fi
exec "$python" "$here/events-bench.py" --server-bin "$server_bin" \
  --out "$root/Benchmarks/out/events-results.json" "${pass[@]}"
