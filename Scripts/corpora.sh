#!/usr/bin/env bash
# Fetches the test corpora that PyPI source distributions carry into a cache folder
# (default .build/corpora; COURIER_CORPORA_CACHE to change), never into the repository:
#   json-schema-test-suite/  the JSON-Schema-Test-Suite, from jsonschema's sdist (`json/`)
#   junit/junit-10.xsd       the Jenkins JUnit schema, from pytest's sdist
# Each sdist is pinned by version and sha256, checked here before anything is unpacked.
# Idempotent: a corpus already unpacked from the pinned version is left alone.
# Needs a Python with pip (`.venv`, made by Scripts/venv.sh, or PYTHON=).
set -euo pipefail
cd "$(dirname "$0")/.."

JSONSCHEMA_VERSION=4.26.0
JSONSCHEMA_SHA256=0c26707e2efad8aa1bfc5b7ce170f3fccc2e4918ff85989ba9ffa9facb2be326
PYTEST_VERSION=9.2.0
PYTEST_SHA256=97c4f3b1f3c7414aa36465e09b8220f1d03627993bd51b1282e193753c80557b

cache=${COURIER_CORPORA_CACHE:-.build/corpora}
python=${PYTHON:-.venv/bin/python3}
mkdir -p "$cache/sdist"

# fetch NAME VERSION SHA256: leaves $cache/sdist/NAME-VERSION.tar.gz, verified.
fetch() {
  local name=$1 version=$2 sha=$3
  local file="$cache/sdist/$name-$version.tar.gz"
  if [ ! -f "$file" ] || ! echo "$sha  $file" | sha256sum --check --status; then
    rm -f "$file"
    echo "corpora: downloading the $name $version source distribution"
    # --no-binary: the sdist (wheels do not carry the corpora); --no-deps: nothing else.
    "$python" -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
      "$name==$version" -d "$cache/sdist" >&2
  fi
  if ! echo "$sha  $file" | sha256sum --check --status; then
    echo "error: $file does not have the pinned sha256 $sha" >&2
    rm -f "$file"
    exit 1
  fi
}

# unpack NAME VERSION MEMBER DEST: extracts NAME-VERSION/MEMBER to DEST, once per version.
unpack() {
  local name=$1 version=$2 member=$3 dest=$4
  local stamp="$dest.version"
  if [ -e "$dest" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$name==$version" ]; then return; fi
  local tmp
  tmp=$(mktemp -d "$cache/unpack.XXXXXX")
  tar -xzf "$cache/sdist/$name-$version.tar.gz" -C "$tmp" "$name-$version/$member"
  rm -rf "$dest"
  mkdir -p "$(dirname "$dest")"
  mv "$tmp/$name-$version/$member" "$dest"
  rm -rf "$tmp"
  echo "$name==$version" >"$stamp"
}

fetch jsonschema "$JSONSCHEMA_VERSION" "$JSONSCHEMA_SHA256"
unpack jsonschema "$JSONSCHEMA_VERSION" json "$cache/json-schema-test-suite"
fetch pytest "$PYTEST_VERSION" "$PYTEST_SHA256"
unpack pytest "$PYTEST_VERSION" testing/example_scripts/junit-10.xsd "$cache/junit/junit-10.xsd"
