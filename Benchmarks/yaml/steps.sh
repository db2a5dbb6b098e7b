#!/usr/bin/env bash
# Prints a workflow of N steps shaped like the 5 MB benchmark file's (a templated name and
# query, headers, a JSON body, status and JSON checks, a capture), for growth measurements:
#   Benchmarks/yaml/steps.sh N [BASE_URL] > file.yaml
# With BASE_URL the steps' relative URLs resolve against it (for `run --dry-run`).
set -euo pipefail
n=${1:?usage: steps.sh N [BASE_URL]}
awk -v n="$n" -v base="${2:-}" 'BEGIN {
  printf "name: big\n"
  if (base != "") printf "defaults: { base_url: \"%s\" }\n", base
  printf "steps:\n"
  for (i = 0; i < n; i++)
    printf "  - name: step %d {{ base }}\n    request:\n      method: POST\n      url: /items/%d?x={{ token | url_encode }}\n      headers: { Accept: application/json, X-Id: \"%d\" }\n      json: { id: %d, name: \"item %d\", tags: [a, b, c], price: 1.50 }\n    expect:\n      status: [200, 201]\n      json: { $.id: %d, $.items: { length: { gte: 1 } } }\n    capture: { id%d: $.id }\n", i, i, i, i, i, i, i
}'
