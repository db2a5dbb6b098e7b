#!/usr/bin/env bash
# Creates .venv with the Python packages the tests use to check reports
# (xmlschema validates JUnit files against the Jenkins XSD; FastAPI, uvicorn, PyJWT and
# python-multipart run Tests/Servers/oauth2_server.py, a real OAuth2 server). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(xmlschema fastapi==0.165.0 uvicorn==0.54.0 pyjwt==2.15.1 python-multipart==0.0.34)
if [ ! -x .venv/bin/python3 ] || ! .venv/bin/python3 -c 'import xmlschema, fastapi, uvicorn, jwt, multipart' 2>/dev/null; then
  [ -x .venv/bin/python3 ] || python3 -m venv .venv
  .venv/bin/python3 -m pip install -q --disable-pip-version-check "${packages[@]}"
fi
