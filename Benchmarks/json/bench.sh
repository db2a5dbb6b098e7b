#!/usr/bin/env bash
# CourierJSON vs Python's json.loads on one generated document, in the same run.
#
#   Benchmarks/json/bench.sh            # 20 MB document, best of 3 runs each
#   SIZE_MB=50 REPEAT=5 SCRATCH_PATH=/tmp/build Benchmarks/json/bench.sh
#
# Prints both parse times (first run and best run), their ratio, Courier's peak RSS after
# parsing and after `$..price`, and the `$..price` evaluation time. Exits 1 when Courier is
# slower than Python or its peak RSS after parsing reaches 5x the input size.
#
# BENCH_ROWS=1 adds `ROW` lines for Benchmarks/run.sh (Benchmarks/rows.sh): the pair of runs is
# repeated BENCH_ROUNDS times (default 3), each round's best times and ratio a sample; the
# verdict and the printed numbers are the last round's.
set -euo pipefail
cd "$(dirname "$0")/../.."

SCRATCH_PATH=${SCRATCH_PATH:-.build}
SIZE_MB=${SIZE_MB:-20}
REPEAT=${REPEAT:-3}

. Benchmarks/rows.sh
if [ -n "${BENCH_BIN_DIR:-}" ]; then
    BIN="$BENCH_BIN_DIR/courier-json-bench"
else
    swift build -c release --scratch-path "$SCRATCH_PATH" --product courier-json-bench >&2
    BIN="$SCRATCH_PATH/release/courier-json-bench"
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
DOC="$WORK/bench.json"
python3 Benchmarks/json/generate.py "$DOC" "$SIZE_MB"

ROUNDS=1
[ -n "${BENCH_ROWS:-}" ] && ROUNDS=${BENCH_ROUNDS:-3}
value() { awk -v k="$1" '$1 == k { print $2 }' "$WORK/courier.txt" "$WORK/python.txt"; }
for _ in $(seq 1 "$ROUNDS"); do
python3 - "$DOC" "$REPEAT" > "$WORK/python.txt" <<'PY'
import json, resource, sys, time
data = open(sys.argv[1], "rb").read()
times = []
for _ in range(int(sys.argv[2])):
    start = time.perf_counter()
    value = json.loads(data)
    times.append(time.perf_counter() - start)
    del value
print(f"python_parse_first_seconds {times[0]:.4f}")
print(f"python_parse_best_seconds {min(times):.4f}")
print(f"python_peak_rss_bytes {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}")
PY
"$BIN" "$DOC" "$REPEAT" > "$WORK/courier.txt"
if [ -n "${BENCH_ROWS:-}" ]; then
    row json.ratio "$(awk -v c="$(value courier_parse_best_seconds)" -v p="$(value python_parse_best_seconds)" 'BEGIN { printf "%.3f", p / c }')" x
    row json.courier "$(awk -v c="$(value courier_parse_best_seconds)" 'BEGIN { printf "%.1f", c * 1000 }')" ms
    row json.python "$(awk -v p="$(value python_parse_best_seconds)" 'BEGIN { printf "%.1f", p * 1000 }')" ms
    row json.rss_ratio "$(awk -v r="$(value peak_rss_after_first_parse_bytes)" -v n="$(value input_bytes)" 'BEGIN { printf "%.2f", r / n }')" x
fi
done

cat "$WORK/courier.txt" "$WORK/python.txt"
courier=$(value courier_parse_best_seconds)
python=$(value python_parse_best_seconds)
courier_first=$(value courier_parse_first_seconds)
python_first=$(value python_parse_first_seconds)
rss=$(value peak_rss_after_first_parse_bytes)
input=$(value input_bytes)
awk -v c="$courier" -v p="$python" -v cf="$courier_first" -v pf="$python_first" -v r="$rss" -v n="$input" 'BEGIN {
    printf "ratio_python_over_courier_best %.2f\n", p / c
    printf "ratio_python_over_courier_first %.2f\n", pf / cf
    printf "courier_peak_rss_after_parse_over_input %.2f\n", r / n
    ok = (c <= p && r < 5 * n)
    print (ok ? "PASS" : "FAIL") ": Courier parse at least as fast as Python and peak RSS under 5x input"
    exit ok ? 0 : 1
}'
