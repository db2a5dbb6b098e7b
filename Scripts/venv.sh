#!/usr/bin/env bash
# Creates .venv with the Python packages the tests use to check reports
# (xmlschema validates JUnit files against the Jenkins XSD). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python3 ] || ! .venv/bin/python3 -c 'import xmlschema' 2>/dev/null; then
  python3 -m venv .venv
  .venv/bin/python3 -m pip install -q --disable-pip-version-check xmlschema
fi
