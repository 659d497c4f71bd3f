#!/usr/bin/env bash
# Library benchmark: scan throughput (first scan and unchanged rescan), search latency and
# memory on a large library, search under load, streaming throughput against nginx serving the
# same file, and the first scan side by side with mpd's. See Benchmarks/library/README.md.
#
# usage: Benchmarks/library/run.sh [--small 10000] [--tracks 100000] [--queries 400]
#                                  [--stream-mb 50] [--duration 10] [--load-duration 20]
#                                  [--rounds 2] [--only scan,search,search-load,stream,mpd]
#                                  [--server-bin PATH]
#
#   --small N     tracks of the scan-throughput library (parts a and e)
#   --tracks N    tracks of the search/memory library (parts b and d); 0 skips them
#   --only LIST   run only these parts (scan = a, search = b, stream = c, search-load = d, mpd = e)
# Generated libraries are cached in Benchmarks/out/lib-N/ and reused when complete.
#
# exit status: 0 every target met, 3 a target missed (the figures are still printed and
# written to Benchmarks/out/library-results.json), 1 the harness failed, 2 bad usage.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/Benchmarks/out"
run="$out/library-run"

small=10000
tracks=100000
queries=400
stream_mb=50
duration=10
load_duration=20
rounds=2
only="scan,search,search-load,stream,mpd"
server_bin=""
start_timeout=60

usage() { sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
die() { echo "run.sh: error: $*" >&2; exit 1; }
bad_usage() { echo "run.sh: $*" >&2; usage >&2; exit 2; }
need_value() { [ $# -ge 2 ] && [ -n "$2" ] || bad_usage "$1 needs a value"; }
is_uint() { [[ "$1" =~ ^[0-9]+$ ]]; }

while [ $# -gt 0 ]; do
  case "$1" in
    --small) need_value "$@"; small="$2"; shift 2 ;;
    --tracks) need_value "$@"; tracks="$2"; shift 2 ;;
    --queries) need_value "$@"; queries="$2"; shift 2 ;;
    --stream-mb) need_value "$@"; stream_mb="$2"; shift 2 ;;
    --duration) need_value "$@"; duration="${2%s}"; shift 2 ;;
    --load-duration) need_value "$@"; load_duration="${2%s}"; shift 2 ;;
    --rounds) need_value "$@"; rounds="$2"; shift 2 ;;
    --only) need_value "$@"; only="$2"; shift 2 ;;
    --server-bin) need_value "$@"; server_bin="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) bad_usage "unknown argument: $1" ;;
  esac
done
for v in small tracks queries stream_mb duration load_duration rounds; do
  is_uint "${!v}" || bad_usage "--${v/_/-} must be a non-negative integer (got '${!v}')"
done
[ "$small" -ge 10 ] || bad_usage "--small must be at least 10"
[ "$queries" -ge 10 ] || bad_usage "--queries must be at least 10"
[ "$stream_mb" -ge 2 ] || bad_usage "--stream-mb must be at least 2"
[ "$duration" -ge 1 ] && [ "$load_duration" -ge 1 ] && [ "$rounds" -ge 1 ] \
  || bad_usage "--duration, --load-duration and --rounds must be at least 1"
want() { [[ ",$only," == *",$1,"* ]]; }
for part in ${only//,/ }; do
  case "$part" in
    scan|search|search-load|stream|mpd) ;;
    *) bad_usage "--only takes scan, search, search-load, stream and mpd (got '$part')" ;;
  esac
done
[ "$tracks" -gt 0 ] || only="$(tr ',' '\n' <<<"$only" | { grep -vxE 'search|search-load' || true; } | paste -sd, -)"

