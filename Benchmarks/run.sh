#!/usr/bin/env bash
# `make bench`: every benchmark of Courier in one run, on this machine, printed as one table
# (Benchmarks/table.py) with each row's median and spread, its goal (issue 22) and its
# regression bound (Benchmarks/floors.tsv). Exits 1 when a row is past its bound or could not
# be measured, and says which.
#
#   Benchmarks/run.sh             the full run (~5 minutes on 2 cores)
#   QUICK=1 Benchmarks/run.sh     fewer rounds, for trying it out (the bounds still apply)
#   ROUNDS=N                      samples per row (default 9, QUICK 3): the machine is noisy
#
# It builds the release binaries once, installs missing Debian packages
# (Scripts/install-deps.sh --bench), puts Tavern and gabbi in a throw-away venv under its
# temporary directory, starts its own nginx (Benchmarks/serve-www.sh), drives the benches of
# Benchmarks/*/bench.sh in their row mode (Benchmarks/rows.sh) and measures the rows no bench
# has: --jobs against curl --parallel, one request, start-up, 5,000 files, Tavern and gabbi.
# Written to .build/bench/: results.md (the table), rows.txt (every sample), logs/ (each
# bench's own output).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export PATH=$PATH:/opt/swift/usr/bin

quick=${QUICK:-0}
if [ "$quick" = 1 ]; then rounds=${ROUNDS:-3}; hf_runs=15; else rounds=${ROUNDS:-9}; hf_runs=20; fi
# Pinned, so that a ratio moves only when Courier does.
python_tools=(tavern==3.7.1 gabbi==4.2.3 pytest==8.4.2)

Scripts/install-deps.sh --bench
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u '+%Y-%m-%d %H:%M UTC')
t_start=$(date +%s)

echo "building release binaries"
swift build -c release --static-swift-stdlib >/dev/null
bin=$root/.build/release
courier=$bin/courier

out=$root/.build/bench
rm -rf "$out"; mkdir -p "$out/logs"
rows=$out/rows.txt; : > "$rows"
failures=$out/failures.txt; : > "$failures"  # fatal: a flow that did not pass
notes=$out/notes.txt; : > "$notes"           # a bench's own verdict (exit status), shown

. Benchmarks/serve-www.sh
. Benchmarks/rows.sh
BENCH_ROWS=1  # for row() here; each bench gets it in its environment
work=$(mktemp -d /tmp/courier-bench.XXXXXX)
venv_pid=
cleanup() {
    [ -n "$venv_pid" ] && kill "$venv_pid" 2>/dev/null
    stop_www "$work"
    rm -rf "$work"
}
trap cleanup EXIT

# The venv installs while the benches that measure memory, not time, run.
( python3 -m venv "$work/venv" && "$work/venv/bin/pip" install -q --disable-pip-version-check "${python_tools[@]}" ) \
    > "$out/logs/venv.log" 2>&1 &
venv_pid=$!

# One bench in row mode: its output to logs/NAME.log, its rows to rows.txt.
bench() {
    local name=$1; shift
    echo "bench: $name"
    local status=0
    BENCH_ROWS=1 BENCH_BIN_DIR=$bin BENCH_ROUNDS=$rounds "$@" > "$out/logs/$name.log" 2>&1 || status=$?
    grep '^ROW ' "$out/logs/$name.log" >> "$rows" || true
    [ "$status" = 0 ] || echo "$name/bench.sh exited $status (a target of its own missed, or it failed: .build/bench/logs/$name.log)" >> "$notes"
}
seconds_between() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", (b - a) / 1e9 }'; }

# --- files for the rows measured here --------------------------------------------------------
mkdir -p "$work/www"
printf '{"id":1,"name":"courier","tags":["bench","http"],"price":12.5,"ok":true}\n' > "$work/www/hello.json"
serve_www "$work"
base="http://127.0.0.1:$port"

# 64 workflows x 100 GETs, and the same 6,400 URLs for curl --parallel (whose meter -s does
# not silence in curl 7.88: --no-progress-meter).
mkdir -p "$work/jobs"
for w in $(seq -w 1 64); do
    {
        echo "name: jobs $w"
        echo "steps:"
        for i in $(seq 1 100); do
            echo "  - request: { url: \"$base/hello.json?w=$w&i=$i\" }"
            echo "    expect: { status: 200 }"
        done
    } > "$work/jobs/w$w.yaml"
    for i in $(seq 1 100); do
        echo "url = \"$base/hello.json?w=$w&i=$i\""
        echo "output = /dev/null"
    done >> "$work/jobs.cfg"
done

# One request.
printf 'name: one\nsteps:\n  - request: { url: "%s/hello.json" }\n    expect: { status: 200 }\n' "$base" > "$work/one.yaml"

