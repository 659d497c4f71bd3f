#!/usr/bin/env bash
# Subsonic benchmark: CloudMusic's /rest and supysonic (a Python Subsonic server from PyPI) on the same
# generated library, with the same wrk settings, measured in the same run: round by round, method by method,
# one server then the other (the order swaps every round), so each round's ratio compares measurements taken
# seconds apart. See Benchmarks/subsonic/README.md.
#
# usage: Benchmarks/subsonic/run.sh [--tracks 10000] [--rounds 3] [--duration 15] [--warmup 3]
#                                   [--connections 8] [--threads 2] [--methods LIST] [--server-bin PATH]
#
# --methods: comma separated, of getAlbumList2, search3, search3-distinct, getArtists, getAlbum, stream (all).
# Needs wrk, curl and python3 (apt-get install wrk curl python3-venv; the script installs what is missing) and
# PyPI for supysonic (installed once into Benchmarks/out/supysonic-venv). The library is the one
# Benchmarks/library generates (Benchmarks/out/lib-N, reused when complete); supysonic's scan of it is kept in
# Benchmarks/out/supysonic-N (it takes minutes). Everything started here is stopped by pid at exit.
# exit status: 0 every target met, 3 a target missed, 1 the harness failed, 2 bad usage.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/Benchmarks/out"
run="$out/subsonic-run"

tracks=10000
rounds=3
duration=15
warmup=3
connections=8
threads=2
methods="getAlbumList2,search3,search3-distinct,getArtists,getAlbum,stream"
server_bin=""

usage() { sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
die() { echo "run.sh: error: $*" >&2; exit 1; }
bad_usage() { echo "run.sh: $*" >&2; usage >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --tracks) tracks="${2:?}"; shift 2 ;;
    --rounds) rounds="${2:?}"; shift 2 ;;
    --duration) duration="${2%s}"; shift 2 ;;
    --warmup) warmup="${2%s}"; shift 2 ;;
    --connections) connections="${2:?}"; shift 2 ;;
    --threads) threads="${2:?}"; shift 2 ;;
    --methods) methods="${2:?}"; shift 2 ;;
    --server-bin) server_bin="${2:?}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) bad_usage "unknown argument: $1" ;;
  esac
done
for v in tracks rounds duration warmup connections threads; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || bad_usage "--$v must be a number"
done
[ "$rounds" -ge 1 ] && [ "$duration" -ge 1 ] || bad_usage "--rounds and --duration must be at least 1"
IFS=, read -r -a method_list <<<"$methods"
for m in "${method_list[@]}"; do
  case "$m" in getAlbumList2|search3|search3-distinct|getArtists|getAlbum|stream) ;; *) bad_usage "unknown method: $m" ;; esac
done

missing=()
for pair in wrk:wrk curl:curl python3:python3; do command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}"); done
python3 -c 'import venv' 2>/dev/null || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
  echo "run.sh: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -q && $SUDO apt-get install -y -q "${missing[@]}" || die "apt-get install ${missing[*]} failed"
fi

pids=()
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
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
results="$run/results.tsv"
: >"$results"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_http() {  # URL PID: until the URL answers
  local deadline=$(( SECONDS + 120 ))
  until curl -fs -m 5 -o /dev/null "$1"; do
    kill -0 "$2" 2>/dev/null || die "the server ($1) exited; see $run"
    [ "$SECONDS" -lt "$deadline" ] || die "the server ($1) did not answer in 120 s"
    sleep 0.3
  done
}
json() { python3 -c "import json,sys; d=json.load(sys.stdin)['subsonic-response']; print($1)"; }
hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }

# --- build and library ------------------------------------------------------------------------
if [ -z "$server_bin" ]; then
  echo "==> swift build -c release --product cloudmusic-server"
  (cd "$root" && swift build -c release --product cloudmusic-server) >"$run/build.log" 2>&1 || die "build failed: $run/build.log"
  server_bin="$root/.build/release/cloudmusic-server"
fi
library="$out/lib-$tracks"
if [ "$(cat "$library/.bench-complete" 2>/dev/null || true)" != "$tracks" ]; then
  (cd "$root" && swift build -c release --product library-bench-gen) >>"$run/build.log" 2>&1 || die "build failed"
  echo "==> generating a $tracks-track library in $library"
  rm -rf "$library" "$library.partial"
  "$root/.build/release/library-bench-gen" "$library.partial" "$tracks" >"$run/generate.log" || die "generation failed"
  echo "$tracks" >"$library.partial/.bench-complete"
  mv "$library.partial" "$library"
fi