# --- dependencies (only what is missing) -------------------------------------------------
missing=()
for pair in wrk:wrk curl:curl python3:python3 ffmpeg:ffmpeg nginx:nginx $(want mpd && echo mpd:mpd); do
  command -v "${pair%%:*}" >/dev/null 2>&1 || [ -x "/usr/sbin/${pair%%:*}" ] || [ -x "/usr/bin/${pair%%:*}" ] \
    || missing+=("${pair#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "run.sh: installing missing packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -q && $SUDO apt-get install -y -q "${missing[@]}" \
    || die "could not install ${missing[*]} (install them by hand: apt-get install ${missing[*]})"
fi
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
mpd_bin="$(command -v mpd || echo /usr/bin/mpd)"

# --- processes: everything this script starts is stopped at exit, by pid -----------------
server_pid=""; nginx_pid=""; load_pid=""
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  for pid in $load_pid $nginx_pid $server_pid; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in $load_pid $nginx_pid $server_pid; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  exit "$rc"
}
trap cleanup EXIT
trap 'echo "run.sh: interrupted" >&2; exit 130' INT TERM
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

mkdir -p "$out"
rm -rf "$run"
mkdir -p "$run"
results="$run/results.env"   # key=value figures, turned into the table and JSON by report.py
: >"$results"
record() { echo "$1=$2" >>"$results"; }

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null; }   # user + system, clock ticks
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
hwm_kb() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
alive() { kill -0 "$1" 2>/dev/null; }
show_log() { echo "---- $2 ($1), last 60 lines ----" >&2; tail -n 60 "$1" >&2 || true; echo "---- end ----" >&2; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# --- build ----------------------------------------------------------------------------------
if [ -z "$server_bin" ]; then
  echo "==> swift build -c release --product cloudmusic-server"
  (cd "$root" && swift build -c release --product cloudmusic-server) >"$run/build.log" 2>&1 \
    || { show_log "$run/build.log" "swift build"; die "cloudmusic-server did not build"; }
  server_bin="$root/.build/release/cloudmusic-server"
fi
[ -x "$server_bin" ] || die "no server executable at $server_bin"
# The generator is built only when a library is not cached yet (see `library`).
gen_bin=""
build_generator() {
  [ -z "$gen_bin" ] || return 0
  echo "==> swift build -c release --product library-bench-gen" >&2
  (cd "$root" && swift build -c release --product library-bench-gen) >>"$run/build.log" 2>&1 \
    || { show_log "$run/build.log" "swift build"; die "library-bench-gen did not build"; }
  gen_bin="$root/.build/release/library-bench-gen"
}

# --- helpers ----------------------------------------------------------------------------------
# library N: prints the folder of a generated N-track library, generating it if not cached.
library() {
  local n="$1" dir="$out/lib-$1"
  if [ "$(cat "$dir/.bench-complete" 2>/dev/null || true)" != "$n" ]; then
    build_generator
    echo "==> generating a $n-track library in $dir (cached for later runs)" >&2
    rm -rf "$dir" "$dir.partial"
    local t0=$SECONDS
    "$gen_bin" "$dir.partial" "$n" >"$run/generate-$n.log" || { cat "$run/generate-$n.log" >&2; die "library-bench-gen $n failed"; }
    echo "$n" >"$dir.partial/.bench-complete"
    mv "$dir.partial" "$dir"
    echo "    $(tail -1 "$run/generate-$n.log")" >&2
    record "generate_${n}_s" $(( SECONDS - t0 ))
  else
    echo "==> reusing the cached $n-track library $dir" >&2
  fi
  echo "$dir"
}

# scan NAME DATA MUSIC: runs `cloudmusic-server scan`, records NAME_files_per_s etc.
scan() {
  local name="$1" data="$2" music="$3" log="$run/scan-$1.log"
  local t0; t0=$(date +%s.%N)
  /usr/bin/time -f 'maxrss_kb=%M cpu_s=%U+%S' -o "$run/scan-$name.time" \
    "$server_bin" scan --data "$data" --music "$music" --log-level warning >"$log" 2>&1 \
    || { show_log "$log" "scan output"; die "cloudmusic-server scan ($name) failed"; }
  local line; line="$(tr '\r' '\n' <"$log" | grep -a '^Scanned ' | tail -1)"
  [ -n "$line" ] || { show_log "$log" "scan output"; die "no 'Scanned N files in S s (R files/s)' line in the scan output"; }
  echo "    $line"
  # Scanned 10000 files in 3.210 s (3115 files/s): 10000 added, 0 updated, 0 moved, 0 removed, 0 unchanged, 0 skipped.
  local files secs rate added unchanged skipped
  files="$(sed -E 's/^Scanned ([0-9]+) files.*/\1/' <<<"$line")"
  secs="$(sed -E 's/.* in ([0-9.]+) s .*/\1/' <<<"$line")"
  rate="$(sed -E 's/.*\(([0-9]+) files\/s\).*/\1/' <<<"$line")"
  added="$(sed -E 's/.* ([0-9]+) added.*/\1/' <<<"$line")"
  unchanged="$(sed -E 's/.* ([0-9]+) unchanged.*/\1/' <<<"$line")"
  skipped="$(sed -E 's/.* ([0-9]+) skipped.*/\1/' <<<"$line")"
  record "${name}_files" "$files"
  record "${name}_seconds" "$secs"
  record "${name}_files_per_s" "$rate"
  record "${name}_added" "$added"
  record "${name}_unchanged" "$unchanged"
  record "${name}_skipped" "$skipped"
  record "${name}_wall_s" "$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.3f", a - b }')"
  record "${name}_maxrss_kb" "$(sed -nE 's/^maxrss_kb=([0-9]+).*/\1/p' "$run/scan-$name.time")"
  # CPU seconds (user + system) of the scan: less sensitive than files/s to a busy machine.
  record "${name}_cpu_s" "$(sed -nE 's/.*cpu_s=([0-9.]+)\+([0-9.]+).*/\1 \2/p' "$run/scan-$name.time" | awk '{ printf "%.2f", $1 + $2 }')"
}

