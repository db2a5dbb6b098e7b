#!/usr/bin/env bash
# The quick regression guard that CI runs (.ci/run, `make guard`): instruction counts, never
# wall-clock ratios, so a noisy 2-core machine gives the same verdict twice.
#
# For each row it counts the instructions of the whole `courier` process under callgrind at
# SMALL and at 4 x SMALL steps, then fails when
#   - the count grows more than MAX_GROWTH (5x) for 4x the steps (a quadratic loop gives
#     well over that: the name check of 2,000 steps was 11x that of 500 before it was fixed), or
#   - the cost of one more step, (I(4 x SMALL) - I(SMALL)) / (3 x SMALL), is more than
#     TOLERANCE (25 %) above the committed baseline (Benchmarks/guard-baseline.tsv): a 2x
#     slowdown of the per-step path.
# Rows: `validate` of the 5 MB benchmark file's step shape (with its warnings), `run --dry-run`
# of the same, and `run` of GETs against a local nginx (status checked), each step a request;
# `merge-reports` of one JUnit and of one JSON report holding SMALL and 4 x SMALL workflows
# (Benchmarks/merge/generate.py), each workflow a step (one file of 10,000 suites took 17 s),
# and of a suite with 4 attributes a step (the duplicate check compared each with every earlier one).
#
#   Benchmarks/guard.sh            check against the baseline
#   Benchmarks/guard.sh --update   write the baseline from this machine's counts
set -euo pipefail
cd "$(dirname "$0")/.."
update=false
[ "${1:-}" = --update ] && update=true
small=${GUARD_STEPS:-500}
large=$((small * 4))
max_growth=5.0
tolerance=0.25
baseline=Benchmarks/guard-baseline.tsv

Scripts/install-deps.sh --guard
swift build -c release --static-swift-stdlib >/dev/null
courier=$PWD/.build/release/courier

. Benchmarks/serve-www.sh
work=$(mktemp -d)
trap 'stop_www "$work"; rm -rf "$work"' EXIT
printf '{"id":1,"name":"courier"}\n' > "$work/hello.json"
mkdir -p "$work/www"; mv "$work/hello.json" "$work/www/"
serve_www "$work"

for n in "$small" "$large"; do
    Benchmarks/yaml/steps.sh "$n" > "$work/validate-$n.yaml"
    Benchmarks/yaml/steps.sh "$n" http://127.0.0.1:9 > "$work/dry-$n.yaml"
    {
        echo "name: guard"
        echo "steps:"
        for i in $(seq 1 "$n"); do
            echo "  - request: { url: \"http://127.0.0.1:$port/hello.json?i=$i\" }"
            echo "    expect: { status: 200 }"
        done
    } > "$work/http-$n.yaml"
    mkdir -p "$work/merge-$n"
    python3 Benchmarks/merge/generate.py "$work/merge-$n" 1 "$n"
    python3 -c 'import sys; print("<testsuites><testsuite name=\"a\" tests=\"0\"" + "".join(f" a{i}=\"x\"" for i in range(4 * int(sys.argv[1]))) + "/></testsuites>")' "$n" > "$work/merge-$n/attributes.xml"
done

# Instructions of one run (all threads), with Swift's hashing made deterministic.
instructions() {
    local out=$work/cg.out
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>"$work/cg.err" || {
        local status=$?
        # validate exits 0 with warnings; run exits 0 when every step passes.
        echo "error: '$*' exited $status under callgrind:" >&2; tail -5 "$work/cg.err" >&2; exit 1
    }
    sed -nE 's/^==[0-9]+== Collected : ([0-9]+)$/\1/p' "$work/cg.err"
}

rows=()
measure() {
    local row=$1; shift
    local a b
    a=$(instructions "${@//STEPS/$small}")
    b=$(instructions "${@//STEPS/$large}")
    rows+=("$row $a $b")
}
measure validate "$courier" validate -q "$work/validate-STEPS.yaml"
measure dry-run "$courier" run -q --dry-run --var base=b --var token=t "$work/dry-STEPS.yaml"
measure http "$courier" run -q "$work/http-STEPS.yaml"
measure merge-junit "$courier" merge-reports "$work/merged.xml" "$work/merge-STEPS/junit-1.xml"
measure merge-json "$courier" merge-reports "$work/merged.json" "$work/merge-STEPS/json-1.json"
measure merge-attributes "$courier" merge-reports "$work/merged.xml" "$work/merge-STEPS/attributes.xml"

python3 - "$small" "$large" "$max_growth" "$tolerance" "$baseline" "$update" "${rows[@]}" <<'PY'
import sys
small, large = int(sys.argv[1]), int(sys.argv[2])
max_growth, tolerance = float(sys.argv[3]), float(sys.argv[4])
baseline_path, update = sys.argv[5], sys.argv[6] == "true"
rows = [r.split() for r in sys.argv[7:]]
baseline = {}
if not update:
    with open(baseline_path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, value = line.split()
                baseline[name] = float(value)
failed = []
print(f"guard: instructions per run at {small} and {large} steps (callgrind, whole process)")
for name, a, b in rows:
    a, b = int(a), int(b)
    growth = b / a
    per_step = (b - a) / (large - small)
    line = f"  {name:16} {a/1e6:9.1f}M {b/1e6:9.1f}M  growth {growth:4.2f}x (max {max_growth:.1f}x)  {per_step/1e3:7.1f}K per step"
    if growth > max_growth:
        failed.append(f"{name}: {growth:.2f}x the instructions for 4x the steps: something grows faster than the workflow")
    if not update:
        base = baseline.get(name)
        if base is None:
            failed.append(f"{name}: no baseline in {baseline_path} (run Benchmarks/guard.sh --update)")
        else:
            ratio = per_step / base
            line += f"  baseline {base/1e3:7.1f}K ({ratio:4.2f}x, max {1 + tolerance:.2f}x)"
            if ratio > 1 + tolerance:
                failed.append(f"{name}: {per_step/1e3:.1f}K instructions per step, {ratio:.2f}x the baseline's {base/1e3:.1f}K")
    print(line)
if update:
    with open(baseline_path, "w") as f:
        f.write("# Instructions per step by Benchmarks/guard.sh (callgrind): row, instructions. Written by --update.\n")
        for name, a, b in rows:
            f.write(f"{name}\t{(int(b) - int(a)) / (large - small):.0f}\n")
    print(f"guard: wrote {baseline_path}")
for message in failed:
    print(f"guard: FAILED: {message}", file=sys.stderr)
if failed:
    sys.exit(1)
print("guard: passed")
PY
