#!/usr/bin/env bash
# HTTP benchmark: the Swift server against a tiny libmicrohttpd server in C that returns the
# same bytes, then the Swift server's memory at rest and under a sustained load, and
# optionally the idle-connection flood. See Benchmarks/http/README.md.
#
# usage: Benchmarks/http/run.sh [--duration 10s] [--connections 64] [--threads 2] [--soak 60]
#                               [--rounds 2] [--warmup 3] [--route /v1/server] [--flood]
#                               [--flood-count 10000] [--flood-hold 15] [--flood-sources 50]
#                               [--server-bin PATH]
#
# exit status: 0 every target met, 3 a target missed (the numbers are still printed and
# written to Benchmarks/out/http-results.json), 1 the harness itself failed, 2 bad usage.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/Benchmarks/out"
run="$out/http-run"

duration=10s
connections=64
threads=2
soak=60
rounds=2
warmup=3
route=/v1/server
flood=0
flood_count=10000
flood_hold=15
flood_sources=50
server_bin=""
start_timeout=30

usage() { sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
die() { echo "run.sh: error: $*" >&2; exit 1; }
bad_usage() { echo "run.sh: $*" >&2; usage >&2; exit 2; }
need_value() { [ $# -ge 2 ] && [ -n "$2" ] || bad_usage "$1 needs a value"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --duration) need_value "$@"; duration="$2"; shift 2 ;;
    --connections) need_value "$@"; connections="$2"; shift 2 ;;
    --threads) need_value "$@"; threads="$2"; shift 2 ;;
    --soak) need_value "$@"; soak="$2"; shift 2 ;;
    --rounds) need_value "$@"; rounds="$2"; shift 2 ;;
    --warmup) need_value "$@"; warmup="$2"; shift 2 ;;
    --route) need_value "$@"; route="$2"; shift 2 ;;
    --flood) flood=1; shift ;;
    --flood-count) need_value "$@"; flood_count="$2"; shift 2 ;;
    --flood-hold) need_value "$@"; flood_hold="$2"; shift 2 ;;
    --flood-sources) need_value "$@"; flood_sources="$2"; shift 2 ;;
    --server-bin) need_value "$@"; server_bin="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) bad_usage "unknown argument: $1" ;;
  esac
done

is_uint() { [[ "$1" =~ ^[0-9]+$ ]]; }
# wrk durations: 10, 10s, 2m, 1h. Seconds, for bounding every load with `timeout`.
duration_s() {
  case "$1" in
    *[0-9]s) echo "${1%s}" ;; *[0-9]m) echo $(( ${1%m} * 60 )) ;; *[0-9]h) echo $(( ${1%h} * 3600 )) ;;
    *) echo "$1" ;;
  esac
}
dur_s="$(duration_s "$duration")"
is_uint "$dur_s" && [ "$dur_s" -ge 1 ] || bad_usage "--duration must look like 10s, 2m or 30 (got '$duration')"
for v in connections threads rounds; do
  is_uint "${!v}" && [ "${!v}" -ge 1 ] || bad_usage "--$v must be a positive integer (got '${!v}')"
done
is_uint "$warmup" || bad_usage "--warmup must be an integer number of seconds (got '$warmup')"
is_uint "$soak" || bad_usage "--soak must be an integer number of seconds (got '$soak')"
[ "$soak" -eq 0 ] || [ "$soak" -ge 10 ] || bad_usage "--soak must be 0 (skip) or at least 10 seconds (RSS is sampled every 5 s)"
is_uint "$flood_count" && is_uint "$flood_hold" && is_uint "$flood_sources" \
  || bad_usage "--flood-count, --flood-hold and --flood-sources must be integers"