# start_server DATA MUSIC LOG: starts `serve` on a free port; sets server_pid and server_url.
start_server() {
  local data="$1" music="$2" log="$3"
  "$server_bin" serve --data "$data" --music "$music" --port 0 --host 127.0.0.1 --log-level warning >"$log" 2>&1 &
  server_pid=$!
  local deadline=$(( SECONDS + start_timeout )) port=""
  while [ -z "$port" ]; do
    alive "$server_pid" || { show_log "$log" "server log"; die "cloudmusic-server serve exited before listening"; }
    [ "$SECONDS" -lt "$deadline" ] || { show_log "$log" "server log"; die "the server did not print its address within ${start_timeout}s"; }
    port="$(grep -aoE '127\.0\.0\.1:[0-9]+/' "$log" 2>/dev/null | head -1 | sed -E 's/.*:([0-9]+)\//\1/' || true)"
    [ -n "$port" ] || sleep 0.2
  done
  server_url="http://127.0.0.1:$port"
  until curl -fsS -m 2 -o /dev/null "$server_url/health"; do
    alive "$server_pid" || die "the server exited"; sleep 0.2
  done
}

stop_server() {
  [ -n "$server_pid" ] || return 0
  kill -TERM "$server_pid" 2>/dev/null || true
  for _ in $(seq 100); do alive "$server_pid" || break; sleep 0.1; done
  kill -KILL "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

# wait_scan_idle: waits for the server's own startup scan (GET /v1/library/scan) to finish.
wait_scan_idle() {
  local deadline=$(( SECONDS + 1800 ))
  sleep 0.5
  while curl -fsS -m 5 "$server_url/v1/library/scan" | grep -q '"running" *: *true'; do
    [ "$SECONDS" -lt "$deadline" ] || die "the server's startup scan did not finish within 30 min"
    alive "$server_pid" || die "the server exited during its startup scan"
    sleep 0.5
  done
}

wrk_run() {  # wrk_run OUTFILE ARGS...: bounded wrk, fails the harness if wrk fails
  local file="$1"; shift
  local status=0
  timeout -k 5 $(( duration + load_duration + 60 )) wrk "$@" >"$file" 2>&1 &
  load_pid=$!
  wait "$load_pid" || status=$?
  load_pid=""
  [ "$status" -eq 0 ] || { cat "$file" >&2; die "wrk $* failed (status $status)"; }
}

{
  echo "timestamp=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cores=$(nproc)"
  echo "kernel=$(uname -r)"
  echo "git_commit=$(git -C "$root" rev-parse HEAD 2>/dev/null || true)"
  echo "loadavg_start=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "small=$small"
  echo "tracks=$tracks"
  echo "queries=$queries"
  echo "stream_mb=$stream_mb"
  echo "duration=$duration"
  echo "load_duration=$load_duration"
  echo "rounds=$rounds"
  echo "only=$only"
} >"$run/meta.env"

# --- a) scan throughput -------------------------------------------------------------------------
if want scan; then
  lib="$(library "$small")"
  echo "==> a) scan throughput, $small tracks: 3 first scans (fresh data folders), 5 unchanged rescans"
  # The machine may be shared: each figure is measured several times and the median is the verdict.
  for i in 1 2 3; do
    rm -rf "$run/data-scan-$i"
    scan "first_scan_$i" "$run/data-scan-$i" "$lib"
  done
  for i in 1 2 3 4 5; do
    scan "rescan_$i" "$run/data-scan-3" "$lib"
  done
fi

# --- b) search latency and memory on the large library -----------------------------------------
if want search; then
  lib="$(library "$tracks")"
  echo "==> b) $tracks tracks: scan, serve, search latency, memory"
  rm -rf "$run/data-search"
  scan big_scan "$run/data-search" "$lib"
  scan big_rescan "$run/data-search" "$lib"
  start_server "$run/data-search" "$lib" "$run/server-search.log"
  echo "    server up (pid $server_pid, $server_url); waiting for its startup scan"
  wait_scan_idle
  curl -fsS "$server_url/v1/library/scan" >"$run/scan-status-search.json"
  record big_serve_startup_scan "$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); d=r.get("data",r); print(json.dumps(d.get("lastReport"),ensure_ascii=False).replace("\n"," ")[:300])' "$run/scan-status-search.json" 2>/dev/null || echo '?')"
  sleep 2
  record rss_after_scan_kb "$(rss_kb "$server_pid")"
  record hwm_after_scan_kb "$(hwm_kb "$server_pid")"
  echo "    RSS after the startup scan: $(rss_kb "$server_pid") kB (peak $(hwm_kb "$server_pid") kB)"
  songs_total="$(curl -fsS "$server_url/v1/songs?size=1" | python3 -c 'import json,sys; d=json.load(sys.stdin); d=d.get("data",d); print(d.get("total","?"))')"
  record songs_total "$songs_total"
  echo "    /v1/songs total: $songs_total"
  status=0
  python3 "$here/search-latency.py" --port "${server_url##*:}" --queries "$queries" --tracks "$tracks" \
    --json "$run/search.json" --wrk-lua "$run/search.lua" || status=$?
  [ "$status" -le 1 ] || die "search-latency.py failed (status $status)"
  record search_failed "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["failed"])' "$run/search.json")"
  record search_p50_ms "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["overall"]["p50_ms"])' "$run/search.json")"
  record search_p99_ms "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["overall"]["p99_ms"])' "$run/search.json")"
  echo "==> b) search under load: wrk -t2 -c8 -d${duration}s cycling the same queries"
  wrk_run "$run/wrk-search.txt" -t2 -c8 -d"${duration}s" --latency -s "$run/search.lua" "$server_url"
  python3 "$here/report.py" wrk "$run/wrk-search.txt" search_wrk >>"$results"
  grep -E 'Requests/sec|99%|Non-2xx|Socket' "$run/wrk-search.txt" | sed 's/^/    /'
  record rss_after_search_kb "$(rss_kb "$server_pid")"
  record hwm_after_search_kb "$(hwm_kb "$server_pid")"
  echo "    RSS after the search load: $(rss_kb "$server_pid") kB (peak $(hwm_kb "$server_pid") kB)"
  want search-load || stop_server   # part d goes on with the same server
fi

# --- d) search under load: broad, selective and suggestions, warm and cold, vs album lists -------
if want search-load; then
  if [ -z "$server_pid" ]; then
    lib="$(library "$tracks")"
    echo "==> d) $tracks tracks: scan, serve"
    rm -rf "$run/data-search"
    scan load_scan "$run/data-search" "$lib"
    start_server "$run/data-search" "$lib" "$run/server-search.log"
    echo "    server up (pid $server_pid, $server_url); waiting for its startup scan"
    wait_scan_idle
  fi
  load_songs="$(curl -fsS "$server_url/v1/songs?size=1" | python3 -c 'import json,sys; d=json.load(sys.stdin); d=d.get("data",d); print(d.get("total","?"))')"
  record load_songs_total "$load_songs"
  echo "==> d) search under load on $load_songs songs: wrk -t2 -c32 -d${load_duration}s each, $rounds rounds"
  echo "    what the first warm queries find (at most 20 songs, albums and artists; 10 suggestions):"
  python3 "$here/search-load.py" --port "${server_url##*:}" --tracks "$tracks" --dir "$run" \
    || die "search-load.py failed"
  # Each round: the album list (the baseline), then the three kinds warm (the same 8 queries again
  # and again: kept answers) and cold (every request new: searched in SQLite each time). The
  # server's CPU time (user + system, /proc/PID/stat) over each run, divided by the requests, is a
  # figure a busy machine disturbs far less than req/s.
  tick="$(getconf CLK_TCK)"
  for r in $(seq "$rounds"); do
    for job in albums warm-broad warm-selective warm-suggest cold-broad cold-selective cold-suggest; do
      sleep 1
      cpu0="$(cpu_ticks "$server_pid")"
      if [ "$job" = albums ]; then
        wrk_run "$run/wrk-load-$job-$r.txt" -t2 -c32 -d"${load_duration}s" --latency "$server_url/v1/albums?size=20"
      else
        wrk_run "$run/wrk-load-$job-$r.txt" -t2 -c32 -d"${load_duration}s" --latency -s "$run/load-$job.lua" "$server_url"
      fi
      cpu_s="$(awk -v a="$(cpu_ticks "$server_pid")" -v b="$cpu0" -v t="$tick" 'BEGIN { printf "%.2f", (a - b) / t }')"
      python3 "$here/report.py" wrk "$run/wrk-load-$job-$r.txt" "load_${job//-/_}_r$r" >>"$results"
      record "load_${job//-/_}_r${r}_server_cpu_s" "$cpu_s"
      printf '    round %d %-15s %s  (load %s)\n' "$r" "$job" \
        "$(python3 "$here/report.py" wrk "$run/wrk-load-$job-$r.txt" x | awk -F= -v cpu="$cpu_s" '
            /^x_rps=/ { rps = $2 } /^x_p50_us=/ { p50 = $2 } /^x_p99_us=/ { p99 = $2 } /^x_errors=/ { e = $2 }
            /^x_requests=/ { n = $2 }
            END { printf "%8.0f req/s  p50 %7.2f ms  p99 %7.2f ms  server CPU %.3f ms/req%s", rps, p50 / 1000,
                  p99 / 1000, (n > 0 ? cpu * 1000 / n : 0), (e > 0 ? "  ERRORS " e : "") }')" \
        "$(cut -d' ' -f1 /proc/loadavg)"
    done
  done
  record rss_after_load_kb "$(rss_kb "$server_pid")"
  record hwm_after_load_kb "$(hwm_kb "$server_pid")"
  echo "    RSS after the load: $(rss_kb "$server_pid") kB (peak $(hwm_kb "$server_pid") kB)"
  stop_server
fi

# --- c) streaming against nginx -----------------------------------------------------------------
if want stream; then
  echo "==> c) streaming a ${stream_mb} MB file: cloudmusic /v1/songs/:id/stream vs nginx (sendfile)"
  media="$out/stream-$stream_mb"
  big="$media/music/big.flac"
  if [ ! -s "$big" ]; then
    mkdir -p "$media/music"
    # White noise barely compresses: 2 x 24-bit x 96 kHz FLAC is about 560 kB per second.
    secs=$(( stream_mb * 1024 * 1024 / 560000 + 1 ))
    echo "    making $big ($secs s of 24-bit 96 kHz stereo noise)"
    ffmpeg -nostdin -hide_banner -loglevel error -y \
      -f lavfi -i "anoisesrc=d=$secs:r=96000:a=0.5:c=white:s=1" -f lavfi -i "anoisesrc=d=$secs:r=96000:a=0.5:c=pink:s=2" \
      -filter_complex amerge=inputs=2 -c:a flac -sample_fmt s32 -metadata title="Benchmark Stream" \
      -metadata artist="Bench" "$media/tmp.flac" >"$run/ffmpeg.log" 2>&1 \
      || { show_log "$run/ffmpeg.log" "ffmpeg"; die "ffmpeg could not make the stream file"; }
    mv "$media/tmp.flac" "$big"
  fi
  size="$(stat -c %s "$big")"
  record stream_file_bytes "$size"
  echo "    $big: $size bytes"
  rm -rf "$run/data-stream"
  start_server "$run/data-stream" "$media/music" "$run/server-stream.log"
  wait_scan_idle
  song_id="$(curl -fsS "$server_url/v1/songs?size=5" | python3 -c 'import json,sys; d=json.load(sys.stdin); d=d.get("data",d); print(d["data"][0]["id"])')"
  swift_path="/v1/songs/$song_id/stream"
  # nginx with its own config and prefix, loopback only, sendfile on.
  ng="$run/nginx"; mkdir -p "$ng/logs" "$ng/tmp"
  ng_port="$(free_port)"
  cat >"$ng/nginx.conf" <<EOF
daemon off;
master_process on;
worker_processes $(nproc);
user root;
error_log $ng/logs/error.log warn;
pid $ng/nginx.pid;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path $ng/tmp/body;
  proxy_temp_path $ng/tmp/proxy;
  fastcgi_temp_path $ng/tmp/fastcgi;
  uwsgi_temp_path $ng/tmp/uwsgi;
  scgi_temp_path $ng/tmp/scgi;
  types { audio/flac flac; }
  server {
    listen 127.0.0.1:$ng_port reuseport;  # one listening socket per worker: the load is spread evenly
    root $media/music;
    location / { }
  }
}
EOF
  "$nginx_bin" -p "$ng" -c "$ng/nginx.conf" >"$ng/logs/stdout.log" 2>&1 &
  nginx_pid=$!
  nginx_url="http://127.0.0.1:$ng_port"
  for _ in $(seq 50); do curl -fsS -m 2 -o /dev/null -r 0-0 "$nginx_url/big.flac" 2>/dev/null && break; sleep 0.1; done
  alive "$nginx_pid" || { show_log "$ng/logs/error.log" "nginx error log"; die "nginx did not start"; }
  # Both must give the same bytes, in full and for a range.
  for who in swift nginx; do
    if [ "$who" = swift ]; then u="$server_url$swift_path"; else u="$nginx_url/big.flac"; fi
    code="$(curl -sS -o "$run/range-$who.bin" -D "$run/headers-range-$who.txt" -w '%{http_code}' -r 1000000-2048575 "$u")"
    [ "$code" = 206 ] || die "$who answered $code, not 206, to a Range request ($u)"
    full="$(curl -sS -o /dev/null -w '%{http_code} %{size_download}' "$u")"
    [ "$full" = "200 $size" ] || die "$who full download: got '$full', expected '200 $size'"
  done
  cmp -s "$run/range-swift.bin" "$run/range-nginx.bin" || die "the two servers return different bytes for the same range"
  cmp -s "$run/range-swift.bin" <(tail -c +1000001 "$big" | head -c 1048576) || die "the range does not match the file"
  echo "    both answer 200 (full, $size bytes) and 206 (range, identical bytes)"
  cat >"$run/range.lua" <<EOF
