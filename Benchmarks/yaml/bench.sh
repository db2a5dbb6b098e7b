#!/usr/bin/env bash
# Workflow load benchmark: generates the 5 MB workflow (the same steps as the
# `largeWorkflowLoads` test) and the HTTP benchmark's 2,000-step file,
# builds courier in release and prints the median of 5 runs of
# `courier validate -q` for each, next to `courier --version` (start-up alone).
#
# Wall-clock is noisy on a shared machine; the CPU column (user + sys) is the
# steadier number to compare.
#
#   Benchmarks/yaml/bench.sh [scratch-path]     (default /tmp/build-wf)
#
# BENCH_ROWS=1 adds `ROW` lines for Benchmarks/run.sh (Benchmarks/rows.sh): BENCH_ROUNDS more
# runs of the 5 MB file under GNU time, each its wall time, peak RSS and RSS / input size.
set -euo pipefail
cd "$(dirname "$0")/../.."
scratch=${1:-/tmp/build-wf}
data=$(mktemp -d /tmp/courier-yaml-bench.XXXXXX)
trap 'rm -rf "$data"' EXIT

. Benchmarks/rows.sh
Benchmarks/yaml/generate.sh "$data"
if [ -n "${BENCH_BIN_DIR:-}" ]; then
    courier=$BENCH_BIN_DIR/courier
else
    swift build -c release --scratch-path "$scratch" >/dev/null
    courier="$scratch/release/courier"
fi

# Prints "wall cpu" in milliseconds for one run of the command.
measure() {
    local TIMEFORMAT='%R %U %S'
    local t
    t=$( { time "$@" >/dev/null 2>&1; } 2>&1 )
    awk '{ printf "%.0f %.0f\n", $1 * 1000, ($2 + $3) * 1000 }' <<<"$t"
}

# median of 5 for wall and CPU
report() {
    local label=$1; shift
    "$@" >/dev/null 2>&1 || { echo "$label: command failed: $*" >&2; exit 1; }
    local runs=()
    for _ in 1 2 3 4 5; do runs+=("$(measure "$@")"); done
    local wall cpu
    wall=$(printf '%s\n' "${runs[@]}" | awk '{print $1}' | sort -n | sed -n 3p)
    cpu=$(printf '%s\n' "${runs[@]}" | awk '{print $2}' | sort -n | sed -n 3p)
    printf '%-34s %8s ms wall %8s ms cpu\n' "$label" "$wall" "$cpu"
}

printf 'files: %s (%s bytes), %s (%s bytes)\n' \
    big.yaml "$(wc -c <"$data/big.yaml")" bench.yaml "$(wc -c <"$data/bench.yaml")"
report "courier --version" "$courier" --version
report "validate -q bench.yaml (2,000)" "$courier" validate -q "$data/bench.yaml"
report "validate -q big.yaml (5 MB)" "$courier" validate -q "$data/big.yaml"

if [ -n "${BENCH_ROWS:-}" ]; then
    input=$(wc -c <"$data/big.yaml")
    for _ in $(seq 1 "${BENCH_ROUNDS:-5}"); do
        t0=$(now_ns)
        /usr/bin/time -f %M -o "$data/rss" "$courier" validate -q "$data/big.yaml" >/dev/null 2>&1
        t1=$(now_ns)
        row validate5mb.time "$(awk -v t=$((t1 - t0)) 'BEGIN { printf "%.3f", t / 1e9 }')" s
        row validate5mb.rss "$(awk '{ printf "%.1f", $1 / 1024 }' "$data/rss")" MB
        row validate5mb.rss_ratio "$(awk -v n="$input" '{ printf "%.1f", $1 * 1024 / n }' "$data/rss")" x
    done
fi