# --- CloudMusic -----------------------------------------------------------------------------
data="$run/cloudmusic-data"
echo "==> cloudmusic: scan, an account and an app password"
"$server_bin" scan --data "$data" --music "$library" --log-level warning >"$run/cloudmusic-scan.log" 2>&1 || die "scan failed"
printf '%s\n' "bench-password-Wq7!x" | "$server_bin" user add bench@example.com Bench --admin --data "$data" >/dev/null
password="$("$server_bin" user app-password bench@example.com wrk --data "$data" | tail -1)"
port="$(free_port)"
"$server_bin" serve --data "$data" --music "$library" --port "$port" --log-level warning >"$run/cloudmusic.log" 2>&1 &
pids+=($!)
cloudmusic_pid=$!
cloudmusic_base="http://127.0.0.1:$port"
wait_http "$cloudmusic_base/health" "$cloudmusic_pid"
# Both servers take the password as p=enc:<hex> (supysonic has no token authentication).
cloudmusic_auth="u=Bench&p=enc:$(hex "$password")&v=1.16.1&c=wrk&f=json"
# The start-up rescan (nothing changed) must end first; the scan status is the administrator's to read.
until [ "$(curl -fsS "$cloudmusic_base/rest/getScanStatus.view?$cloudmusic_auth" | json "d['scanStatus']['scanning']")" = "False" ]; do
  sleep 0.5
done

# --- supysonic ------------------------------------------------------------------------------
venv="$out/supysonic-venv"
if ! "$venv/bin/python" -c 'import supysonic, waitress' 2>/dev/null; then
  echo "==> installing supysonic 0.7.9 and waitress into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "supysonic==0.7.9" "waitress==3.0.2" || die "pip install supysonic failed"
fi
home="$out/supysonic-$tracks"
mkdir -p "$home"
cat >"$home/supysonic.conf" <<EOF
[base]
database_uri = sqlite:///$home/supysonic.db

[webapp]
cache_dir = $home/cache
log_level = WARNING
mount_webui = no
online_lyrics = no

[daemon]
socket = $home/supysonic.sock
run_watcher = no
EOF
# The scan is kept only for the library it was made from (the library's completion mark is newer when the
# library was made again).
if [ ! -f "$home/.scanned" ] || [ "$library/.bench-complete" -nt "$home/.scanned" ]; then
  echo "==> supysonic: scanning $library (minutes, once)"
  rm -f "$home/supysonic.db" "$home/.scanned"
  (cd "$home" && "$venv/bin/supysonic-cli" user add bench -p benchpw \
    && "$venv/bin/supysonic-cli" user setroles -A bench \
    && "$venv/bin/supysonic-cli" folder add Music "$library" \
    && "$venv/bin/supysonic-cli" folder scan --foreground Music) >"$run/supysonic-scan.log" 2>&1 || die "supysonic scan failed: $run/supysonic-scan.log"
  touch "$home/.scanned"
fi
port="$(free_port)"
(cd "$home" && exec "$venv/bin/supysonic-server" -S waitress -h 127.0.0.1 -p "$port" --threads 4) >"$run/supysonic.log" 2>&1 &
pids+=($!)
supysonic_pid=$!
supysonic_base="http://127.0.0.1:$port"
supysonic_auth="u=bench&p=enc:$(hex benchpw)&v=1.16.1&c=wrk&f=json"
wait_http "$supysonic_base/rest/ping.view?$supysonic_auth" "$supysonic_pid"

# --- the same album and song on both, the calls, and what each answers -------------------------
eval "$(python3 "$here/pick.py" "$cloudmusic_base" "$cloudmusic_auth" "$supysonic_base" "$supysonic_auth")" || die "pick.py failed"
echo "==> album '$album_name' ($album_songs songs; cloudmusic $cloudmusic_album, supysonic $supysonic_album), song '$song_title' ($song_size bytes)"
queries="$run/queries.txt"
echo "==> $(python3 "$here/queries.py" "$tracks" "$queries") distinct search3 queries in $queries"
search_counts="artistCount=20&albumCount=20&songCount=20"
# url SERVER METHOD: the measured call (for search3-distinct, with the first distinct query)
url() {
  local base="${1}_base" auth="${1}_auth" album="${1}_album" song="${1}_song"
  local prefix="${!base}/rest"
  case "$2" in
    getAlbumList2) echo "$prefix/getAlbumList2.view?${!auth}&type=newest&size=50" ;;
    search3) echo "$prefix/search3.view?${!auth}&query=Silver&$search_counts" ;;
    search3-distinct) echo "$prefix/search3.view?${!auth}&$search_counts&query=$(head -1 "$queries")" ;;
    getArtists) echo "$prefix/getArtists.view?${!auth}" ;;
    getAlbum) echo "$prefix/getAlbum.view?${!auth}&id=${!album}" ;;
    stream) echo "$prefix/stream.view?${!auth}&id=${!song}" ;;
  esac
}
range_header="Range: bytes=0-65535"
for server in cloudmusic supysonic; do
  for m in "${method_list[@]}"; do
    printf '%s\t%s\t%s%s\n' "$server" "$m" "$(url "$server" "$m")" "$([ "$m" = stream ] && printf '\t%s' "$range_header")"
  done