-- 1 MiB ranges at random offsets of a $size-byte file
local size, chunk = $size, 1048576
local n = 0
function setup(thread) n = n + 1; thread:set("seed", n) end
function init(args) math.randomseed(os.time() * 100 + seed) end
function request()
  local off = math.random(0, size - chunk)
  return wrk.format("GET", nil, { ["Range"] = "bytes=" .. off .. "-" .. (off + chunk - 1) })
end
EOF
  for r in $(seq "$rounds"); do
    for who in nginx swift; do
      if [ "$who" = swift ]; then u="$server_url$swift_path"; else u="$nginx_url/big.flac"; fi
      sleep 1
      wrk_run "$run/wrk-range-$who-$r.txt" -t2 -c16 -d"${duration}s" --latency -s "$run/range.lua" "$u"
      sleep 1
      wrk_run "$run/wrk-full-$who-$r.txt" -t2 -c4 -d"${duration}s" --latency --timeout 30s "$u"
      for kind in range full; do
        python3 "$here/report.py" wrk "$run/wrk-$kind-$who-$r.txt" "stream_${kind}_${who}_r$r" >>"$results"
        printf '    round %d %-5s %-5s %s\n' "$r" "$who" "$kind" \
          "$(grep -E '^Requests/sec|^Transfer/sec' "$run/wrk-$kind-$who-$r.txt" | tr -s ' ' | tr '\n' ' ')"
      done
    done
  done
  record rss_after_stream_kb "$(rss_kb "$server_pid")"
  stop_server
  kill -TERM "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; nginx_pid=""
