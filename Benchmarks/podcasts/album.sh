#!/usr/bin/env bash
# The album page of a 5,000-episode podcast (issue 30: p99 < 20 ms), over the real server (release build).
#
# usage: Benchmarks/podcasts/album.sh [--episodes 5000] [--seconds 10] [--connections 16]
#
# podcast-bench generates the feed; python3's http.server serves it on 127.0.0.2 (the only block the server
# is allowed with --fetch-allow); an administrator adds it (timed: fetch, parse and one transaction). Then wrk
# (-t2, --latency) asks for the first page, the last page (the deepest OFFSET), the oldest-first first page, and
# the last page by cursor (newest and oldest first, the latter also by OFFSET), each against GET /v1/server (the
# envelope alone) in the same run as the baseline.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
episodes=5000
seconds=10
connections=16
while [ $# -gt 0 ]; do
  case "$1" in
    --episodes) episodes="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    -h|--help) sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "album.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done

# One product a build: swift build honours only the last --product it is given.
for product in cloudmusic-server podcast-bench; do (cd "$root" && swift build -c release --product "$product" >&2); done
server="$root/.build/release/cloudmusic-server"
bench="$root/.build/release/podcast-bench"
work="$(mktemp -d)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

mkdir -p "$work/feeds" "$work/music"
"$bench" generate --episodes "$episodes" --out "$work/feeds/album.xml" >&2
feed_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.2", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$feed_port" --bind 127.0.0.2 --directory "$work/feeds" >/dev/null 2>&1 &
pids+=($!)

"$server" serve --port 0 --data "$work/data" --music "$work/music" --signup-codes off --log-level warning \
  --fetch-allow 127.0.0.2/32 --podcast-refresh off >"$work/server.out" 2>&1 &
pids+=($!)
for _ in $(seq 600); do grep -qo '127\.0\.0\.1:[0-9]*' "$work/server.out" 2>/dev/null && break; sleep 0.1; done
base="http://$(grep -o '127\.0\.0\.1:[0-9]*' "$work/server.out" | head -1)"
for _ in $(seq 300); do curl -sf "http://127.0.0.2:$feed_port/album.xml" -o /dev/null && break; sleep 0.1; done

curl -sf -X POST "$base/v1/users" -H 'Content-Type: application/json' \
  -d '{"email":"bench@example.com","nickname":"Bench","password":"correct horse"}' >/dev/null
token="$(curl -sf -X POST "$base/v1/sessions" -H 'Content-Type: application/json' \
  -d '{"email":"bench@example.com","password":"correct horse"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["session"])')"
start=$(date +%s.%N)
id="$(curl -sf -X POST "$base/v1/podcasts" -H "Authorization: $token" -H 'Content-Type: application/json' \
  -d "{\"url\":\"http://127.0.0.2:$feed_port/album.xml\"}" | python3 -c 'import json,sys; d=json.load(sys.stdin)["data"]; print(d["id"])')"
added=$(python3 -c "print(round($(date +%s.%N) - $start, 2))")
echo "add: $episodes episodes fetched, parsed and written in ${added} s"

last_page=$(( (episodes + 19) / 20 ))
measure() {
  local name="$1" path="$2"
  local out
  out="$(wrk -t2 -c"$connections" -d"${seconds}s" --latency "$base$path")"
  local rps p50 p99
  rps="$(echo "$out" | awk '/Requests\/sec/ {print $2}')"
  p50="$(echo "$out" | awk '$1 == "50%" {print $2}')"
  p99="$(echo "$out" | awk '$1 == "99%" {print $2}')"
  echo "$name: $rps requests/s, p50 $p50, p99 $p99 ($path)"
}
measure "baseline (GET /v1/server)" "/v1/server"
measure "album, first page" "/v1/podcasts/$id/episodes?page=1&size=20"
measure "album, last page" "/v1/podcasts/$id/episodes?page=$last_page&size=20"
measure "album, oldest first" "/v1/podcasts/$id/episodes?sort=oldest&page=1&size=20"
# The same last page by key: the cursor page 249 gives (its nextCursor), as the web player's next page asks.
cursor="$(curl -sf "$base/v1/podcasts/$id/episodes?page=$((last_page - 1))&size=20" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["nextCursor"])')"
measure "album, last page by cursor" "/v1/podcasts/$id/episodes?size=20&cursor=$cursor"
cursor="$(curl -sf "$base/v1/podcasts/$id/episodes?sort=oldest&page=$((last_page - 1))&size=20" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["nextCursor"])')"
measure "album, last page oldest first by cursor" "/v1/podcasts/$id/episodes?sort=oldest&size=20&cursor=$cursor"
measure "album, last page oldest first (OFFSET)" "/v1/podcasts/$id/episodes?sort=oldest&page=$last_page&size=20"
measure "baseline again (GET /v1/server)" "/v1/server"