done >"$run/urls.tsv"
echo "==> what each server answers"
python3 "$here/check.py" "$run/urls.tsv" || die "a server does not answer a measured call (above)"

# --- measuring ------------------------------------------------------------------------------
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
ticks_per_second="$(getconf CLK_TCK)"
# wrk_run ROUND SERVER METHOD SECONDS LOG: one wrk run with the common settings
wrk_run() {
  local round="$1" server="$2" m="$3" seconds="$4" log="$5"
  local args=(-t"$threads" -c"$connections" -d"${seconds}s" --latency --timeout 30s)
  [ "$m" = stream ] && args+=(-H "$range_header")
  if [ "$m" = search3-distinct ]; then
    local base="${server}_base" auth="${server}_auth"
    local count start
    count="$(wc -l <"$queries")"
    # Both servers get the same queries in a round; each round starts elsewhere in the list.
    start=$(( round * 7919 % count ))
    wrk "${args[@]}" -s "$here/distinct.lua" "${!base}" -- "/rest/search3.view?${!auth}&$search_counts&query=" \
      "$queries" "$start" "$threads" >"$log" 2>&1
  else
    wrk "${args[@]}" "$(url "$server" "$m")" >"$log" 2>&1
  fi
}
# measure ROUND SERVER METHOD: one measured run; appends a line to results.tsv
measure() {
  local round="$1" server="$2" m="$3"
  local pid_var="${server}_pid" log="$run/wrk-$round-$server-$m.txt"
  local before after
  before="$(cpu_ticks "${!pid_var}")"
  wrk_run "$round" "$server" "$m" "$duration" "$log" || die "wrk failed: $log"
  after="$(cpu_ticks "${!pid_var}")"
  kill -0 "${!pid_var}" 2>/dev/null || die "$server exited during $m; see $run"
  python3 "$here/report.py" parse "$log" >"$log.json" || die "cannot read $log"
  python3 - "$log.json" "$round" "$m" "$server" "$(( after - before ))" "$ticks_per_second" >>"$results" <<'EOF'
import json, sys
path, round_, method, server, ticks, hz = sys.argv[1:7]
f = json.load(open(path))
cpu = int(ticks) * 1000 / int(hz) / max(f["requests"], 1)
print("\t".join(str(v) for v in (round_, method, server, f["requests"], f["rps"], f["p50_ms"], f["p99_ms"],
                                 f["errors"], round(cpu, 4))))
EOF
  tail -1 "$results" | awk -F'\t' '{ printf "    round %s  %-16s %-10s %10.1f req/s  p50 %7.2f ms  p99 %8.2f ms  CPU %7.3f ms/req  errors %s\n", $1, $2, $3, $5, $6, $7, $9, $8 }'
}

echo "==> load average: $(cut -d' ' -f1-3 /proc/loadavg); warm-up ($warmup s per method and server)"
if [ "$warmup" -gt 0 ]; then
  for m in "${method_list[@]}"; do
    for server in cloudmusic supysonic; do
      wrk_run 0 "$server" "$m" "$warmup" "$run/warmup-$server-$m.txt" || die "wrk failed: $run/warmup-$server-$m.txt"
    done
  done
fi
echo "==> $rounds rounds of wrk -t$threads -c$connections -d${duration}s, both servers each round"
for round in $(seq "$rounds"); do
  for m in "${method_list[@]}"; do
    if [ $(( round % 2 )) -eq 1 ]; then order=(cloudmusic supysonic); else order=(supysonic cloudmusic); fi
    for server in "${order[@]}"; do measure "$round" "$server" "$m"; done
  done
done
echo "==> load average: $(cut -d' ' -f1-3 /proc/loadavg); what each server answers after the rounds"
python3 "$here/check.py" "$run/urls.tsv" >"$run/check-after.txt" || { cat "$run/check-after.txt"; die "a server stopped answering correctly"; }
record_rss="$(awk '/^VmRSS:/ { print $2 }' "/proc/$cloudmusic_pid/status")"
echo "==> CloudMusic RSS after the rounds: $(( record_rss / 1024 )) MiB"
echo
python3 "$here/report.py" "$results"
