# Courier — the two commands: `make demo` and `make test`. Both install what is missing.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: all deps build release demo test venv bench clean

all: build

deps:
	@Scripts/install-deps.sh

build: deps
	swift build

release: deps
	swift build -c release --static-swift-stdlib

# Builds a release binary, starts the demo API on a free loopback port, runs
# Workflows/ against it, writes reports/junit.xml and exits with Courier's status.
demo: release
	@Scripts/demo.sh

venv:
	@Scripts/venv.sh

# The whole suite: unit tests, the RFC 9535 and JSON Schema corpora, and
# integration tests that run the built `courier` against real local servers.
test: deps venv
	swift build --build-tests
	set -o pipefail; COURIER_BIN=$(CURDIR)/.build/debug/courier COURIER_PYTHON=$(CURDIR)/.venv/bin/python3 \
		swift test --skip-build 2>&1 | tee .build/test.log
	@# One plain closing line (XCTest's "Executed 0 tests" comes first: all tests are Swift Testing).
	@sed -nE 's/.*Test run with ([0-9]+) tests? in .* passed after.*/tests: \1 passed, 0 failed/p' .build/test.log | tail -1

bench: deps
	@Scripts/install-deps.sh --bench
	@Benchmarks/http/bench.sh

clean:
	rm -rf .build reports .venv
