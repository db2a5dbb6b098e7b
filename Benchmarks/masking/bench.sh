#!/usr/bin/env bash
# Masking throughput: the one masking policy (Aho–Corasick over every form of
# every secret) over a generated text, with 10 and with 10,000 secrets, and the
# references measured in the same run: a plain copy of the bytes (memcpy speed)
# and Python's bytes.replace / re.sub over the 10 secrets' plain forms.
#
#   Benchmarks/masking/bench.sh                 # 100 MB text, best of 3
#   SIZE_MB=20 REPEAT=5 SCRATCH_PATH=/tmp/build Benchmarks/masking/bench.sh
#
# Exits 1 when a planted secret was not masked.
#
# BENCH_ROWS=1 adds `ROW` lines for Benchmarks/run.sh (Benchmarks/rows.sh): each secret count is
# masked in BENCH_ROUNDS runs (default 3; the first one's output is printed), each run's best
# throughput a sample, and each reference's throughput.
set -euo pipefail
cd "$(dirname "$0")/../.."

SCRATCH_PATH=${SCRATCH_PATH:-.build}
SIZE_MB=${SIZE_MB:-100}
REPEAT=${REPEAT:-3}

. Benchmarks/rows.sh
if [ -n "${BENCH_BIN_DIR:-}" ]; then
    BIN="$BENCH_BIN_DIR/courier-mask-bench"
else
    swift build -c release --scratch-path "$SCRATCH_PATH" --product courier-mask-bench >&2
    BIN="$SCRATCH_PATH/release/courier-mask-bench"
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
TEXT="$WORK/text.txt"
# Log-like text: JSON bodies, headers, hex ids and base64, as reports hold.
python3 - "$TEXT" "$SIZE_MB" <<'PY'
import base64, random, sys
random.seed(7)
target = int(sys.argv[2]) * 1_000_000
words = ["GET", "POST", "/api/v1/users", "Content-Type:", "application/json", '{"id":', '"name":', "\"Ada\"",
         "status", "200", "OK", "token", "<", ">", "&", "%20", "\\n", "ü", "—"]
chunks, size = [], 0
while size < target:
    line = " ".join(random.choice(words) for _ in range(12)) + " " + \
        base64.b64encode(random.randbytes(18)).decode() + " " + random.randbytes(8).hex() + "\n"
    chunks.append(line)
    size += len(line.encode())
open(sys.argv[1], "w", encoding="utf-8").write("".join(chunks)[:target])
PY

for secrets in 10 10000; do
    echo "== courier masking, $secrets secrets"
    if [ -z "${BENCH_ROWS:-}" ]; then "$BIN" "$TEXT" "$secrets" "$REPEAT"; continue; fi
    for round in $(seq 1 "${BENCH_ROUNDS:-3}"); do
        "$BIN" "$TEXT" "$secrets" "$REPEAT" > "$WORK/mask.out"
        [ "$round" = 1 ] && cat "$WORK/mask.out"
        row "mask.s$secrets" "$(awk '$1 == "mask_mb_per_second" { print $2 }' "$WORK/mask.out")" MB/s
    done
done

echo "== references (same text, same run)"
python3 - "$TEXT" "$REPEAT" <<'PY' | tee "$WORK/references.out"
import re, sys, time
data = open(sys.argv[1], "rb").read()
repeat = int(sys.argv[2])
mb = len(data) / 1e6
# The benchmark's first 10 secrets are not known here; any 10 24-byte literals cost the same.
secrets = [f"S3cret-{i:02d}-abcdefghijklmnop".encode() for i in range(10)]
def best(f):
    times = []
    for _ in range(repeat):
        start = time.perf_counter(); f(); times.append(time.perf_counter() - start)
    return min(times)
copy = best(lambda: bytearray(data))
print(f"copy_mb_per_second {mb / copy:.1f}")
def replace_all():
    out = data
    for s in secrets:
        out = out.replace(s, b"***")
replace = best(replace_all)
print(f"python_bytes_replace_10_plain_mb_per_second {mb / replace:.1f}")
pattern = re.compile(b"|".join(re.escape(s) for s in secrets))
sub = best(lambda: pattern.sub(b"***", data))
print(f"python_re_sub_10_plain_mb_per_second {mb / sub:.1f}")
PY
if [ -n "${BENCH_ROWS:-}" ]; then
    row mask.copy "$(awk '$1 == "copy_mb_per_second" { print $2 }' "$WORK/references.out")" MB/s
    row mask.python_re "$(awk '$1 == "python_re_sub_10_plain_mb_per_second" { print $2 }' "$WORK/references.out")" MB/s
fi