fi

# --- e) first scan side by side with mpd ---------------------------------------------------------
if want mpd; then
  lib="$(library "$small")"
  echo "==> e) first scan of $small tracks: mpd ($("$mpd_bin" --version | head -1)) and cloudmusic-server scan, $rounds rounds, alternating"
  for r in $(seq "$rounds"); do
    if [ $(( r % 2 )) -eq 1 ]; then order="mpd cloudmusic"; else order="cloudmusic mpd"; fi
    for who in $order; do
      sleep 1
      if [ "$who" = mpd ]; then
        rm -rf "$run/mpd-$r"
        status=0
        python3 "$here/mpd-scan.py" --mpd "$mpd_bin" --music "$lib" --work "$run/mpd-$r" --expect "$small" \
          >"$run/mpd-$r.env" 2>"$run/mpd-$r.log" &
        load_pid=$!
        wait "$load_pid" || status=$?
        load_pid=""
        [ "$status" -eq 0 ] || { show_log "$run/mpd-$r.log" "mpd-scan.py"; die "mpd-scan.py failed (status $status)"; }
        sed "s/^mpd_/mpd_r${r}_/" "$run/mpd-$r.env" >>"$results"
        echo "    round $r mpd:        $(tail -1 "$run/mpd-$r.log")"
      else
        rm -rf "$run/data-vs-mpd-$r"
        echo -n "    round $r cloudmusic: "
        scan "vs_mpd_cm_r$r" "$run/data-vs-mpd-$r" "$lib"
      fi
    done
  done
fi

echo "loadavg_end=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$run/meta.env"
status=0
python3 "$here/report.py" summarize "$run" --json "$out/library-results.json" || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 3 ] || die "report.py failed (status $status)"
exit "$status"
