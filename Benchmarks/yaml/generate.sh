#!/usr/bin/env bash
# Writes the two load benchmarks:
#   $1/big.yaml   ~5 MB, the same steps as the `largeWorkflowLoads` test
#   $1/bench.yaml 2,000 small steps, the HTTP benchmark's workflow (~200 KB)
set -euo pipefail
out=${1:-/tmp/courier-yaml-bench}
mkdir -p "$out"

awk 'BEGIN {
  printf "name: big\nsteps:\n"; size = 17; i = 0
  while (size < 5000000) {
    s = sprintf("  - name: step %d {{ base }}\n    request:\n      method: POST\n      url: /items/%d?x={{ token | url_encode }}\n      headers: { Accept: application/json, X-Id: \"%d\" }\n      json: { id: %d, name: \"item %d\", tags: [a, b, c], price: 1.50 }\n    expect:\n      status: [200, 201]\n      json: { $.id: %d, $.items: { length: { gte: 1 } } }\n    capture: { id%d: $.id }\n", i, i, i, i, i, i, i)
    printf "%s", s; size += length(s); i++
  }
}' > "$out/big.yaml"

{
  echo "name: bench"
  echo "steps:"
  for i in $(seq 1 2000); do
    echo "  - request: { url: \"http://127.0.0.1:18081/hello.json?i=$i\" }"
    echo "    expect: { status: 200 }"
  done
} > "$out/bench.yaml"
