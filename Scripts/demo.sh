#!/usr/bin/env bash
# `make demo`: start the demo API on a free loopback port, run Workflows/ against it
# with the release binary, write reports/junit.xml, stop the API, exit with Courier's status.
set -uo pipefail
cd "$(dirname "$0")/.."

courier=.build/release/courier
[ -x "$courier" ] || { echo "error: $courier is missing; run 'make release' first" >&2; exit 3; }

workdir=$(mktemp -d)
python3 Demo/demo_api.py --port 0 --port-file "$workdir/port" >"$workdir/api.log" 2>&1 &
api=$!
trap 'kill $api 2>/dev/null; wait $api 2>/dev/null; rm -rf "$workdir"' EXIT INT TERM

for _ in $(seq 1 100); do [ -s "$workdir/port" ] && break; sleep 0.05; done
if [ ! -s "$workdir/port" ]; then
  echo "error: the demo API did not start:" >&2
  cat "$workdir/api.log" >&2
  exit 3
fi
port=$(cat "$workdir/port")
echo "demo API listening on http://127.0.0.1:$port"
echo

mkdir -p reports
"$courier" run Workflows --var "base_url=http://127.0.0.1:$port" --junit reports/junit.xml "$@"
status=$?
echo
echo "JUnit report: reports/junit.xml"
exit $status
