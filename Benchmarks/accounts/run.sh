#!/usr/bin/env bash
# Accounts benchmark: sign-in latency (p50/p99) with the production argon2id parameters, one client
# and several at once, and failed sign-ins on known and unknown accounts (which should cost the same);
# sheets: detail of a 1,000-song sheet, and adding songs to sheets under wrk on databases of two sizes.
#
# usage: Benchmarks/accounts/run.sh [--only login,sheets] [--logins 100] [--clients 4]
#            [--users 1000,10000] [--sheets 10000,100000] [--library DIR] [--duration 10]
#            [--requests 300] [--server-bin PATH]
#
#   --only PARTS    comma separated: login, sheets (default: both)
#   --logins N      sign-ins in the sequential run (and in all in the concurrent run)
#   --clients N     clients in the concurrent run
#   --users LIST    sheets: users seeded into the database, one figure per size
#   --sheets LIST   sheets: sheets seeded, as many figures as --users
#   --library DIR   sheets: a music folder (default: Benchmarks/out/lib-2000, generated if missing)
#   --duration S    sheets: seconds of each wrk run (0: no wrk runs)
#   --requests N    sheets: sequential detail requests, as the owner and signed out
#   --server-bin P  a built cloudmusic-server (default: build it in release mode)
#
# Results are printed and written to Benchmarks/out/accounts-results.json (a part not run keeps the
# figures already there).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/Benchmarks/out"
logins=100
clients=4
server_bin=""
only="login,sheets"
users="1000,10000"
sheets="10000,100000"
library=""
duration=10
requests=300

usage() { sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only="$2"; shift 2 ;;
    --logins) logins="$2"; shift 2 ;;
    --clients) clients="$2"; shift 2 ;;
    --users) users="$2"; shift 2 ;;
    --sheets) sheets="$2"; shift 2 ;;
    --library) library="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --requests) requests="$2"; shift 2 ;;
    --server-bin) server_bin="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
done
[[ "$logins" =~ ^[0-9]+$ && "$logins" -ge 10 ]] || { echo "run.sh: --logins must be at least 10" >&2; exit 2; }
[[ "$clients" =~ ^[0-9]+$ && "$clients" -ge 1 ]] || { echo "run.sh: --clients must be at least 1" >&2; exit 2; }
run_login=0; run_sheets=0
for part in ${only//,/ }; do
  case "$part" in
    login) run_login=1 ;;
    sheets) run_sheets=1 ;;
    *) echo "run.sh: --only takes login and/or sheets, not $part" >&2; exit 2 ;;
  esac
done
[ $((run_login + run_sheets)) -gt 0 ] || { echo "run.sh: --only names no part" >&2; exit 2; }
[[ "$users" =~ ^[0-9]+(,[0-9]+)*$ && "$sheets" =~ ^[0-9]+(,[0-9]+)*$ ]] \
  || { echo "run.sh: --users and --sheets are comma separated numbers" >&2; exit 2; }
[ "$(tr -cd , <<<"$users" | wc -c)" = "$(tr -cd , <<<"$sheets" | wc -c)" ] \
  || { echo "run.sh: --users and --sheets need as many sizes each" >&2; exit 2; }
[[ "$duration" =~ ^[0-9]+$ && "$requests" =~ ^[0-9]+$ && "$requests" -ge 10 ]] \
  || { echo "run.sh: --duration must be a number and --requests at least 10" >&2; exit 2; }

if [ -z "$server_bin" ]; then
  (cd "$root" && swift build -c release --product cloudmusic-server >&2)
  server_bin="$root/.build/release/cloudmusic-server"
fi
mkdir -p "$out"
data="$(mktemp -d)"
music="$(mktemp -d)"
work="$(mktemp -d)"
log="$out/accounts-server.log"
cleanup() {
  [ -n "${server_pid:-}" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$data" "$music" "$work"
}
trap cleanup EXIT

login_results="{}"
if [ "$run_login" = 1 ]; then
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

  login_results="$(python3 "$here/login-latency.py" 127.0.0.1 "$port" "$logins" "$clients" bench@example.com "$password" "$emails")"
  kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  server_pid=""
fi

sheets_results="null"
if [ "$run_sheets" = 1 ]; then
  if [ -z "$library" ]; then
    # The library benchmark's generator and cache convention (Benchmarks/out/lib-N/.bench-complete).
    library="$out/lib-2000"
    if [ "$(cat "$library/.bench-complete" 2>/dev/null || true)" != 2000 ]; then
      echo "==> generating a 2,000-track library in $library" >&2
      (cd "$root" && swift build -c release --product library-bench-gen >&2)
      rm -rf "$library" "$library.partial"
      "$root/.build/release/library-bench-gen" "$library.partial" 2000 >&2
      echo 2000 >"$library.partial/.bench-complete"
      mv "$library.partial" "$library"
    fi
  fi
  [ -d "$library" ] || { echo "run.sh: no music folder at $library" >&2; exit 2; }
  sheets_results="$(python3 "$here/sheets-bench.py" --server-bin "$server_bin" --library "$library" --work "$work" \
    --users "$users" --sheets "$sheets" --duration "$duration" --requests "$requests" \
    --log "$out/accounts-sheets-server.log")"
fi

parameters='{"algorithm": "argon2id (libsodium crypto_pwhash_str_alg, ALG_ARGON2ID13)", "memory_kib": 65536, "passes": 2, "lanes": 1}'
cores="$(nproc)"
previous="$out/accounts-results.json"
[ -f "$previous" ] || previous=""
python3 - "$login_results" "$sheets_results" "$parameters" "$cores" "$previous" "$run_login" "$run_sheets" \
  >"$out/accounts-results.json.new" <<'PY'
import json, sys
login, sheets, parameters, cores, previous, run_login, run_sheets = sys.argv[1:8]
old = {}
if previous:
    try:
        old = json.load(open(previous))
    except (OSError, ValueError):
        old = {}
login_keys = ("sequential", "concurrent", "wrong_password_known_account", "wrong_password_unknown_account")
results = {}
# A part not run keeps the figures of the last run that had it.
results.update(json.loads(login) if run_login == "1" else {k: old[k] for k in login_keys if k in old})
results["argon2id"] = json.loads(parameters)
results["cores"] = int(cores)
if run_sheets == "1":
    results["sheets"] = json.loads(sheets)
elif "sheets" in old:
    results["sheets"] = old["sheets"]
print(json.dumps(results, indent=2))
PY
mv "$out/accounts-results.json.new" "$out/accounts-results.json"
cat "$out/accounts-results.json"
