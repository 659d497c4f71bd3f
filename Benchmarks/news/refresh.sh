#!/usr/bin/env bash
# Refreshing 500 news sources, mostly unchanged, by the server's own schedule (issue 32).
#
# usage: Benchmarks/news/refresh.sh [--sources 500] [--changed 10] [--debug]
#
# origin.py serves the feeds on 127.0.0.2 with ETags (a matching If-None-Match gets 304). An administrator adds
# every source through the API (each fetched, parsed and written: timed). Then `--changed` feeds get a new
# article, every source is made due (next_refresh_at = 0 in the SQLite file) and the scheduler's next pass
# refreshes them (8 at a time): the time from its first request to the last source written, and what the
# origin answered.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
sources=500
changed=10
config=release
while [ $# -gt 0 ]; do
  case "$1" in
    --sources) sources="$2"; shift 2 ;;
    --changed) changed="$2"; shift 2 ;;
    --debug) config=debug; shift ;;
    -h|--help) sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "refresh.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done

(cd "$root" && swift build -c "$config" --product cloudmusic-server >&2)
server="$root/.build/$config/cloudmusic-server"
source "$root/Benchmarks/lib/server.sh"
mkdir -p "$work/music"

bench_background python3 "$here/origin.py" 127.0.0.2 >"$work/origin.out"
for _ in $(seq 100); do [ -s "$work/origin.out" ] && break; sleep 0.1; done
feeds="http://127.0.0.2:$(head -1 "$work/origin.out")"

bench_serve "$server" --music "$work/music" --fetch-allow 127.0.0.2/32 --news-refresh 1 --podcast-refresh off

bench_sign_in
channel="$(curl -sf -X POST "$base/v1/news/channels" -H "Authorization: $token" -H 'Content-Type: application/json' \
  -d '{"title":"头条"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["id"])')"
start=$(date +%s.%N)
for n in $(seq 0 $((sources - 1))); do
  curl -sf -X POST "$base/v1/news/sources" -H "Authorization: $token" -H 'Content-Type: application/json' \
    -d "{\"url\":\"$feeds/feed/$n\",\"channelId\":\"$channel\"}" >/dev/null
done
echo "added $sources sources (each fetched, parsed, written) in $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s"

curl -sf "$feeds/_change?count=$changed" >/dev/null
curl -sf "$feeds/_reset" >/dev/null
python3 - "$work/data/cloudmusic.sqlite" "$feeds" "$sources" <<'PY'
import json, sqlite3, sys, time, urllib.request
db = sqlite3.connect(sys.argv[1], timeout=60)
mark = int(time.time())
with db:
    db.execute("UPDATE news_sources SET next_refresh_at = 0, refreshed_at = NULL")
while True:
    done = db.execute("SELECT count(*) FROM news_sources WHERE refreshed_at IS NOT NULL").fetchone()[0]
    if done == int(sys.argv[3]):
        break
    time.sleep(0.02)
end = time.time()
stats = json.load(urllib.request.urlopen(sys.argv[2] + "/_stats"))
articles = db.execute("SELECT count(*) FROM news_articles").fetchone()[0]
print("refresh pass: %d sources in %.2f s (first request to last source written); origin answered %d x 304, %d x 200;"
      " %d articles stored" % (int(sys.argv[3]), end - stats["first"], stats["304"], stats["200"], articles))
PY
