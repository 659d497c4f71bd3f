#!/usr/bin/env bash
# The outside probe's long schemathesis run: the same as Tests/Schemathesis/run.sh (every check, positive and
# negative data, signed out, as a person and as the administrator) on a release build, with more examples and a
# new seed each time, so it finds what the test's fixed seed does not.
#
#   bash Benchmarks/schemathesis/run.sh [--max-examples N]
set -euo pipefail
cd "$(dirname "$0")/../.."
examples=200
while [ $# -gt 0 ]; do
  case "$1" in
    --max-examples) examples="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 64 ;;
  esac
done
swift build -c release --product cloudmusic-server >/dev/null
CLOUDMUSIC_SERVER_BIN=.build/release/cloudmusic-server \
  bash Tests/Schemathesis/run.sh --max-examples "$examples" --seed "$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')"
