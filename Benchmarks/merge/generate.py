#!/usr/bin/env python3
"""Writes SHARDS JUnit and SHARDS JSON reports of WORKFLOWS workflows each, shaped as
`courier run --junit/--json` writes them (five steps a workflow, one in ten failing),
every workflow file distinct across shards so that the shards merge.

    generate.py DIR [SHARDS] [WORKFLOWS]   ->  DIR/junit-K.xml, DIR/json-K.json
"""
import json, sys
from xml.sax.saxutils import escape, quoteattr

out, shards, workflows = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 50, int(sys.argv[3]) if len(sys.argv) > 3 else 200
STEPS = 2


def stamp(us):
    seconds, micro = divmod(us, 1_000_000)
    minutes, second = divmod(seconds, 60)
    hours, minute = divmod(minutes, 60)
    return f"2026-12-01T{hours % 24:02d}:{minute:02d}:{second:02d}.{micro:06d}Z"


def step(file, k, failing, t):
    url = f"http://127.0.0.1:8080/api/v1/users/{k}?expand=orders&page=2"
    attempt = {
        "durationMicroseconds": 1200 + k,
        "expectations": [],
        "redirects": [],
        "request": {
            "body": {"binary": False, "kind": "bytes", "omittedBytes": 0, "parts": [],
                     "text": json.dumps({"id": k, "name": "Ada Lovelace", "tags": ["a", "b"]}, separators=(",", ":")), "totalBytes": 48},
            "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "Accept", "value": "application/json"}],
            "method": "POST",
            "proxyConnects": [],
            "url": url,
        },
        "startMicroseconds": 0,
        "startedAt": stamp(t),
    }
    return {
        "attempts": [attempt],
        "captures": [],
        "durationMicroseconds": 1500 + k,
        "location": {"column": 5, "endColumn": 1, "endLine": 4 + 3 * k, "file": file, "line": 3 + 3 * k},
        "name": f"step {k} of {file}",
        "outcome": ({"failures": [{"message": "status 500, expected 200", "outcome": "failed", "subject": "status"}], "kind": "failed"}
                    if failing else {"kind": "passed"}),
        "phase": "steps",
        "startedAt": stamp(t),
    }


for shard in range(1, shards + 1):
    flows, suites = [], []
    steps = failed_steps = failed_flows = 0
    for w in range(workflows):
        file = f"flows/shard{shard}/workflow{w}.yaml"
        failing = w % 10 == 0
        t = shard * 10_000_000 + w * 10_000
        flow_steps = [step(file, k, failing and k == STEPS - 1, t + k * 1000) for k in range(STEPS)]
        flows.append({"durationMicroseconds": 8000, "file": file, "name": f"workflow {w}", "startedAt": stamp(t),
                      "steps": flow_steps, "tags": ["smoke"]})
        steps += STEPS
        failed_steps += 1 if failing else 0
        failed_flows += 1 if failing else 0
        cases = []
        for k in range(STEPS):
            body = (f'      <failure message="status 500, expected 200" type="expectation">status 500, expected 200\n'
                    f'&gt; POST http://127.0.0.1:8080/api/v1/users/{k}?expand=orders&amp;page=2\n</failure>\n'
                    if failing and k == STEPS - 1 else "")
            cases.append(f'    <testcase name={quoteattr(f"step {k}")} classname="flows.shard{shard}.workflow{w}" file="{file}" time="0.002">\n'
                         f'{body}      <system-out>{escape("> POST http://127.0.0.1:8080/api/v1/users?expand=orders&page=2")}\n'
                         f'{escape(json.dumps({"id": k, "name": "Ada <Lovelace>"}))}\n</system-out>\n    </testcase>\n')
        suites.append(f'  <testsuite name="workflow {w}" tests="{STEPS}" failures="{1 if failing else 0}" errors="0" skipped="0" '
                      f'time="0.008" file="{file}">\n' + "".join(cases) + "  </testsuite>\n")
    run = {"durationMicroseconds": 8000 * workflows, "startedAt": stamp(shard * 10_000_000), "workflows": flows,
           "shard": {"index": shard, "total": shards}}
    summary = {"attempts": steps, "durationMicroseconds": 8000 * workflows, "erroredSteps": 0, "failedSteps": failed_steps,
               "failedWorkflows": failed_flows, "interrupted": False, "passed": failed_flows == 0, "passedSteps": steps - failed_steps,
               "skippedSteps": 0, "steps": steps, "workflows": workflows}
    with open(f"{out}/json-{shard}.json", "w") as f:
        json.dump({"formatVersion": 1, "run": run, "summary": summary}, f, indent=2, sort_keys=True)
        f.write("\n")
    with open(f"{out}/junit-{shard}.xml", "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<testsuites name="courier" tests="{steps}" failures="{failed_steps}" errors="0" time="{0.008 * workflows:.3f}">\n'
                + "".join(suites) + "</testsuites>\n")
