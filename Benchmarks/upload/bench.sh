#!/usr/bin/env bash
# Upload benchmark: streams a 1 GiB file to testserver.py, once as a multipart file part
# (to /multipart, which reports the part's size and sha256) and once as `body_file`
# (to /discard, which reports the body's), and prints courier's peak RSS for each from
# /usr/bin/time -v. The server's byte counts and digests must match the file's.
# Target: peak RSS under 50 MB for each (the file is never loaded whole).
#
#   Benchmarks/upload/bench.sh [scratch-path]     (default /tmp/build-upload; COURIER_BIN skips the build)
#
# BENCH_ROWS=1 adds `ROW` lines for Benchmarks/run.sh (Benchmarks/rows.sh; BENCH_BIN_DIR as COURIER_BIN).
#
# Needs GNU time (Debian package `time`) and about 1 GiB free in $TMPDIR (the file is sparse).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
scratch=${1:-/tmp/build-upload}
size=${UPLOAD_BYTES:-1073741824}

if [ ! -x /usr/bin/time ]; then
    echo "bench.sh: /usr/bin/time is missing (apt-get install time)" >&2
    exit 1
fi
. Benchmarks/rows.sh
[ -n "${BENCH_BIN_DIR:-}" ] && COURIER_BIN=${COURIER_BIN:-$BENCH_BIN_DIR/courier}
if [ -n "${COURIER_BIN:-}" ]; then
    courier=$COURIER_BIN
else
    swift build -c release --product courier --scratch-path "$scratch" >/dev/null
    courier="$scratch/release/courier"
fi
python=/usr/bin/python3
[ -x "$python" ] || python=python3

work=$(mktemp -d "${TMPDIR:-/tmp}/courier-upload-bench.XXXXXX")
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# A sparse file reads as zeros at disk speed and takes no space.
truncate -s "$size" "$work/upload.bin"
expected_sha=$(sha256sum "$work/upload.bin" | cut -d' ' -f1)

"$python" "$root/Tests/Servers/testserver.py" --port-file "$work/port" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 300); do [ -s "$work/port" ] && break; sleep 0.05; done
[ -s "$work/port" ] || { echo "bench.sh: testserver.py did not start" >&2; cat "$work/server.log" >&2; exit 1; }
base="http://127.0.0.1:$(cat "$work/port")"

cat >"$work/multipart.yaml" <<YAML
name: multipart upload
steps:
  - name: multipart 1 GiB
    request:
      method: POST
      url: $base/multipart
      timeout: 10m
      multipart:
        - { name: note, value: benchmark }
        - { name: file, file: upload.bin, content_type: application/octet-stream }
    expect:
      json:
        "\$.parts[1].size": $size
        "\$.parts[1].sha256": $expected_sha
YAML
cat >"$work/body_file.yaml" <<YAML
name: body_file upload
steps:
  - name: body_file 1 GiB
    request:
      method: PUT
      url: $base/discard
      timeout: 10m
      body_file: upload.bin
      content_type: application/octet-stream
    expect:
      json: { \$.bytes: $size, \$.sha256: $expected_sha, \$.expect_100: false }
YAML

echo "file: $size bytes, sha256 $expected_sha"
echo "courier: $courier ($("$courier" --version 2>/dev/null | head -1))"
status=0
for kind in multipart body_file; do
    if ! /usr/bin/time -v -o "$work/$kind.time" "$courier" run --verbose --color never "$work/$kind.yaml" >"$work/$kind.out" 2>&1; then
        echo "$kind: courier failed:" >&2
        cat "$work/$kind.out" >&2
        status=1
        continue
    fi
    rss_kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/$kind.time")
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' "$work/$kind.time")
    # The server's JSON answer as --verbose prints it (indented, after the response's headers).
    reported=$("$python" -c '
import json, re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
start = re.search(r"^\s*< HTTP/", text, re.M)
d, _ = json.JSONDecoder().raw_decode(text[text.index("{", start.end() if start else 0):])
if sys.argv[2] == "multipart":
    print(d["parts"][1]["size"], d["parts"][1]["sha256"])
else:
    print(d["bytes"], d["sha256"], "expect_100=%s" % d["expect_100"], "%.1fs" % d["seconds"])
' "$work/$kind.out" "$kind")
    verdict=$([ "$rss_kb" -lt 51200 ] && echo "under 50 MB" || echo "OVER 50 MB")
    printf '%-10s peak RSS %6.1f MB (%s)  wall %s  server: %s\n' "$kind" "$(awk -v k="$rss_kb" 'BEGIN { print k / 1024 }')" "$verdict" "$wall" "$reported"
    [ "$rss_kb" -lt 51200 ] || status=1
    row "upload.$kind.rss" "$(awk -v k="$rss_kb" 'BEGIN { printf "%.1f", k / 1024 }')" MB
done
exit $status