# 5,000 one-step workflow files in one directory.
mkdir -p "$work/many"
awk -v dir="$work/many" -v base="$base" 'BEGIN {
    for (i = 1; i <= 5000; i++) {
        f = sprintf("%s/w%04d.yaml", dir, i)
        printf "name: many %d\nsteps:\n  - request: { url: \"%s/hello.json?i=%d\" }\n    expect: { status: 200 }\n", i, base, i > f
        close(f)
    }
}'

# The same 200-request flow for Courier, Tavern and gabbi: GETs, each checking status 200.
{
    echo "name: flow"
    echo "steps:"
    for i in $(seq 1 200); do
        echo "  - request: { url: \"$base/hello.json?i=$i\" }"
        echo "    expect: { status: 200 }"
    done
} > "$work/flow.yaml"
mkdir -p "$work/tavern"
{
    echo "test_name: flow"
    echo "stages:"
    for i in $(seq 1 200); do
        echo "  - name: get $i"
        echo "    request: { url: \"$base/hello.json?i=$i\", method: GET }"
        echo "    response: { status_code: 200 }"
    done
} > "$work/tavern/test_flow.tavern.yaml"
{
    echo "tests:"
    for i in $(seq 1 200); do
        echo "  - name: get $i"
        echo "    GET: /hello.json?i=$i"
        echo "    status: 200"
    done
} > "$work/gabbi.yaml"

# --- memory rows (not timed against anything), while the venv installs -----------------------
bench upload Benchmarks/upload/bench.sh
bench download Benchmarks/download/bench.sh

echo "waiting for the venv (Tavern, gabbi)"
venv_ok=true
wait "$venv_pid" || venv_ok=false
venv_pid=
$venv_ok || echo "venv: pip install ${python_tools[*]} failed (see .build/bench/logs/venv.log); the Tavern and gabbi rows are not measured" >> "$failures"
load_timed=$(cut -d' ' -f1-3 /proc/loadavg)

# --- the benches ------------------------------------------------------------------------------
bench http Benchmarks/http/bench.sh 2000 "$rounds"
bench library env DOWNLOAD_BYTES=$((1024 * 1024 * 1024)) Benchmarks/library/bench.sh 2000 "$rounds"
bench yaml Benchmarks/yaml/bench.sh
bench json Benchmarks/json/bench.sh
bench masking env SIZE_MB=20 Benchmarks/masking/bench.sh

# --- the rows measured here -------------------------------------------------------------------
echo "bench: jobs"
"$courier" run -q --jobs 8 "$work/jobs" > "$out/logs/jobs.log" 2>&1 || echo "jobs: courier run --jobs 8 failed (see .build/bench/logs/jobs.log)" >> "$failures"
curl -s --no-progress-meter --parallel --parallel-max 8 -K "$work/jobs.cfg"
for _ in $(seq 1 "$rounds"); do
    t0=$(now_ns); "$courier" run -q --jobs 8 "$work/jobs" > /dev/null 2>&1 || true; t1=$(now_ns)
    t2=$(now_ns); curl -s --no-progress-meter --parallel --parallel-max 8 -K "$work/jobs.cfg"; t3=$(now_ns)
    c=$(seconds_between "$t0" "$t1"); k=$(seconds_between "$t2" "$t3")
    row jobs.ratio "$(awk -v c="$c" -v k="$k" 'BEGIN { printf "%.3f", k / c }')" x >> "$rows"
    row jobs.courier "$(awk -v c="$c" 'BEGIN { printf "%.1f", c * 1000 }')" ms >> "$rows"
    row jobs.curl "$(awk -v k="$k" 'BEGIN { printf "%.1f", k * 1000 }')" ms >> "$rows"
done

# hyperfine -N (no shell) batches: each batch's medians one sample.
hyperfine_batch() {
    local json=$work/hf.json
    hyperfine -N --style none --warmup 5 --runs "$hf_runs" --export-json "$json" "$@" > /dev/null 2>> "$out/logs/hyperfine.log"
    python3 -c 'import json, sys; print(" ".join("%.6f" % r["median"] for r in json.load(open(sys.argv[1]))["results"]))' "$json"
}
echo "bench: one request, start-up"
"$courier" run -q "$work/one.yaml" > "$out/logs/one.log" 2>&1 || echo "one: the 1-step workflow failed (see .build/bench/logs/one.log)" >> "$failures"
for _ in $(seq 1 "$rounds"); do
    read -r c k < <(hyperfine_batch "$courier run -q $work/one.yaml" "curl -s -o /dev/null $base/hello.json") || {
        echo "one: hyperfine failed (see .build/bench/logs/hyperfine.log)" >> "$failures"; break; }
    row one.ratio "$(awk -v c="$c" -v k="$k" 'BEGIN { printf "%.3f", c / k }')" x >> "$rows"
    row one.courier "$(awk -v c="$c" 'BEGIN { printf "%.2f", c * 1000 }')" ms >> "$rows"
    row one.curl "$(awk -v k="$k" 'BEGIN { printf "%.2f", k * 1000 }')" ms >> "$rows"
    read -r v < <(hyperfine_batch "$courier --version") || {
        echo "startup: hyperfine failed (see .build/bench/logs/hyperfine.log)" >> "$failures"; break; }
    row startup.time "$(awk -v v="$v" 'BEGIN { printf "%.2f", v * 1000 }')" ms >> "$rows"
