# Sourced by benchmark scripts that run the real server: a work folder and the processes started, both gone at
# exit; the server started on a free loopback port; the first account (an administrator) signed in.
#
#   source "$root/Benchmarks/lib/server.sh"
#   bench_begin                      # $work, cleanup at exit
#   bench_serve "$server" --music "$work/music" ...   # $base (http://127.0.0.1:PORT)
#   bench_sign_in                    # $token
#   bench_background cmd args...     # runs cmd, killed at exit

work="$(mktemp -d)"
pids=()
bench_cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap bench_cleanup EXIT

bench_background() {
  "$@" &
  pids+=($!)
}

# Starts `$1 serve --port 0 --data $work/data --signup-codes off --log-level warning` with the rest of the
# arguments, and waits (up to a minute) for the address it prints.
bench_serve() {
  local binary="$1"
  shift
  "$binary" serve --port 0 --data "$work/data" --signup-codes off --log-level warning "$@" >"$work/server.out" 2>&1 &
  pids+=($!)
  for _ in $(seq 600); do grep -qo '127\.0\.0\.1:[0-9]*' "$work/server.out" 2>/dev/null && break; sleep 0.1; done
  base="http://$(grep -o '127\.0\.0\.1:[0-9]*' "$work/server.out" | head -1)"
  [ "$base" != "http://" ] || { echo "the server did not start:" >&2; cat "$work/server.out" >&2; exit 1; }
}

# Makes the first account (the server's administrator) and signs it in.
bench_sign_in() {
  curl -sf -X POST "$base/v1/users" -H 'Content-Type: application/json' \
    -d '{"email":"bench@example.com","nickname":"Bench","password":"correct horse"}' >/dev/null
  token="$(curl -sf -X POST "$base/v1/sessions" -H 'Content-Type: application/json' \
    -d '{"email":"bench@example.com","password":"correct horse"}' |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["session"])')"
}
