#!/usr/bin/env bash
# `make sanitize`: the whole test suite under AddressSanitizer (and ThreadSanitizer when asked
# for), each built into its own build path (.build/asan, .build/tsan) so the normal
# debug build stays as it is; the integration tests run that sanitized `courier` (COURIER_BIN).
#
#   Scripts/sanitize.sh [address|thread ...]   default: address (thread: see below)
#   SANITIZE_ARGS='--filter X'                 extra `swift test` arguments
#
# A sanitizer report aborts the test process, so a run's exit status says whether it found
# something; logs are .build/<asan|tsan>/test.log. Timings are printed per phase.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=$PATH:/opt/swift/usr/bin

sanitizers=("$@")
# ThreadSanitizer only when asked for (it is slow). With Swift 6.3 on Linux it does not see
# Synchronization.Mutex as a lock (a 15-line program, one thread appending to a Mutex-guarded
# array and another reading it, both inside `withLock`, is reported as a race), so the state
# threads hand each other in the driver, the body streams, the console, the run's control and
# the secret registry sits behind CourierSync's PthreadLock, which it sees:
# `SANITIZE_ARGS='--filter CourierHTTPTests|JobsTests' Scripts/sanitize.sh thread` reports no race.
[ ${#sanitizers[@]} -gt 0 ] || sanitizers=(address)


# detect_leaks=0: the Swift runtime keeps metadata caches and the test harness's globals until
# exit, which LeakSanitizer reports as leaks; use-after-free, overflows etc. are still reported.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
# halt_on_error: the first race fails the run with its report, instead of a pass with warnings.
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1}

failed=()
for sanitizer in "${sanitizers[@]}"; do
  case $sanitizer in
    address) dir=asan ;;
    thread) dir=tsan ;;
    *) echo "error: unknown sanitizer '$sanitizer' (address or thread)" >&2; exit 2 ;;
  esac
  path=.build/$dir
  start=$SECONDS
  echo "sanitize: building with -sanitize=$sanitizer into $path"
  if ! swift build --build-tests -Xswiftc -sanitize="$sanitizer" --build-path "$path" 2>&1 |
       grep -v "warning: Cannot export local symbol"; then
    echo "sanitize: the $sanitizer build failed" >&2
    failed+=("$sanitizer (build)")
    continue
  fi
  built=$SECONDS
  echo "sanitize: running the tests under $sanitizer"
  # AddressSanitizer's frames are several times larger than real ones (the JSON Schema
  # evaluator overflowed a thread's 8 MB at about 50 of its 256 levels), so the tests that
  # nest exactly as deep as the limits allow would fail there for want of stack, not for a
  # bug. Threads take their default stack size from this limit: 256 MB for the sanitized run;
  # `make test` checks the limits against the frames of the real binary and 8 MB.
  # shellcheck disable=SC2086
  # COURIER_SANITIZED: the integration harness waits longer for its servers, and skips the one
  # bound AddressSanitizer's quarantine makes meaningless (peak RSS).
  ( ulimit -s 262144 && COURIER_SANITIZED=$sanitizer COURIER_BIN=$PWD/$path/debug/courier COURIER_PYTHON=$PWD/.venv/bin/python3 \
    swift test --skip-build --build-path "$path" ${SANITIZE_ARGS:-} >"$path/test.log" 2>&1 )
  status=$?
  grep -E "Test run with|SUMMARY: (Address|Thread)Sanitizer" "$path/test.log" | tail -3
  echo "sanitize: $sanitizer: build $((built - start)) s, tests $((SECONDS - built)) s, exit $status (log: $path/test.log)"
  [ $status -eq 0 ] || failed+=("$sanitizer")
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "sanitize: failed: ${failed[*]}"
  exit 1
fi
echo "sanitize: ${sanitizers[*]}: no findings"
