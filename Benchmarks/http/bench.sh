#!/usr/bin/env bash
# HTTP benchmark: a 2,000-step workflow of GETs against a local nginx, against the
# `curl` CLI fetching the same 2,000 URLs in one process (keep-alive), in the same run.
# Prints requests per second for both and their ratio, and the start-up time of
# `courier --version`. Targets: ratio >= 0.85 (issue 11), start-up median < 15 ms.
#
#   Benchmarks/http/bench.sh [STEPS] [ROUNDS]
#
# BENCH_ROWS=1 adds `ROW` lines for Benchmarks/run.sh (Benchmarks/rows.sh): each round's ratio
# and times, and the peak RSS of the courier run (GNU time, one extra run a round).
set -euo pipefail
cd "$(dirname "$0")/../.."
steps=${1:-2000}
rounds=${2:-5}

. Benchmarks/serve-www.sh
. Benchmarks/rows.sh

[ -n "${BENCH_BIN_DIR:-}" ] || swift build -c release --static-swift-stdlib >/dev/null
courier=${BENCH_BIN_DIR:-.build/release}/courier

work=$(mktemp -d)
trap 'stop_www "$work"; rm -rf "$work"' EXIT
mkdir -p "$work/www"
printf '{"id":1,"name":"courier","tags":["bench","http"],"price":12.5,"ok":true}\n' > "$work/www/hello.json"
serve_www "$work"

# The workflow: one step per request, each checking its status.
{
  echo "name: bench"
  echo "steps:"
  for i in $(seq 1 "$steps"); do
    echo "  - request: { url: \"http://127.0.0.1:$port/hello.json?i=$i\" }"
    echo "    expect: { status: 200 }"
  done
} > "$work/bench.yaml"
for i in $(seq 1 "$steps"); do
  echo "url = \"http://127.0.0.1:$port/hello.json?i=$i\""
  echo "output = /dev/null"
done > "$work/curl.cfg"

now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

"$courier" run -q "$work/bench.yaml" >/dev/null || { echo "error: the benchmark workflow failed:" >&2; "$courier" run -q "$work/bench.yaml" | tail -30 >&2; exit 1; }  # warm-up
curl -s -K "$work/curl.cfg"
courier_ns=(); curl_ns=()
for _ in $(seq 1 "$rounds"); do
  t0=$(now); "$courier" run -q "$work/bench.yaml" >/dev/null; t1=$(now)
  courier_ns+=($((t1 - t0)))
  t0=$(now); curl -s -K "$work/curl.cfg"; t1=$(now)
  curl_ns+=($((t1 - t0)))
  if [ -n "${BENCH_ROWS:-}" ]; then
    row http.seq.ratio "$(awk -v a="${courier_ns[-1]}" -v b="${curl_ns[-1]}" 'BEGIN { printf "%.3f", b / a }')" x
    row http.seq.courier "$(awk -v a="${courier_ns[-1]}" 'BEGIN { printf "%.1f", a / 1e6 }')" ms
    row http.seq.curl "$(awk -v b="${curl_ns[-1]}" 'BEGIN { printf "%.1f", b / 1e6 }')" ms
    /usr/bin/time -f %M -o "$work/rss" "$courier" run -q "$work/bench.yaml" >/dev/null
    row http.seq.rss "$(awk '{ printf "%.1f", $1 / 1024 }' "$work/rss")" MB
  fi
done
courier_med=$(printf '%s\n' "${courier_ns[@]}" | median)
curl_med=$(printf '%s\n' "${curl_ns[@]}" | median)

# Start-up: median of 101 runs of `courier --version`.
startup=()
for _ in $(seq 1 101); do
  t0=$(now); "$courier" --version >/dev/null; t1=$(now)
  startup+=($((t1 - t0)))
done
startup_med=$(printf '%s\n' "${startup[@]}" | median)

python3 - "$steps" "$courier_med" "$curl_med" "$startup_med" <<'PY'
import sys
steps, courier_ns, curl_ns, startup_ns = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
courier_rps = steps / (courier_ns / 1e9)
curl_rps = steps / (curl_ns / 1e9)
ratio = courier_rps / curl_rps
print(f"{steps} sequential GETs against nginx on loopback (median of the rounds, whole process):")
print(f"  courier run : {courier_ns/1e6:8.1f} ms  {courier_rps:8.0f} req/s")
print(f"  curl -K     : {curl_ns/1e6:8.1f} ms  {curl_rps:8.0f} req/s")
print(f"  ratio courier/curl: {ratio:.2f}x  (target >= 0.85)  {'OK' if ratio >= 0.85 else 'BELOW TARGET'}")
print(f"courier --version start-up, median of 101: {startup_ns/1e6:.1f} ms  (target < 15 ms)  {'OK' if startup_ns < 15e6 else 'ABOVE TARGET'}")
PY
