#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer targets in Fuzz/Targets and runs each for a bounded time.
#
#   Scripts/fuzz.sh [TARGET...]      targets: workflow yaml template json jsonpath schema (default: all)
#   FUZZ_SECONDS=60                  run time per target
#   FUZZ_MAX_LEN=4096                longest input libFuzzer makes
#   FUZZ_RSS_MB=2048                 memory limit per target (over it is a finding)
#   FUZZ_TIMEOUT=10                  seconds one input may take (over it is a finding)
#
# SwiftPM cannot link a libFuzzer executable (its `main` is libFuzzer's), so the modules a target
# needs are compiled here with swiftc into .build/fuzz: every module with
# `-sanitize=fuzzer,address` (coverage, AddressSanitizer and LeakSanitizer), `-package-name Courier` (the
# modules talk through `package` declarations) and `-enable-testing` (the template parser is
# internal; its target uses `@testable import`). Seeds: Fuzz/Seeds/<target> (hand-picked, in
# the repository) plus what Scripts/fuzz-seeds.sh generates from the tests into
# .build/fuzz/seeds/<target>. libFuzzer adds what it finds to .build/fuzz/corpus/<target>.
# Crashes, timeouts and out-of-memory inputs go to .build/fuzz/findings/<target>/ (emptied at
# the start of each run: copy a finding into a regression test before fuzzing again); the exit
# status is 1 when any target found something.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=$PATH:/opt/swift/usr/bin

seconds=${FUZZ_SECONDS:-60}
max_len=${FUZZ_MAX_LEN:-4096}
rss_mb=${FUZZ_RSS_MB:-2048}
timeout=${FUZZ_TIMEOUT:-10}
all_targets=(workflow yaml template json jsonpath schema)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

out=.build/fuzz
modules=$out/modules
mkdir -p "$modules" "$out/bin"

swiftc_flags=(-sanitize=fuzzer,address -parse-as-library -package-name Courier -enable-testing
              -O -g -swift-version 6 -I "$modules" -I Sources/CYAML)

# quiet_swiftc ARGS: swiftc without gold's harmless "Cannot export local symbol '__asan_…'" lines.
quiet_swiftc() {
  swiftc "$@" 2>&1 | grep -v "warning: Cannot export local symbol"
  return "${PIPESTATUS[0]}"
}

# module NAME: compiles Sources/NAME into a static library and its .swiftmodule, when a source
# changed since the last build.
module() {
  local name=$1
  local lib="$modules/lib$name.a"
  if [ -f "$lib" ] && [ -z "$(find "Sources/$name" -name '*.swift' -newer "$lib" -print -quit)" ]; then return 0; fi
  echo "fuzz: building $name"
  local sources
  mapfile -t sources < <(find "Sources/$name" -name '*.swift' | sort)
  # A failed build must not leave a library newer than its sources behind.
  quiet_swiftc "${swiftc_flags[@]}" -module-name "$name" -emit-module -emit-module-path "$modules/$name.swiftmodule" \
    -emit-library -static -wmo -o "$lib" "${sources[@]}" || { rm -f "$lib"; return 1; }
}

# needs TARGET: the modules the target links, in dependency order.
needs() {
  case $1 in
    workflow|yaml|template) echo CourierDiagnostics CourierJSON CourierSecrets CourierWorkflow ;;
    json|jsonpath|schema) echo CourierJSON ;;
    *) echo "error: unknown fuzz target '$1' (targets: ${all_targets[*]})" >&2; return 1 ;;
  esac
}

for target in "${targets[@]}"; do
  deps=$(needs "$target") || exit 2
  for m in $deps; do module "$m" || { echo "error: building $m for fuzzing failed" >&2; exit 2; }; done
  binary=$out/bin/fuzz-$target
  if [ ! -x "$binary" ] || [ "Fuzz/Targets/$target.swift" -nt "$binary" ] ||
     [ -n "$(for m in $deps; do find "$modules/lib$m.a" -newer "$binary"; done)" ]; then
    echo "fuzz: linking fuzz-$target"
    # Static libraries resolve left to right: a module before the ones it uses.
    libs=()
    for m in $deps; do libs=("$modules/lib$m.a" "${libs[@]}"); done
    [[ " $deps " == *" CourierWorkflow "* ]] && libs+=(-lyaml)
    quiet_swiftc "${swiftc_flags[@]}" -module-name "Fuzz_$target" "Fuzz/Targets/$target.swift" "${libs[@]}" -o "$binary" ||
      { echo "error: linking fuzz-$target failed" >&2; exit 2; }
  fi
done

Scripts/fuzz-seeds.sh || exit 2

# seeds_of TARGET: whose seeds a target starts from (`yaml` reads the workflow files).
seeds_of() {
  case $1 in
    yaml) echo workflow ;;
    *) echo "$1" ;;
  esac
}

found=()
for target in "${targets[@]}"; do
  corpus=$out/corpus/$target
  findings=$out/findings/$target
  # Each run reports only what it found itself: earlier findings are regression tests by now.
  rm -rf "$findings"
  mkdir -p "$corpus" "$findings"
  echo "fuzz: $target for ${seconds}s (max_len $max_len, timeout ${timeout}s, rss ${rss_mb} MB)"
  # The first corpus folder receives new inputs; the seed folders are only read.
  # LeakSanitizer stays on: it found the JSON parser's shape-tree leak (finding json-1).
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "$out/bin/fuzz-$target" \
    -max_total_time="$seconds" -max_len="$max_len" -timeout="$timeout" -rss_limit_mb="$rss_mb" \
    -artifact_prefix="$findings/" -print_final_stats=1 \
    "$corpus" "Fuzz/Seeds/$(seeds_of "$target")" "$out/seeds/$(seeds_of "$target")" >"$out/$target.log" 2>&1
  status=$?
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$out/$target.log" | tr -s ' \n' ' '
  echo
  if [ $status -ne 0 ] || [ -n "$(ls -A "$findings")" ]; then
    echo "fuzz: $target FOUND something (exit $status); inputs in $findings, log in $out/$target.log:"
    grep -m1 -E 'ERROR: |==[0-9]+== ?ERROR|Fatal error|deadly signal|timeout|out-of-memory' "$out/$target.log" | sed 's/^/  /'
    found+=("$target")
  fi
done

if [ ${#found[@]} -gt 0 ]; then
  echo "fuzz: findings in ${found[*]} (see .build/fuzz/findings; each becomes a regression test)"
  exit 1
fi
echo "fuzz: nothing found in ${targets[*]}"
