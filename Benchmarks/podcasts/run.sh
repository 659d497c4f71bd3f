#!/usr/bin/env bash
# Feed benchmarks (issue 30): parsing a 5,000-episode feed, and refreshing 1,000 feeds of which 10 changed.
#
# usage: Benchmarks/podcasts/run.sh [--rounds 5] [--feeds 1000] [--changed 10] [--episodes 50]
#
#   parse:   podcast-bench generates a 5,000-episode feed (about 9 MB) and reads it from disk in 64 KB chunks
#            through WebFeedParser, best of --rounds, against libxml2 alone (a handler that does nothing) in
#            the same run; then alone under /usr/bin/time -v for the peak resident set (streaming; keeping
#            every item in memory; libxml2 alone, which is the process's own floor).
#   refresh: nginx (Debian's nginx-light, ETags and 304s on its own) serves --feeds generated feeds of
#            --episodes episodes on 127.0.0.2; one Fetcher refreshes them all with their validators after
#            --changed of them got a new episode, alternating with a full refresh (no validators) as the
#            baseline. Time, CPU of the refreshing process, answers by status, and nginx's request count.
#
# Results: one JSON line per benchmark, printed and written to Benchmarks/out/podcasts-results.json.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/Benchmarks/out"
rounds=5
feeds=1000
changed=10
episodes=50

while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --feeds) feeds="$2"; shift 2 ;;
    --changed) changed="$2"; shift 2 ;;
    --episodes) episodes="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done

command -v nginx >/dev/null || { echo "run.sh: needs nginx (apt-get install nginx-light)" >&2; exit 1; }
mkdir -p "$out"
(cd "$root" && swift build -c release --product podcast-bench >&2)
bench="$root/.build/release/podcast-bench"
work="$(mktemp -d)"
nginx_pid=""
cleanup() {
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# Parsing.
"$bench" generate --episodes 5000 --out "$work/big.xml" >&2
parse="$("$bench" parse "$work/big.xml" --rounds "$rounds" | tail -1)"
peak_kb="$(/usr/bin/time -v "$bench" parse "$work/big.xml" --rounds 1 --only feed 2>&1 >/dev/null \
  | awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}')"
kept_kb="$(/usr/bin/time -v "$bench" parse "$work/big.xml" --rounds 1 --only feed --keep 2>&1 >/dev/null \
  | awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}')"
xml_kb="$(/usr/bin/time -v "$bench" parse "$work/big.xml" --rounds 1 --only xml 2>&1 >/dev/null \
  | awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}')"
parse="${parse%\}},\"peakKiB\":$peak_kb,\"peakKiBKeepingItems\":$kept_kb,\"peakKiBXMLOnly\":$xml_kb}"

# Refreshing, against nginx on 127.0.0.2 and a free port.
"$bench" generate --episodes "$episodes" --feeds "$feeds" --folder "$work/feeds" >&2
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.2", 0)); print(s.getsockname()[1])')"
mkdir -p "$work/nginx"
cat >"$work/nginx/nginx.conf" <<CONF
user root;
worker_processes 1;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
  access_log $work/nginx/access.log;
  client_body_temp_path $work/nginx/body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;
  keepalive_requests 100000;
  types { application/rss+xml xml; }
  server { listen 127.0.0.2:$port; root $work/feeds; etag on; }
}
CONF
nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" &
nginx_pid=$!
for _ in $(seq 1 100); do
  curl -fs -o /dev/null "http://127.0.0.2:$port/0.xml" && break
  sleep 0.1
done
: >"$work/nginx/access.log"
refresh="$("$bench" refresh --base "http://127.0.0.2:$port/" --root "$work/feeds" --feeds "$feeds" \
  --changed "$changed" --episodes "$episodes" --rounds "$rounds" | tee /dev/stderr | tail -1)"
requests="$(wc -l <"$work/nginx/access.log")"
statuses="$(awk '{print $9}' "$work/nginx/access.log" | sort | uniq -c | awk '{printf "%s\"%s\":%s", (NR > 1 ? "," : ""), $2, $1}')"
refresh="${refresh%\}},\"nginxRequests\":$requests,\"nginxStatuses\":{$statuses}}"

{
  echo "$parse"
  echo "$refresh"
} | tee "$out/podcasts-results.json"
