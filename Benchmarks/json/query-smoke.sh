#!/usr/bin/env bash
# End-to-end check of `courier query`: stdout, stderr and exit status for typical uses.
#
#   Benchmarks/json/query-smoke.sh                        # uses .build/debug/courier query
#   QUERY_CMD="/path/to/courier query" Benchmarks/json/query-smoke.sh
set -uo pipefail
read -r -a QUERY <<< "${QUERY_CMD:-$(cd "$(dirname "$0")/../.." && pwd)/.build/debug/courier query}"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
failures=0

cat > store.json <<'JSON'
{"store": {"book": [{"title": "Sayings", "price": 8.95}, {"title": "Moby Dick", "price": 8.99},
  {"title": "Rings", "price": 22.99}], "bicycle": {"color": "red", "price": 19.95}}, "big": 12345678901234567890}
JSON
printf '{\n  "a": 1,\n  "b": [1, 2,]\n}\n' > bad.json

# check NAME EXPECTED_STATUS EXPECTED_STDOUT EXPECTED_STDERR [STDIN] -- ARGS...
check() {
    local name=$1 status=$2 out=$3 err=$4 input=$5
    shift 6
    printf '%s' "$input" | "${QUERY[@]}" "$@" > out.txt 2> err.txt
    local actual=$?
    if [[ $actual != "$status" || "$(cat out.txt)" != "$out" || "$(cat err.txt)" != "$err" ]]; then
        echo "FAIL $name (exit $actual, expected $status)"
        diff <(printf '%s\n' "$out") out.txt | sed 's/^/  stdout /'
        diff <(printf '%s\n' "$err") err.txt | sed 's/^/  stderr /'
        failures=$((failures + 1))
    else
        echo "ok   $name"
    fi
}

check "values" 0 '[
  8.95,
  8.99,
  22.99,
  19.95
]' '' '' -- '$..price' store.json
check "compact filter" 0 '["Sayings","Moby Dick"]' '' '' -- --compact '$.store.book[?@.price < 10].title' store.json
check "paths" 0 '["$['"'"'store'"'"']['"'"'bicycle'"'"']"]' '' '' -- --compact --paths '$..[?@.color == "red"]' store.json
check "exact numbers" 0 '[12345678901234567890]' '' '' -- --compact '$.big' store.json
check "stdin" 0 '[2]' '' '{"a": [1, 2]}' -- --compact '$.a[-1]'
check "stdin dash" 0 '[]' '' '{"a": 1}' -- --compact '$.nothing' -
check "invalid query" 2 '' "<query>:1:6: error: unexpected character ']', expected a query, a literal or a function call
    1 | \$.a[?]
      |      ^" '' -- '$.a[?]' store.json
check "invalid json" 2 '' 'bad.json:3:13: error: trailing comma in array
    3 |   "b": [1, 2,]
      |             ^' '' -- '$' bad.json
check "invalid stdin" 2 '' "<stdin>:1:6: error: unterminated array, expected ',' or ']'
    1 | [1, 2
      |      ^" '[1, 2' -- '$'
check "missing file" 2 '' "error: cannot read 'nope.json': No such file or directory" '' -- '$' nope.json
check "missing query" 2 '' 'error: missing JSONPATH argument
usage: courier query [--paths] [--compact] JSONPATH [FILE]' '' --
check "unknown option" 2 '' "error: unknown option '--bogus'
usage: courier query [--paths] [--compact] JSONPATH [FILE]" '' -- --bogus '$'

if (( failures > 0 )); then
    echo "$failures failure(s)"
    exit 1
fi
echo "all passed"
