#!/usr/bin/env bash
# Accounts benchmark: sign-in latency (p50/p99) with the production argon2id parameters, one client
# and several at once, and failed sign-ins on known and unknown accounts (which should cost the same).
#
# usage: Benchmarks/accounts/run.sh [--logins 100] [--clients 4] [--server-bin PATH]
#
#   --logins N      sign-ins in the sequential run (and in all in the concurrent run)
#   --clients N     clients in the concurrent run
#   --server-bin P  a built cloudmusic-server (default: build it in release mode)
#
# Results are printed and written to Benchmarks/out/accounts-results.json.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/Benchmarks/out"
logins=100
clients=4
server_bin=""

usage() { sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --logins) logins="$2"; shift 2 ;;
    --clients) clients="$2"; shift 2 ;;
    --server-bin) server_bin="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
done
[[ "$logins" =~ ^[0-9]+$ && "$logins" -ge 10 ]] || { echo "run.sh: --logins must be at least 10" >&2; exit 2; }
[[ "$clients" =~ ^[0-9]+$ && "$clients" -ge 1 ]] || { echo "run.sh: --clients must be at least 1" >&2; exit 2; }

if [ -z "$server_bin" ]; then
  (cd "$root" && swift build -c release --product cloudmusic-server >&2)
  server_bin="$root/.build/release/cloudmusic-server"
fi
mkdir -p "$out"
data="$(mktemp -d)"
music="$(mktemp -d)"
log="$out/accounts-server.log"
cleanup() {
  [ -n "${server_pid:-}" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$data" "$music"
}
trap cleanup EXIT

password="bench password 1"
printf '%s\n' "$password" | "$server_bin" user add bench@example.com Bench --admin --data "$data" >/dev/null
emails=""
for i in 1 2 3; do
  printf '%s\n' "$password" | "$server_bin" user add "wrong$i@example.com" "Wrong$i" --data "$data" >/dev/null
  emails="$emails${emails:+,}wrong$i@example.com"
done

"$server_bin" serve --port 0 --data "$data" --music "$music" --log-level warning --signup-codes off >"$log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 1 100); do
  port="$(grep -o '127\.0\.0\.1:[0-9]*' "$log" | head -1 | cut -d: -f2 || true)"
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "run.sh: the server did not start; see $log" >&2; exit 1; }

results="$(python3 "$here/login-latency.py" 127.0.0.1 "$port" "$logins" "$clients" bench@example.com "$password" "$emails")"
parameters='{"algorithm": "argon2id (libsodium crypto_pwhash_str_alg, ALG_ARGON2ID13)", "memory_kib": 65536, "passes": 2, "lanes": 1}'
cores="$(nproc)"
python3 - "$results" "$parameters" "$cores" >"$out/accounts-results.json" <<'PY'
import json, sys
results = json.loads(sys.argv[1])
results["argon2id"] = json.loads(sys.argv[2])
results["cores"] = int(sys.argv[3])
print(json.dumps(results, indent=2))
PY
cat "$out/accounts-results.json"
