#!/usr/bin/env bash
# Schemathesis (PyPI, pinned in scripts/install-deps) with every check, positive and negative data, over the
# committed OpenAPI document against a real server on the demo library: signed out, as an ordinary person and as
# the administrator. Part of scripts/test; any failure fails it.
#
#   bash Tests/Schemathesis/run.sh [--max-examples N] [--seed S]
#
# The document states every path and query parameter's type, range, choices, pattern and emptiness, and the
# server holds to them: schema-valid parameters are never refused with 400, schema-violating ones always are.
# Two kinds of rule are not in it, and there a 400 to schema-valid data is allowed (written into the config below):
# - request bodies, whose schemas are probed from the Codable types and carry no business rules (a password's
#   policy, an email's form, "write something first", which ids exist together);
# - the three queries with a rule across parameters, which OpenAPI cannot state: the comments of exactly one
#   thing, messages before or after one (not both), one person's or one topic's moments (not both).
# And where a required parameter is also read under an alias (`q` for `query`), a request without the documented
# name but with the alias is served (negative data may get a 2xx there).
set -euo pipefail
cd "$(dirname "$0")/../.."
examples=15
seed=20261205
while [ $# -gt 0 ]; do
  case "$1" in
    --max-examples) examples="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 64 ;;
  esac
done
venv="${CLOUDMUSIC_WEB_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/cloudmusic/webtests-venv}"
st="$venv/bin/schemathesis"
server_bin="${CLOUDMUSIC_SERVER_BIN:-.build/debug/cloudmusic-server}"
out="$(mktemp -d -t cloudmusic-schemathesis.XXXXXX)"
demo="${XDG_CACHE_HOME:-$HOME/.cache}/cloudmusic/schemathesis-demo"
[ -f "$demo/.complete" ] || { "$server_bin" demo "$demo" >/dev/null 2>&1 && touch "$demo/.complete"; }
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# An (empty) audiobooks folder, so the scan is served: without one it is 503 by design, which schemathesis counts
# as a server error.
mkdir -p "$out/audiobooks"
"$server_bin" serve --port "$port" --data "$out/data" --music "$demo" --videos "$demo-videos" \
  --audiobooks "$out/audiobooks" --signup-codes off --log-level warning > "$out/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 1 600); do curl -sf "$base/health" >/dev/null && break; sleep 0.2; done
signup() { curl -sf -X POST "$base/v1/users" -H 'Content-Type: application/json' \
  -d "{\"email\":\"$1\",\"password\":\"a long passphrase 42\",\"nickname\":\"$2\"}" >/dev/null; }
login() { curl -sf -X POST "$base/v1/sessions" -H 'Content-Type: application/json' \
  -d "{\"email\":\"$1\",\"password\":\"a long passphrase 42\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["session"])'; }
# The first account is the administrator; both exist before the runs, so the runs cannot take its place.
signup admin@example.com Admin
signup ann@example.com Ann
admin=$(login admin@example.com)
ann=$(login ann@example.com)

# The config: positive data may be refused (400, or 413/415 for files) only where the rules are not in the document.
python3 - "$out/schemathesis.toml" <<'PY'
import json, sys
document = json.load(open("openapi.json"))
crossed = {("get", "/v1/comments"), ("get", "/v1/conversations/{id}/messages"), ("get", "/v1/feeds")}
lines = ['[checks.positive_data_acceptance]', 'expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "429"]', '']
for path, operations in sorted(document["paths"].items()):
    for method, operation in sorted(operations.items()):
        aliased = any(p.get("required") and p.get("x-aliases") for p in operation.get("parameters", []))
        if "requestBody" in operation or (method, path) in crossed or aliased:
            lines += ['[[operations]]', f'include-path = "{path}"', f'include-method = "{method.upper()}"']
            if "requestBody" in operation or (method, path) in crossed:
                lines += ['[operations.checks.positive_data_acceptance]',
                          'expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "413", "415", "429"]']
            rejections = ["400", "401", "403", "404", "405", "406", "409", "415", "422", "429"]
            if "requestBody" in operation:
                # A body past a declared length can also be past the server's size limit: 413 refuses it too.
                rejections.append("413")
            if aliased:
                # A required parameter also read under its alias (`q` for `query`): a request "missing" it but
                # sending the alias is served, which OpenAPI cannot state ("one of these names").
                rejections.insert(0, "2xx")
            if "requestBody" in operation or aliased:
                lines += ['[operations.checks.negative_data_rejection]',
                          'expected-statuses = [' + ", ".join(f'"{s}"' for s in rejections) + ']']
            lines.append('')
open(sys.argv[1], "w").write("\n".join(lines))
PY

common=(--url "$base" --checks all --max-examples "$examples" --seed "$seed" --workers 2
  --suppress-health-check all --continue-on-failure --no-color)
# Endpoints that would sign the runs out or delete their accounts are left out of the signed-in runs.
keep=(--exclude-operation-id accounts.logout --exclude-operation-id accounts.deleteAccount
  --exclude-operation-id accounts.changePassword --exclude-operation-id accounts.revokeSession
  --exclude-operation-id accounts.adminUpdateUser --exclude-operation-id events.token)
status=0
for run in signed-out signed-in administrator; do
  case "$run" in
    signed-out) auth=() ;;
    signed-in) auth=(-H "Authorization: Bearer $ann" "${keep[@]}") ;;
    administrator) auth=(-H "Authorization: Bearer $admin" "${keep[@]}") ;;
  esac
  if "$st" --config-file "$out/schemathesis.toml" run openapi.json "${common[@]}" "${auth[@]}" \
    > "$out/$run.txt" 2>&1; then
    echo "schemathesis $run: $(tail -1 "$out/$run.txt" | tr -d '=')"
  else
    status=1
    echo "schemathesis $run FAILED (full report: $out/$run.txt):"
    grep -E "^_{3,} |^- ST|Expected|^\[[0-9]{3}\]|curl " "$out/$run.txt" | cut -c1-400 | head -80
  fi
done
if grep -q "status=5[0-9][0-9]" "$out/server.log"; then
  echo "server log: answers with status 5xx"; status=1
fi
[ $status -eq 0 ] && rm -rf "$out"
exit $status
