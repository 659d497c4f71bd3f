#!/usr/bin/env bash
# Subsonic benchmark: CloudMusic's /rest and supysonic (a Python Subsonic server from PyPI) side by side on
# the same generated library, with the same wrk settings. See Benchmarks/subsonic/README.md.
#
# usage: Benchmarks/subsonic/run.sh [--tracks 10000] [--duration 15] [--connections 8] [--threads 2]
#                                   [--only cloudmusic|supysonic] [--server-bin PATH]
#
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
duration=15
connections=8
threads=2
only="cloudmusic,supysonic"
server_bin=""

usage() { sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
die() { echo "run.sh: error: $*" >&2; exit 1; }
bad_usage() { echo "run.sh: $*" >&2; usage >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --tracks) tracks="${2:?}"; shift 2 ;;
    --duration) duration="${2%s}"; shift 2 ;;
    --connections) connections="${2:?}"; shift 2 ;;
    --threads) threads="${2:?}"; shift 2 ;;
    --only) only="${2:?}"; shift 2 ;;
    --server-bin) server_bin="${2:?}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) bad_usage "unknown argument: $1" ;;
  esac
done
for v in tracks duration connections threads; do [[ "${!v}" =~ ^[0-9]+$ ]] || bad_usage "--$v must be a number"; done
want() { [[ ",$only," == *",$1,"* ]]; }

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
results="$run/results.env"
: >"$results"
record() { echo "$1=$2" >>"$results"; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_http() {  # URL PID: until the URL answers
  local deadline=$(( SECONDS + 120 ))
  until curl -fsS -m 5 -o /dev/null "$1"; do
    kill -0 "$2" 2>/dev/null || die "the server ($1) exited; see $run"
    [ "$SECONDS" -lt "$deadline" ] || die "the server ($1) did not answer in 120 s"
    sleep 0.3
  done
}
json() { python3 -c "import json,sys; d=json.load(sys.stdin)['subsonic-response']; print($1)"; }

# --- build and library ------------------------------------------------------------------------
echo "==> swift build -c release (cloudmusic-server, library-bench-gen)"
if [ -z "$server_bin" ]; then
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

# bench NAME SERVER URL [wrk args...]: wrk with the common settings; records req/s, p50, p99.
bench() {
  local name="$1" server="$2" url="$3"; shift 3
  local log="$run/wrk-$server-$name.txt"
  curl -fsS -o /dev/null -m 60 "$@" "$url" || die "$server $name: $url did not answer"
  wrk -t"$threads" -c"$connections" -d"${duration}s" --latency --timeout 30s "$@" "$url" >"$log" 2>&1 || die "wrk failed: $log"
  local rps p50 p99
  rps="$(awk '/^Requests\/sec:/ { print $2 }' "$log")"
  p50="$(awk '$1 == "50%" { print $2 }' "$log")"
  p99="$(awk '$1 == "99%" { print $2 }' "$log")"
  record "${server}_${name}_rps" "$rps"
  record "${server}_${name}_p50" "$p50"
  record "${server}_${name}_p99" "$p99"
  record "${server}_${name}_errors" "$(grep -cE 'Non-2xx|Socket errors' "$log" || true)"
  printf '    %-10s %-14s %10s req/s  p50 %-9s p99 %s\n' "$server" "$name" "$rps" "$p50" "$p99"
}

# endpoints SERVER BASE AUTH ALBUM SONG: the five measured calls, the same for both servers.
endpoints() {
  local server="$1" base="$2" auth="$3" album="$4" song="$5"
  bench getAlbumList2 "$server" "$base/rest/getAlbumList2.view?$auth&type=newest&size=50"
  bench search3 "$server" "$base/rest/search3.view?$auth&query=Silver&artistCount=20&albumCount=20&songCount=20"
  bench getArtists "$server" "$base/rest/getArtists.view?$auth"
  bench getAlbum "$server" "$base/rest/getAlbum.view?$auth&id=$album"
  bench stream "$server" "$base/rest/stream.view?$auth&id=$song" -H "Range: bytes=0-65535"
}

# --- CloudMusic -----------------------------------------------------------------------------
if want cloudmusic; then
  data="$run/cloudmusic-data"
  echo "==> cloudmusic: scan, an account and an app password"
  "$server_bin" scan --data "$data" --music "$library" --log-level warning >"$run/cloudmusic-scan.log" 2>&1 || die "scan failed"
  printf '%s\n' "bench-password-Wq7!x" | "$server_bin" user add bench@example.com Bench --admin --data "$data" >/dev/null
  password="$("$server_bin" user app-password bench@example.com wrk --data "$data" | tail -1)"
  port="$(free_port)"
  "$server_bin" serve --data "$data" --music "$library" --port "$port" --log-level warning >"$run/cloudmusic.log" 2>&1 &
  pids+=($!)
  base="http://127.0.0.1:$port"
  wait_http "$base/health" "${pids[-1]}"
  hex="$(printf '%s' "$password" | od -An -tx1 | tr -d ' \n')"
  auth="u=Bench&p=enc:$hex&v=1.16.1&c=wrk&f=json"
  # The start-up rescan (nothing changed) must end first; the scan status is the administrator's to read.
  until [ "$(curl -fsS "$base/rest/getScanStatus.view?$auth" | json "d['scanStatus']['scanning']")" = "False" ]; do
    sleep 0.5
  done
  album="$(curl -fsS "$base/rest/getAlbumList2.view?$auth&type=newest&size=1" | json "d['albumList2']['album'][0]['id']")"
  song="$(curl -fsS "$base/rest/getAlbum.view?$auth&id=$album" | json "d['album']['song'][0]['id']")"
  record cloudmusic_rss_kb "$(awk '/^VmRSS:/ { print $2 }' "/proc/${pids[-1]}/status")"
  echo "==> cloudmusic ($base, album $album, song $song)"
  endpoints cloudmusic "$base" "$auth" "$album" "$song"
fi

# --- supysonic ------------------------------------------------------------------------------
if want supysonic; then
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
  if [ ! -f "$home/.scanned" ]; then
    echo "==> supysonic: scanning $library (minutes, once)"
    rm -f "$home/supysonic.db"
    (cd "$home" && "$venv/bin/supysonic-cli" user add bench -p benchpw \
      && "$venv/bin/supysonic-cli" user setroles -A bench \
      && "$venv/bin/supysonic-cli" folder add Music "$library" \
      && "$venv/bin/supysonic-cli" folder scan --foreground Music) >"$run/supysonic-scan.log" 2>&1 || die "supysonic scan failed: $run/supysonic-scan.log"
    touch "$home/.scanned"
  fi
  port="$(free_port)"
  (cd "$home" && exec "$venv/bin/supysonic-server" -S waitress -h 127.0.0.1 -p "$port" --threads 4) >"$run/supysonic.log" 2>&1 &
  pids+=($!)
  base="http://127.0.0.1:$port"
  auth="u=bench&p=enc:$(printf benchpw | od -An -tx1 | tr -d ' \n')&v=1.16.1&c=wrk&f=json"
  wait_http "$base/rest/ping.view?$auth" "${pids[-1]}"
  album="$(curl -fsS "$base/rest/getAlbumList2.view?$auth&type=newest&size=1" | json "d['albumList2']['album'][0]['id']")"
  song="$(curl -fsS "$base/rest/getAlbum.view?$auth&id=$album" | json "d['album']['song'][0]['id']")"
  echo "==> supysonic ($base, album $album, song $song)"
  endpoints supysonic "$base" "$auth" "$album" "$song"
fi

python3 "$here/report.py" "$results"
