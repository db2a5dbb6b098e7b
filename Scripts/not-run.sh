#!/usr/bin/env bash
# Prints one 'not run: …' line for each corpus or tool the test suite looks for and did not
# find (the tests skip those checks locally and fail them when CI is set). `make test` prints
# these right before its closing 'tests: N passed, N failed' line, so nothing is skipped silently.
# The lookups mirror the tests' own: Tests/IntegrationTests/Support/Paths.swift,
# Tests/CourierJSONTests/JSONPathComplianceTests.swift and JSONSchemaSuiteTests.swift,
# Tests/IntegrationTests/Transport/TransportFixtures.swift (nginx).
set -uo pipefail
cd "$(dirname "$0")/.."

corpora=${COURIER_CORPORA:-../shared/corpora}
cache=${COURIER_CORPORA_CACHE:-.build/corpora}
python=${COURIER_PYTHON:-.venv/bin/python3}
nginx=${NGINX:-/usr/sbin/nginx}

[ -f "$corpora/jsonpath-cts/cts.json" ] ||
  echo "not run: JSONPath compliance suite — set COURIER_CORPORA (looked in $corpora/jsonpath-cts)"
[ -d "$cache/json-schema-test-suite/tests/draft2020-12" ] ||
  echo "not run: JSON-Schema-Test-Suite — run Scripts/corpora.sh (looked in $cache/json-schema-test-suite)"
[ -f "$cache/junit/junit-10.xsd" ] ||
  echo "not run: JUnit schema validation — run Scripts/corpora.sh (looked for $cache/junit/junit-10.xsd)"
"$python" -c 'import xmlschema' 2>/dev/null ||
  echo "not run: JUnit schema validation — no xmlschema in $python (run Scripts/venv.sh or set COURIER_PYTHON)"
[ -x "$nginx" ] ||
  echo "not run: HTTP/2 and brotli transport tests — no nginx at $nginx (apt-get install nginx-light)"
exit 0