done

echo "bench: 5,000 files"
"$courier" validate -q "$work/many" > "$out/logs/many.log" 2>&1 || echo "many: courier validate of 5,000 files failed (see .build/bench/logs/many.log)" >> "$failures"
for _ in $(seq 1 "$rounds"); do
    t0=$(now_ns); "$courier" validate -q "$work/many" > /dev/null 2>&1 || true; t1=$(now_ns)
    row dir5000.time "$(seconds_between "$t0" "$t1")" s >> "$rows"
done

# Tavern and gabbi against Courier on the same flow, whole processes, each round a pair.
if $venv_ok; then
    echo "bench: tavern, gabbi"
    py=$work/venv/bin/python
    tavern() { (cd "$work/tavern" && "$py" -m pytest -q -p no:cacheprovider test_flow.tavern.yaml); }
    gabbi() { "$work/venv/bin/gabbi-run" "127.0.0.1:$port" -- "$work/gabbi.yaml"; }
    "$courier" run -q "$work/flow.yaml" > "$out/logs/flow.log" 2>&1 || echo "flow: the 200-step workflow failed (see .build/bench/logs/flow.log)" >> "$failures"
    tavern > "$out/logs/tavern.log" 2>&1 || echo "tavern: the 200-stage test failed (see .build/bench/logs/tavern.log)" >> "$failures"
    gabbi > "$out/logs/gabbi.log" 2>&1 || echo "gabbi: the 200 tests failed (see .build/bench/logs/gabbi.log)" >> "$failures"
    # Courier's side of a round is the median of 5 runs: at ~30 ms against Tavern's ~2 s, one
    # scheduling delay on the shared machine would otherwise move the round's ratio by half.
    courier_flow() {
        local times=() t0 t1
        for _ in 1 2 3 4 5; do
            t0=$(now_ns); "$courier" run -q "$work/flow.yaml" > /dev/null 2>&1 || true; t1=$(now_ns)
            times+=("$(seconds_between "$t0" "$t1")")
        done
        printf '%s\n' "${times[@]}" | sort -n | sed -n 3p
    }
    for _ in $(seq 1 "$rounds"); do
        c=$(courier_flow)
        t2=$(now_ns); tavern > /dev/null 2>&1 || true; t3=$(now_ns)
        t4=$(now_ns); gabbi > /dev/null 2>&1 || true; t5=$(now_ns)
        tv=$(seconds_between "$t2" "$t3"); g=$(seconds_between "$t4" "$t5")
        row flow.courier "$(awk -v c="$c" 'BEGIN { printf "%.1f", c * 1000 }')" ms >> "$rows"
        row tavern.ratio "$(awk -v c="$c" -v t="$tv" 'BEGIN { printf "%.1f", t / c }')" x >> "$rows"
        row tavern.time "$(awk -v t="$tv" 'BEGIN { printf "%.0f", t * 1000 }')" ms >> "$rows"
        row gabbi.ratio "$(awk -v c="$c" -v g="$g" 'BEGIN { printf "%.1f", g / c }')" x >> "$rows"
        row gabbi.time "$(awk -v g="$g" 'BEGIN { printf "%.0f", g * 1000 }')" ms >> "$rows"
    done
fi

# --- the table --------------------------------------------------------------------------------
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
{
    echo "date	$started"
    echo "command	$([ "$quick" = 1 ] && echo 'QUICK=1 ')make bench (Benchmarks/run.sh), $rounds rounds a row"
    echo "commit	$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
    echo "cpu	$(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
    echo "memory	$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
    echo "load	$load_start at the start, $load_timed when the timed rows began, $load_end at the end (1/5/15 min)"
    echo "duration	$(( $(date +%s) - t_start )) s (the release build included)"
    echo "versions	$("$courier" --version | head -1); $(curl --version | head -1 | cut -d' ' -f1-2); $(nginx -v 2>&1 | sed 's/.*: //'); ${python_tools[*]}; $(python3 --version)"
} > "$out/machine.tsv"
status=0
python3 Benchmarks/table.py "$rows" Benchmarks/floors.tsv "$out/machine.tsv" "$failures" "$notes" > "$out/results.md" || status=$?
cat "$out/results.md"
echo
echo "written: .build/bench/results.md (table), .build/bench/rows.txt (samples), .build/bench/logs/"
exit $status
