#!/usr/bin/env bash
# Installs the Debian packages Courier needs to build, test and run its demo,
# but only those that are missing. Run as root (CI and the dev machines are);
# otherwise it says what to install and fails.
set -euo pipefail

# nginx-light: the HTTP/2 (ALPN) and brotli transport tests, and the HTTP benchmark.
# zlib1g, libbrotli1: loaded at run time to undo gzip/deflate/br for `bytes: { raw: true }`
# libssl3: its libcrypto.so.3 is loaded at run time for the `jwt` predicate's RS256 and ES256.
# (libcurl4 depends on all three; named so that a minimal image does not lose them.)
# openssl: the CLI signs the RS256/ES256 tokens of the JWT integration tests.
packages=(libcurl4-openssl-dev libyaml-dev pkg-config openssl python3 ca-certificates curl nginx-light zlib1g libbrotli1 libssl3)
if [ "${1:-}" = "--bench" ]; then packages+=(hyperfine time valgrind); fi
# valgrind: Benchmarks/guard.sh counts instructions with callgrind.
if [ "${1:-}" = "--guard" ]; then packages+=(valgrind); fi

missing=()
for p in "${packages[@]}"; do
  # A python3 from elsewhere (pyenv, a CI image) is as good as Debian's.
  if [ "$p" = python3 ] && command -v python3 >/dev/null; then continue; fi
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Debian splits venv out of python3; the tests need it for xmlschema.
if command -v python3 >/dev/null && ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
  missing+=(python3-venv)
fi

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "error: missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})" >&2
    exit 1
  fi
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "note: swift is at /opt/swift/usr/bin; add it to PATH" >&2
  else
    echo "error: no Swift toolchain found (Swift 6.x is needed: https://www.swift.org/install/linux/)" >&2
    exit 1
  fi
fi
