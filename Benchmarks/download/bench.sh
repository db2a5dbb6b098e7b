#!/usr/bin/env bash
# Download benchmark: CourierHTTP streams a 1 GiB response from a local nginx to a file
# (`HTTPRequest.responseBody = .file(path:)`), and /usr/bin/time reports the process's
# peak RSS; `curl -o` does the same download in the same run, for the time.
# Target: peak RSS under 50 MB (the body is never held in memory).
#
#   Benchmarks/download/bench.sh [scratch-path]     (default .build; DOWNLOAD_BYTES to change the size)
#
# Needs nginx, GNU time (Debian package `time`) and about 1 GiB free in $TMPDIR.
# BENCH_ROWS=1 adds `ROW` lines for Benchmarks/run.sh (Benchmarks/rows.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
scratch=${1:-.build}
size=${DOWNLOAD_BYTES:-1073741824}

[ -x /usr/bin/time ] || { echo "bench.sh: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }
. Benchmarks/serve-www.sh
. Benchmarks/rows.sh
[ -n "${BENCH_BIN_DIR:-}" ] || swift build -c release --scratch-path "$scratch" --product courier-download-bench >/dev/null
bench="${BENCH_BIN_DIR:-$scratch/release}/courier-download-bench"

work=$(mktemp -d "${TMPDIR:-/tmp}/courier-download-bench.XXXXXX")
trap 'stop_www "$work"; rm -rf "$work"' EXIT
mkdir -p "$work/www"
truncate -s "$size" "$work/www/big.bin"  # sparse: costs no disk until downloaded
serve_www "$work"

url="http://127.0.0.1:$port/big.bin"
/usr/bin/time -f "%M %e" -o "$work/courier.time" "$bench" "$url" "$work/out.bin" > "$work/courier.out"
written=$(stat -c %s "$work/out.bin"); rm -f "$work/out.bin"
/usr/bin/time -f "%M %e" -o "$work/curl.time" curl -s -o "$work/curl.bin" "$url"; rm -f "$work/curl.bin"
read -r rss seconds < "$work/courier.time"
read -r curl_rss curl_seconds < "$work/curl.time"
echo "$(( size / 1048576 )) MiB to a file: courier-download-bench $seconds s, peak RSS $(( rss / 1024 )) MB ($(cat "$work/courier.out")); curl -o $curl_seconds s, peak RSS $(( curl_rss / 1024 )) MB"
row download.rss "$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')" MB
row download.courier "$seconds" s
row download.curl "$curl_seconds" s
[ "$written" -eq "$size" ] || { echo "FAIL: $written bytes written, expected $size" >&2; exit 1; }
if [ "$rss" -lt $(( 50 * 1024 )) ]; then echo "peak RSS target (< 50 MB): OK"; else echo "peak RSS target (< 50 MB): ABOVE TARGET"; exit 1; fi
