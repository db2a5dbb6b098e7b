#!/usr/bin/env bash
# Renders a sample HTML report (`courier run --html`) with headless Chromium to
# docs/html-report.png, the picture the README shows. Not part of `make test`:
# it needs Debian's `chromium` package (apt-get install chromium).
#
# The sample runs Scripts/html-sample.yaml against the test server on a free
# loopback port: passing steps, a retried step, a redirect, and a failed expectation.
set -uo pipefail
cd "$(dirname "$0")/.."

courier=${COURIER_BIN:-.build/debug/courier}
[ -x "$courier" ] || { echo "error: $courier is missing; run 'swift build' first" >&2; exit 3; }
chromium=$(command -v chromium || command -v chromium-browser) || {
  echo "error: chromium is missing; install it with 'apt-get install chromium'" >&2; exit 3; }
out=${1:-docs/html-report.png}

workdir=$(mktemp -d)
python3 Tests/Servers/testserver.py --port 0 --port-file "$workdir/port" >"$workdir/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$workdir"' EXIT INT TERM

for _ in $(seq 1 100); do [ -s "$workdir/port" ] && break; sleep 0.05; done
[ -s "$workdir/port" ] || { echo "error: the test server did not start:" >&2; cat "$workdir/server.log" >&2; exit 3; }
port=$(cat "$workdir/port")

cp Scripts/html-sample.yaml "$workdir/orders.yaml"
(cd "$workdir" && NO_COLOR=1 "$OLDPWD/$courier" run orders.yaml --var "base_url=http://127.0.0.1:$port" \
  --var "run=$$" --html report.html >/dev/null)
[ -s "$workdir/report.html" ] || { echo "error: courier wrote no report" >&2; exit 1; }

# No network: the page loads nothing, and the CSP would block it if it tried.
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --window-size=1200,900 --screenshot="$PWD/$out" "file://$workdir/report.html" 2>"$workdir/chromium.log" || {
  echo "error: chromium failed:" >&2; cat "$workdir/chromium.log" >&2; exit 1; }
echo "wrote $out ($(wc -c <"$out") bytes) from a $(wc -c <"$workdir/report.html")-byte report"
