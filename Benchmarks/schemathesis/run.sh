#!/usr/bin/env bash
# Runs schemathesis (property-based API tests from PyPI) over the committed OpenAPI document against a real
# server on the demo library: once signed out, once signed in as an ordinary person and once as the
# administrator. Not part of the test suite: it takes minutes and its case counts vary by seed.
#
#   bash Benchmarks/schemathesis/run.sh [--max-examples N] [--seconds S]
#
# The server runs with --signup-codes off on a fresh data folder under Benchmarks/out/schemathesis.
set -euo pipefail
cd "$(dirname "$0")/../.."
examples=50
seconds=0
while [ $# -gt 0 ]; do
  case "$1" in
    --max-examples) examples="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 64 ;;
  esac
done
out=Benchmarks/out/schemathesis
rm -rf "$out" && mkdir -p "$out"
venv="${XDG_CACHE_HOME:-$HOME/.cache}/cloudmusic/schemathesis-venv"
if ! "$venv/bin/schemathesis" --version >/dev/null 2>&1; then
  python3 -m venv "$venv" && "$venv/bin/pip" install -q "schemathesis==4.32.5"
fi
swift build -c release --product cloudmusic-server >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
.build/release/cloudmusic-server serve --port "$port" --data "$out/data" --signup-codes off --log-level warning \
  > "$out/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 1 600); do curl -sf "$base/health" >/dev/null && break; sleep 0.5; done
# The first account is the administrator; the second an ordinary person. Both exist before the runs, so
# the runs cannot take the administrator's place.
signup() { curl -sf -X POST "$base/v1/users" -H 'Content-Type: application/json' \
  -d "{\"email\":\"$1\",\"password\":\"a long passphrase 42\",\"nickname\":\"$2\"}" >/dev/null; }
login() { curl -sf -X POST "$base/v1/sessions" -H 'Content-Type: application/json' \
  -d "{\"email\":\"$1\",\"password\":\"a long passphrase 42\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["session"])'; }
signup admin@example.com Admin
signup ann@example.com Ann
admin=$(login admin@example.com)
ann=$(login ann@example.com)
# Endpoints that would sign the runs out or delete their accounts are left out of the signed-in runs.
common=(--url "$base" --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance
  --max-examples "$examples" --workers 2 --suppress-health-check all --continue-on-failure)
[ "$seconds" != 0 ] && common+=(--max-time "$seconds")
keep=(--exclude-operation-id accounts.logout --exclude-operation-id accounts.deleteAccount
  --exclude-operation-id accounts.changePassword --exclude-operation-id accounts.revokeSession
  --exclude-operation-id accounts.adminUpdateUser)
status=0
for run in "signed-out" "signed-in" "administrator"; do
  echo "== $run"
  case "$run" in
    signed-out) auth=() ;;
    signed-in) auth=(-H "Authorization: Bearer $ann" "${keep[@]}") ;;
    administrator) auth=(-H "Authorization: Bearer $admin" "${keep[@]}") ;;
  esac
  "$venv/bin/schemathesis" run openapi.json "${common[@]}" "${auth[@]}" 2>&1 | tee "$out/$run.txt" | tail -25 || status=1
done
grep -c " 500 " "$out/server.log" >/dev/null 2>&1 && echo "server log: $(grep -c 'status=500' "$out/server.log") answers with status 500"
exit $status
