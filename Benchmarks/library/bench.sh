#!/usr/bin/env bash
# Library benchmark (issue 14), against a local nginx, in one run:
#  1. 2,000 sequential GETs of one small JSON document: the `Courier` library decoding each
#     into a struct (courier-library-bench) vs the runner (`courier run -q` of a 2,000-step
#     workflow checking `status` only). Whole processes, median of ROUNDS; prints the ratio.
#     Target: library time <= 1.10 x runner time.
#  2. `APIClient.download(_:to:progress:)` of 1 GiB to a file, peak RSS by GNU time.
#     Target: peak RSS < 50 MB (the body streams to disk).
#
#   Benchmarks/library/bench.sh [STEPS] [ROUNDS]     (DOWNLOAD_BYTES to change the download size, 0 skips it)
#
# Needs nginx, GNU time (Debian package `time`) and about 1 GiB free in $TMPDIR.
# BENCH_ROWS=1 adds `ROW` lines for Benchmarks/run.sh (Benchmarks/rows.sh): each round's ratio.
set -euo pipefail
cd "$(dirname "$0")/../.."
steps=${1:-2000}
rounds=${2:-5}
size=${DOWNLOAD_BYTES:-1073741824}

. Benchmarks/serve-www.sh
. Benchmarks/rows.sh
[ -x /usr/bin/time ] || { echo "bench.sh: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }

# One release build makes both executables.
[ -n "${BENCH_BIN_DIR:-}" ] || swift build -c release --static-swift-stdlib >/dev/null
courier=${BENCH_BIN_DIR:-.build/release}/courier
bench=${BENCH_BIN_DIR:-.build/release}/courier-library-bench

work=$(mktemp -d "${TMPDIR:-/tmp}/courier-library-bench.XXXXXX")
trap 'stop_www "$work"; rm -rf "$work"' EXIT
mkdir -p "$work/www"
# The same document as Benchmarks/http/bench.sh.
printf '{"id":1,"name":"courier","tags":["bench","http"],"price":12.5,"ok":true}\n' > "$work/www/hello.json"
[ "$size" -gt 0 ] && truncate -s "$size" "$work/www/big.bin"  # sparse: costs no disk until downloaded
serve_www "$work"
base="http://127.0.0.1:$port"

# The runner's workflow: one step per request, each checking its status (as Benchmarks/http).
{
  echo "name: bench"
  echo "steps:"
  for i in $(seq 1 "$steps"); do
    echo "  - request: { url: \"$base/hello.json?i=$i\" }"
    echo "    expect: { status: 200 }"
  done
} > "$work/bench.yaml"

now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# Warm-up, and both must succeed.
"$courier" run -q "$work/bench.yaml" >/dev/null || { echo "error: the benchmark workflow failed" >&2; exit 1; }
"$bench" get "$base" "$steps" >/dev/null || { echo "error: courier-library-bench failed" >&2; "$bench" get "$base" 1 >&2; exit 1; }
library_ns=(); runner_ns=()
for _ in $(seq 1 "$rounds"); do
  t0=$(now); "$bench" get "$base" "$steps" >/dev/null; t1=$(now)
  library_ns+=($((t1 - t0)))
  t0=$(now); "$courier" run -q "$work/bench.yaml" >/dev/null; t1=$(now)
  runner_ns+=($((t1 - t0)))
  row library.ratio "$(awk -v a="${library_ns[-1]}" -v b="${runner_ns[-1]}" 'BEGIN { printf "%.3f", a / b }')" x
done
library_med=$(printf '%s\n' "${library_ns[@]}" | median)
runner_med=$(printf '%s\n' "${runner_ns[@]}" | median)

python3 - "$steps" "$library_med" "$runner_med" <<'PY'
import sys
steps, library_ns, runner_ns = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
ratio = library_ns / runner_ns
print(f"{steps} sequential GETs of one small JSON document against nginx on loopback (median, whole process):")
print(f"  library (decode into a struct): {library_ns/1e6:8.1f} ms  {steps / (library_ns / 1e9):8.0f} req/s")
print(f"  courier run -q (status only)  : {runner_ns/1e6:8.1f} ms  {steps / (runner_ns / 1e9):8.0f} req/s")
print(f"  ratio library/runner time: {ratio:.2f}x  (target <= 1.10)  {'OK' if ratio <= 1.10 else 'ABOVE TARGET'}")
PY

[ "$size" -gt 0 ] || exit 0
/usr/bin/time -f "%M %e" -o "$work/download.time" "$bench" download "$base/big.bin" "$work/out.bin" > "$work/download.out"
written=$(stat -c %s "$work/out.bin"); rm -f "$work/out.bin"
read -r rss seconds < "$work/download.time"
echo "$(( size / 1048576 )) MiB with APIClient.download(_:to:progress:): $seconds s, peak RSS $(( rss / 1024 )) MB ($(cat "$work/download.out"))"
row library.download.rss "$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')" MB
[ "$written" -eq "$size" ] || { echo "FAIL: $written bytes written, expected $size" >&2; exit 1; }
if [ "$rss" -lt $(( 50 * 1024 )) ]; then echo "peak RSS target (< 50 MB): OK"; else echo "peak RSS target (< 50 MB): ABOVE TARGET"; exit 1; fi
