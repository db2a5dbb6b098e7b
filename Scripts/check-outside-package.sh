#!/usr/bin/env bash
# The `Courier` product as an outside package sees it (issue 14): a temporary package that
# depends on this repository with `.package(path:)` and contains Examples/CourierExample's
# source (GetUser/CreateUser with convertFromSnakeCase) and the README's complete library
# example is built; the former is run against a local Tests/Servers/library_server.py and its
# output must be the example's expected output.
#
#   Scripts/check-outside-package.sh [SCRATCH]    (default .build/outside-package: reused between runs)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
scratch=${1:-$repo/.build/outside-package}
export PATH=$PATH:/opt/swift/usr/bin
python=/usr/bin/python3; [ -x "$python" ] || python=python3

work=$(mktemp -d "${TMPDIR:-/tmp}/courier-outside.XXXXXX")
server_pid=
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

# A path dependency's identity is its directory's name (e.g. `main` or `wt-lib-int`).
identity=$(basename "$repo")
mkdir -p "$work/outside/Sources/OutsideCheck"
cat > "$work/outside/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "OutsideCheck",
    dependencies: [.package(path: "$repo")],
    targets: [
        .executableTarget(name: "OutsideCheck", dependencies: [.product(name: "Courier", package: "$identity")]),
        .executableTarget(name: "ReadmeExample", dependencies: [.product(name: "Courier", package: "$identity")]),
    ]
)
SWIFT
cp "$repo"/Examples/CourierExample/*.swift "$work/outside/Sources/OutsideCheck/"
# The README's complete example (the `@main` block of "Using Courier as a Swift library") must compile too.
mkdir -p "$work/outside/Sources/ReadmeExample"
"$python" - "$repo/README.md" "$work/outside/Sources/ReadmeExample/App.swift" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
start = text.index("## Using Courier as a Swift library")
section = text[start:text.find("\n## ", start + 1)]
blocks = [b for b in re.findall(r"```swift\n(.*?)```", section, re.S) if "@main" in b]
if not blocks:
    sys.exit("check-outside-package: no @main example in the README's library section")
open(sys.argv[2], "w", encoding="utf-8").write(blocks[0])
PY

echo "check-outside-package: building a package that depends on .package(path: \"$repo\")"
swift build --package-path "$work/outside" --scratch-path "$scratch" 2>&1 | tail -5
binary="$scratch/debug/OutsideCheck"
[ -x "$binary" ] || { echo "check-outside-package: FAIL: no $binary" >&2; exit 1; }

"$python" "$repo/Tests/Servers/library_server.py" --port-file "$work/port" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 300); do [ -s "$work/port" ] && break; sleep 0.05; done
[ -s "$work/port" ] || { echo "check-outside-package: FAIL: library_server.py did not start:" >&2; cat "$work/server.log" >&2; exit 1; }
port=$(cat "$work/port")

"$binary" "http://127.0.0.1:$port/lib" >"$work/out.txt" 2>"$work/err.txt" || {
    echo "check-outside-package: FAIL: OutsideCheck exited with $?:" >&2; cat "$work/out.txt" "$work/err.txt" >&2; exit 1; }
if ! diff -u "$repo/Examples/CourierExample/expected-output.txt" "$work/out.txt"; then
    echo "check-outside-package: FAIL: the output differs from Examples/CourierExample/expected-output.txt" >&2
    exit 1
fi
echo "check-outside-package: OK (built with .package(path:), ran against 127.0.0.1:$port)"
