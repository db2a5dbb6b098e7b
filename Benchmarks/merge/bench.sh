#!/usr/bin/env bash
# `courier merge-reports` at scale: 50 JUnit shards and 50 JSON shards of 200 workflows
# each (10,000 workflows, shaped as `courier run` writes them; Benchmarks/merge/generate.py),
# and the same 10,000 workflows in one file of each kind (where a quadratic step shows
# most), merged by the release build. Prints wall time and peak RSS of each merge against
# the goals (issue 21): under 2 s, and under 3x the inputs' total size + 50 MB. The memory
# goal is for the shards; one file's row shows it but does not fail on it (a single JSON
# report's parsed value tree is about 3.5x its text while it is decoded).
#
#   Benchmarks/merge/bench.sh
#   SHARDS=10 WORKFLOWS=100 Benchmarks/merge/bench.sh
#
# Exits 1 when a merge fails or misses a goal.
set -euo pipefail
cd "$(dirname "$0")/../.."

SHARDS=${SHARDS:-50}
WORKFLOWS=${WORKFLOWS:-200}
MAX_SECONDS=${MAX_SECONDS:-2}

swift build -c release --static-swift-stdlib --product courier >&2
courier=$PWD/.build/release/courier

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/shards" "$work/one"
python3 Benchmarks/merge/generate.py "$work/shards" "$SHARDS" "$WORKFLOWS"
python3 Benchmarks/merge/generate.py "$work/one" 1 $((SHARDS * WORKFLOWS))

failed=0
run() {
    local label=$1 memory_goal=$2 out=$3; shift 3
    local bytes
    bytes=$(cat "$@" | wc -c)
    if ! /usr/bin/time -f '%e %M' -o "$work/time" "$courier" merge-reports "$out" "$@" 2>"$work/err"; then
        echo "$label: merge-reports failed:" >&2; tail -5 "$work/err" >&2
        failed=1
        return
    fi
    read -r seconds kilobytes < "$work/time"
    python3 - "$label" "$bytes" "$seconds" "$kilobytes" "$MAX_SECONDS" "$memory_goal" <<'PY' || failed=1
import sys
label, size, seconds, rss, max_seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]) * 1024, float(sys.argv[5])
memory_checked = sys.argv[6] == "checked"
max_rss = 3 * size + 50 * 2**20
ok = seconds < max_seconds and (rss < max_rss or not memory_checked)
note = "" if memory_checked or rss < max_rss else " (not checked for one file)"
print(f"{label:28} input {size / 2**20:6.1f} MiB  {seconds:5.2f} s (goal < {max_seconds:g} s)  "
      f"peak RSS {rss / 2**20:6.1f} MiB (goal < {max_rss / 2**20:.1f} MiB){note}  {'ok' if ok else 'MISSED'}")
sys.exit(0 if ok else 1)
PY
}
shards=()
for k in $(seq 1 "$SHARDS"); do shards+=("$work/shards/junit-$k.xml"); done
run "JUnit, $SHARDS shards" checked "$work/merged.xml" "${shards[@]}"
run "JUnit, one file" shown "$work/merged-one.xml" "$work/one/junit-1.xml"
shards=()
for k in $(seq 1 "$SHARDS"); do shards+=("$work/shards/json-$k.json"); done
run "JSON, $SHARDS shards" checked "$work/merged.json" "${shards[@]}"
run "JSON, one file" shown "$work/merged-one.json" "$work/one/json-1.json"
grep -q "\"workflows\": $((SHARDS * WORKFLOWS))$" "$work/merged.json" || { echo "the merged JSON report does not count $((SHARDS * WORKFLOWS)) workflows" >&2; failed=1; }
exit "$failed"