[ "$flood_sources" -ge 1 ] && [ "$flood_sources" -le 250 ] || bad_usage "--flood-sources must be between 1 and 250"
[ "$threads" -le "$connections" ] || bad_usage "--threads ($threads) cannot exceed --connections ($connections)"
[[ "$route" == /* ]] || bad_usage "--route must start with / (got '$route')"

# --- dependencies (only what is missing) -------------------------------------------------
missing=()
for pair in wrk:wrk gcc:gcc pkg-config:pkg-config curl:curl python3:python3; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
done
pkg-config --exists libmicrohttpd 2>/dev/null || missing+=(libmicrohttpd-dev)
if [ ${#missing[@]} -gt 0 ]; then
  echo "run.sh: installing missing packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -q && $SUDO apt-get install -y -q "${missing[@]}" \
    || die "could not install ${missing[*]} (install them by hand: apt-get install ${missing[*]})"
fi

# --- processes: everything this script starts is killed at exit, by pid -----------------
server_pid=""; baseline_pid=""; load_pid=""; tmp=""
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  for pid in $load_pid $baseline_pid $server_pid; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in $load_pid $baseline_pid $server_pid; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  [ -n "$tmp" ] && rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'echo "run.sh: interrupted" >&2; exit 130' INT TERM

# The server keeps one descriptor per connection (the flood opens 10000): let it, and us,
# use the hard limit.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

mkdir -p "$out"
rm -rf "$run"
mkdir -p "$run"
tmp="$(mktemp -d /tmp/cloudmusic-bench.XXXXXX)"

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
alive() { kill -0 "$1" 2>/dev/null; }
show_log() {  # show_log FILE TITLE
  echo "---- $2 ($1), last 80 lines ----" >&2
  tail -n 80 "$1" >&2 || true
  echo "---- end of $2 ----" >&2
}
server_died() {
  local status=0
  wait "$server_pid" 2>/dev/null || status=$?
  server_pid=""
  show_log "$run/server.log" "server log"
  die "cloudmusic-server exited (status $status) $1"
}

# --- build ----------------------------------------------------------------------------------
if [ -z "$server_bin" ]; then
  echo "==> swift build -c release --product cloudmusic-server"
  if ! (cd "$root" && swift build -c release --product cloudmusic-server) >"$run/build.log" 2>&1; then
    show_log "$run/build.log" "swift build output"
    die "the Swift server did not build (full output: $run/build.log)"
  fi
  server_bin="$root/.build/release/cloudmusic-server"
fi
[ -x "$server_bin" ] || die "no server executable at $server_bin"

echo "==> gcc baseline.c -> $out/baseline"
# shellcheck disable=SC2046
if ! gcc -O2 -Wall "$here/baseline.c" $(pkg-config --cflags --libs libmicrohttpd) -o "$out/baseline" \
    >"$run/baseline-build.log" 2>&1; then
  show_log "$run/baseline-build.log" "gcc output"
  die "the C baseline did not build"
fi

# --- the demo library, made once (ffmpeg, can take a minute) and cached ------------------------
demo="$out/demo-library"
if [ ! -f "$demo/.bench-complete" ]; then
  echo "==> generating the demo library in $demo (cached for later runs)"
  rm -rf "$demo"
  "$server_bin" demo "$demo" --data "$tmp/demo-data" >"$run/demo.log" 2>&1 \
    || { show_log "$run/demo.log" "demo output"; die "cloudmusic-server demo failed"; }
  touch "$demo/.bench-complete"
fi

# --- start the Swift server -------------------------------------------------------------------
swift_port="$(free_port)"
echo "==> starting $server_bin serve --port $swift_port --music $demo"
"$server_bin" serve --port "$swift_port" --data "$tmp/data" --music "$demo" --log-level warning >"$run/server.log" 2>&1 &
server_pid=$!
swift_url="http://127.0.0.1:$swift_port"
deadline=$(( SECONDS + start_timeout ))
until curl -fsS -m 2 -o /dev/null "$swift_url/health" 2>/dev/null; do
  alive "$server_pid" || server_died "before GET /health answered"
  if [ "$SECONDS" -ge "$deadline" ]; then
    show_log "$run/server.log" "server log"
    die "GET $swift_url/health did not answer 2xx within ${start_timeout}s"
  fi
  sleep 0.2
done
# The server scans the demo library in the background: wait for that scan to finish, then let
# it settle, before measuring it at rest.
deadline=$(( SECONDS + 120 ))
while curl -fsS -m 5 "$swift_url/v1/library/scan" 2>/dev/null | grep -q '"running" *: *true'; do
  [ "$SECONDS" -lt "$deadline" ] || die "the server's startup scan did not finish within 120 s"
  sleep 0.2
done
sleep 1
swift_idle_rss="$(rss_kb "$server_pid")"
# Where the resident memory is: anonymous (heap, stacks) versus mapped files (the executable and
# shared libraries such as Foundation and ICU), and the largest mappings.
cat "/proc/$server_pid/smaps_rollup" >"$run/smaps-rollup-idle.txt" 2>/dev/null || true
awk '/^[0-9a-f]+-[0-9a-f]+ / { name = ($6 == "" ? "[anon]" : $6) } /^Rss:/ { rss[name] += $2 }
     END { for (n in rss) if (rss[n] > 0) printf "%8d kB  %s\n", rss[n], n }' "/proc/$server_pid/smaps" 2>/dev/null \
  | sort -rn | head -15 >"$run/rss-by-mapping-idle.txt" || true
swift_idle_anon="$(awk '/^Rss_Anon:|^Anonymous:/ { print $2; exit }' "$run/smaps-rollup-idle.txt" 2>/dev/null || true)"
echo "    up (pid $server_pid), idle RSS ${swift_idle_rss} kB (anonymous ${swift_idle_anon:-?} kB; by mapping: $run/rss-by-mapping-idle.txt)"

# --- the benchmark body ------------------------------------------------------------------------
code="$(curl -sS -m 5 -D "$run/headers-swift.txt" -o "$run/body-swift.json" -w '%{http_code}' "$swift_url$route")" \
  || die "GET $swift_url$route failed (curl)"
if [ "$code" != 200 ]; then
  head -c 2000 "$run/body-swift.json" >&2 || true; echo >&2
  die "GET $route answered $code, not 200"
fi
body_bytes="$(wc -c <"$run/body-swift.json")"
[ "$body_bytes" -gt 0 ] || die "GET $route answered an empty body"
grep -qi '^content-type: *application/json' "$run/headers-swift.txt" \
  || echo "    warning: the Swift response's Content-Type is not application/json:" \
       "$(grep -i '^content-type' "$run/headers-swift.txt" | tr -d '\r')"
# Keep-alive matters enormously to wrk's numbers: make sure the server keeps the connection.
connects="$(curl -s -m 5 -o /dev/null -o /dev/null -w '%{num_connects} ' "$swift_url$route" "$swift_url$route" || true)"
[ "$connects" = "1 0 " ] \
  || echo "    warning: the Swift server does not keep connections alive (new connections per request: $connects)"
# The exact bytes, trailing newline included (command substitution would strip it).
body="$(cat "$run/body-swift.json"; printf x)"; body="${body%x}"

# --- start the C baseline with those bytes ---------------------------------------------------
c_port="$(free_port)"
[ "$c_port" != "$swift_port" ] || c_port="$(free_port)"
echo "==> starting the C baseline on port $c_port ($body_bytes bytes body)"
"$out/baseline" "$c_port" "$body" >"$run/baseline.log" 2>&1 &
baseline_pid=$!
c_url="http://127.0.0.1:$c_port"
deadline=$(( SECONDS + 10 ))
until curl -fsS -m 2 -o "$run/body-c.json" -D "$run/headers-c.txt" "$c_url$route" 2>/dev/null; do
  if ! alive "$baseline_pid" || [ "$SECONDS" -ge "$deadline" ]; then
    show_log "$run/baseline.log" "baseline log"
    die "the C baseline did not answer on $c_url"
  fi
  sleep 0.1
done
if ! cmp -s "$run/body-swift.json" "$run/body-c.json"; then
  echo "swift: $(head -c 300 "$run/body-swift.json" | od -c | head -5)" >&2
  echo "c:     $(head -c 300 "$run/body-c.json" | od -c | head -5)" >&2
  die "the two servers return different bodies"
fi
c_idle_rss="$(rss_kb "$baseline_pid")"
echo "    identical bodies ($body_bytes bytes); response headers: swift $(wc -c <"$run/headers-swift.txt") bytes, c $(wc -c <"$run/headers-c.txt") bytes"

# --- wrk, interleaved -------------------------------------------------------------------------
wrk_run() {  # wrk_run NAME URL SECONDS OUTFILE
  local name="$1" url="$2" secs="$3" file="$4" status=0
  timeout -k 5 $(( secs + 30 )) wrk -t"$threads" -c"$connections" -d"${secs}s" --latency "$url$route" \
    >"$file" 2>&1 &
  load_pid=$!
  wait "$load_pid" || status=$?
  load_pid=""
  if [ "$status" -ne 0 ]; then
    cat "$file" >&2
    die "wrk against $name failed (status $status)"
  fi
  [ "$name" != swift ] || alive "$server_pid" || server_died "during the wrk load"
  [ "$name" != c ] || alive "$baseline_pid" || { show_log "$run/baseline.log" "baseline log"; die "the C baseline died under load"; }
}
rps_of() { awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$1"; }
p99_of() { awk '$1 == "99%" { print $2 }' "$1"; }

if [ "$warmup" -gt 0 ]; then
  echo "==> warm-up ${warmup}s each"
  wrk_run c "$c_url" "$warmup" "$run/warmup-c.txt"
  wrk_run swift "$swift_url" "$warmup" "$run/warmup-swift.txt"
fi
for r in $(seq "$rounds"); do
  for s in c swift; do
    if [ "$s" = c ]; then url="$c_url"; else url="$swift_url"; fi
    sleep 1
    wrk_run "$s" "$url" "$dur_s" "$run/wrk-$s-$r.txt"
    printf '    round %d %-5s %10s req/s   p99 %s\n' "$r" "$s" "$(rps_of "$run/wrk-$s-$r.txt")" "$(p99_of "$run/wrk-$s-$r.txt")"
  done
done

# --- memory under a sustained load ------------------------------------------------------------
swift_after_rss=""
: >"$run/rss-soak.tsv"
if [ "$soak" -gt 0 ]; then
  echo "==> soak: wrk ${soak}s against the Swift server, RSS every 5 s"
  sleep 1
  timeout -k 5 $(( soak + 30 )) wrk -t"$threads" -c"$connections" -d"${soak}s" --latency "$swift_url$route" \
    >"$run/wrk-soak.txt" 2>&1 &
  load_pid=$!
  t=0
  while [ $(( t + 5 )) -lt "$soak" ]; do
    sleep 5; t=$(( t + 5 ))
    alive "$server_pid" || server_died "during the soak"
    alive "$load_pid" || break
    kb="$(rss_kb "$server_pid")"
    echo "$t $kb" >>"$run/rss-soak.tsv"
    printf '    t=%3ds RSS %s kB\n' "$t" "$kb"
  done
  status=0; wait "$load_pid" || status=$?; load_pid=""
  if [ "$status" -ne 0 ]; then cat "$run/wrk-soak.txt" >&2; die "wrk (soak) failed (status $status)"; fi
  alive "$server_pid" || server_died "during the soak"
  sleep 2
  swift_after_rss="$(rss_kb "$server_pid")"
fi

# --- idle-connection flood (optional) ---------------------------------------------------------
if [ "$flood" -eq 1 ]; then
  echo "==> idle flood: $flood_count connections from $flood_sources address(es) from 127.0.0.2, held ${flood_hold}s"
  status=0
  python3 "$here/idle-flood.py" --port "$swift_port" --count "$flood_count" --hold "$flood_hold" --sources "$flood_sources" \
    --server-pid "$server_pid" --json "$run/flood.json" || status=$?
  [ "$status" -le 1 ] || die "idle-flood.py failed (status $status)"
  alive "$server_pid" || server_died "during the idle flood"
fi

# --- report -----------------------------------------------------------------------------------
{
  echo "timestamp=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cores=$(nproc)"
  echo "kernel=$(uname -r)"
  echo "wrk_version=$(wrk -v 2>&1 | head -1 | awk '{ print $2 }')"
  echo "mhd_version=$(pkg-config --modversion libmicrohttpd)"
  echo "git_commit=$(git -C "$root" rev-parse HEAD 2>/dev/null || true)"
  echo "route=$route"
  echo "duration=${dur_s}s"
  echo "connections=$connections"
  echo "threads=$threads"
  echo "rounds=$rounds"
  echo "warmup=$warmup"
  echo "soak=$soak"
  echo "body_bytes=$body_bytes"
  echo "swift_idle_rss_kb=$swift_idle_rss"
  echo "swift_idle_anon_kb=$swift_idle_anon"
  echo "c_idle_rss_kb=$c_idle_rss"
  echo "swift_after_soak_rss_kb=$swift_after_rss"
} >"$run/meta.env"
status=0
python3 "$here/report.py" summarize "$run" --json "$out/http-results.json" || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 3 ] || die "report.py failed (status $status)"
exit "$status"
