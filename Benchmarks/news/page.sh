#!/usr/bin/env bash
# A channel page at 1,000,000 articles (issue 32: p99 < 20 ms), over the real server.
#
# usage: Benchmarks/news/page.sh [--articles 1000000] [--seconds 10] [--connections 16] [--debug]
#
# The server makes the schema and an administrator a channel; seed.py then writes the articles straight into
# the SQLite file. wrk (-t2, --latency, signed in) asks for the channel's first page, a page by cursor from the
# middle (500,000 articles deep), page 500 by number (the deepest OFFSET allowed) and the channel list with its
# unread count, with GET /v1/server (the envelope alone) in the same run as the baseline.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
articles=1000000
seconds=10
connections=16
config=release
while [ $# -gt 0 ]; do
  case "$1" in
    --articles) articles="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --debug) config=debug; shift ;;
    -h|--help) sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "page.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done

(cd "$root" && swift build -c "$config" --product cloudmusic-server >&2)
server="$root/.build/$config/cloudmusic-server"
source "$root/Benchmarks/lib/server.sh"
mkdir -p "$work/music"

bench_serve "$server" --music "$work/music" --news-refresh 0 --podcast-refresh off

bench_sign_in
channel="$(curl -sf -X POST "$base/v1/news/channels" -H "Authorization: $token" -H 'Content-Type: application/json' \
  -d '{"title":"头条"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["id"])')"
start=$(date +%s.%N)
middle="$(python3 "$here/seed.py" "$work/data/cloudmusic.sqlite" "$channel" --articles "$articles")"
echo "seeded $articles articles in $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s"
# A few marks, so the rows join something.
for id in 1 2 3; do
  curl -sf -X PUT "$base/v1/news/articles/$id/read" -H "Authorization: $token" -H 'Content-Type: application/json' \
    -d '{"read":true}' >/dev/null
done

measure() {
  local name="$1" path="$2"
  local out
  out="$(wrk -t2 -c"$connections" -d"${seconds}s" --latency -H "Authorization: $token" "$base$path")"
  local rps p50 p99
  rps="$(echo "$out" | awk '/Requests\/sec/ {print $2}')"
  p50="$(echo "$out" | awk '$1 == "50%" {print $2}')"
  p99="$(echo "$out" | awk '$1 == "99%" {print $2}')"
  echo "$name: $rps requests/s, p50 $p50, p99 $p99 ($path)"
}
curl -sf -H "Authorization: $token" "$base/v1/news/channels/$channel/articles?size=20" | python3 -c \
  'import json,sys; d=json.load(sys.stdin)["data"]; assert len(d["list"]) == 20, d; print("first page:", d["list"][0]["title"])'
measure "baseline (GET /v1/server)" "/v1/server"
measure "channel, first page" "/v1/news/channels/$channel/articles?size=20"
measure "channel, by cursor (middle)" "/v1/news/channels/$channel/articles?size=20&cursor=$middle"
measure "channel, page 500 by number" "/v1/news/channels/$channel/articles?page=500&size=20"
measure "channels with unread counts" "/v1/news/channels"
measure "baseline again (GET /v1/server)" "/v1/server"
