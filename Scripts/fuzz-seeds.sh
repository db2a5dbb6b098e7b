#!/usr/bin/env bash
# Generates fuzzing seeds from what the tests already hold into .build/fuzz/seeds/<target>
# (not committed; Fuzz/Seeds/<target> keeps a few hand-picked ones in the repository):
#   workflow  YAML files under Tests/, Workflows/, Demo/, and the YAML in the tests' """ literals
#   template  every {{ … }} expression found there, and the scalars holding them
#   json      JSON files of the tests and of the JSON-Schema-Test-Suite, the CTS documents
#   jsonpath  the CTS selectors (RFC 9535 suite, from COURIER_CORPORA or ../shared/corpora)
#   schema    every schema of the JSON-Schema-Test-Suite (Scripts/corpora.sh fetches it)
# A corpus that is missing only means fewer seeds: this says so and goes on.
set -euo pipefail
cd "$(dirname "$0")/.."

out=.build/fuzz/seeds
# Once per checkout: delete .build/fuzz/seeds (or set FUZZ_RESEED=1) to generate them again.
if [ -z "${FUZZ_RESEED:-}" ] && [ -f "$out/.done" ]; then exit 0; fi
corpora=${COURIER_CORPORA:-../shared/corpora}
cache=${COURIER_CORPORA_CACHE:-.build/corpora}
[ -d "$cache/json-schema-test-suite" ] || echo "fuzz-seeds: no JSON-Schema-Test-Suite in $cache (Scripts/corpora.sh): fewer json and schema seeds"
[ -f "$corpora/jsonpath-cts/cts.json" ] || echo "fuzz-seeds: no $corpora/jsonpath-cts/cts.json (set COURIER_CORPORA): fewer jsonpath seeds"

python3 - "$out" "$corpora/jsonpath-cts/cts.json" "$cache/json-schema-test-suite" <<'PY'
import hashlib, json, os, pathlib, re, sys, textwrap

out, cts, schema_suite = sys.argv[1:]
targets = set(["workflow", "template", "json", "jsonpath", "schema"])
written = {}

def seed(target, data, limit=4096):
    if target not in targets:
        return
    if isinstance(data, str):
        data = data.encode()
    if not data or len(data) > limit:
        return
    folder = pathlib.Path(out, target)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
    written[target] = written.get(target, 0) + 1

yaml_texts = []
for root in ["Tests", "Workflows", "Demo"]:
    for path in sorted(pathlib.Path(root).rglob("*")):
        if path.suffix in (".yaml", ".yml"):
            yaml_texts.append(path.read_text(errors="replace"))
        elif path.suffix == ".json" and path.is_file():
            seed("json", path.read_bytes())
        elif path.suffix == ".swift":
            # Multi-line string literals that look like workflows.
            text = path.read_text(errors="replace")
            for block in re.findall(r'"""\n(.*?)\n\s*"""', text, re.S):
                if "steps:" in block or "request:" in block:
                    yaml_texts.append(textwrap.dedent(block))
for text in yaml_texts:
    seed("workflow", text)
    for line in text.splitlines():
        if "{{" in line:
            seed("template", line.split(":", 1)[-1].strip().strip("'\""))
    for expression in re.findall(r"\{\{.*?\}\}", text):
        seed("template", expression)

if os.path.isfile(cts):
    for case in json.load(open(cts))["tests"]:
        seed("jsonpath", case.get("selector", ""))
        if "document" in case:
            seed("json", json.dumps(case["document"]))

tests = pathlib.Path(schema_suite, "tests")
if tests.is_dir():
    for draft in ["draft2020-12", "draft7"]:
        for path in sorted((tests / draft).glob("*.json")):
            for group in json.load(open(path)):
                seed("schema", json.dumps(group["schema"]))
                for test in group["tests"][:2]:
                    seed("json", json.dumps(test["data"]))

pathlib.Path(out, ".done").touch()
print("fuzz-seeds: " + ", ".join(f"{t} {written.get(t, 0)}" for t in sorted(targets)))
PY
