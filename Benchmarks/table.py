#!/usr/bin/env python3
"""The table of `make bench` (Benchmarks/run.sh) from the samples of one run.

    table.py ROWS FLOORS MACHINE FAILURES NOTES > results.md

ROWS holds `ROW NAME VALUE UNIT` lines (Benchmarks/rows.sh), several per NAME; each row of the
table shows their median and min-max. FLOORS (Benchmarks/floors.tsv) bounds the ratio rows:
`min` (a floor) for rows where more is better, `max` (a ceiling) where less is. Exits 1 when a
bounded row is past its bound, has no sample, or FAILURES (flows that did not pass) is not
empty, and says which on stderr and under the table.
"""
import statistics
import sys

# (name, what, goal as (op, value, text) or None, [(detail name, label)])
# Goals are issue 22's table; "(bench)" marks a target that the bench itself checks.
SPEC = [
    ("http.seq.ratio", "2,000 sequential GETs: Courier's speed / `curl -K`'s (one connection)",
     (">=", 1.3, "≥ 1.3×"), [("http.seq.courier", "courier"), ("http.seq.curl", "curl")]),
    ("jobs.ratio", "`--jobs 8`, 64 workflows × 100 GETs: speed / `curl --parallel --parallel-max 8`'s",
     (">=", 1.0, "≥ 1.0×"), [("jobs.courier", "courier"), ("jobs.curl", "curl")]),
    ("one.ratio", "one request: time of a 1-step workflow / one `curl` (hyperfine -N)",
     ("<=", 1.2, "≤ 1.2×"), [("one.courier", "courier"), ("one.curl", "curl")]),
    ("validate5mb.time", "`courier validate` of the 5 MB workflow (13,398 steps): time",
     ("<", 0.5, "< 0.5 s (required)"), []),
    ("validate5mb.rss_ratio", "… its peak RSS / input size",
     ("<", 10, "< 10× (required)"), [("validate5mb.rss", "peak RSS")]),
    ("dir5000.time", "`courier validate` of 5,000 one-step files in one directory",
     ("<", 0.5, "< 0.5 s"), []),
    ("startup.time", "start-up: `courier --version` (hyperfine -N)",
     ("<=", 5, "≤ 5 ms"), []),
    ("tavern.ratio", "200-request flow: Tavern's time / Courier's",
     (">=", 50, "≥ 50×"), [("tavern.time", "tavern"), ("flow.courier", "courier")]),
    ("gabbi.ratio", "200-request flow: gabbi-run's time / Courier's",
     None, [("gabbi.time", "gabbi"), ("flow.courier", "courier")]),
    ("json.ratio", "20 MB JSON document: Python `json.loads` time / CourierJSON's (best of 3)",
     (">=", 1.0, "≥ 1.0× (bench)"), [("json.python", "python"), ("json.courier", "courier")]),
    ("json.rss_ratio", "… CourierJSON's peak RSS after parsing / input size",
     ("<", 5, "< 5× (bench)"), []),
    ("http.seq.rss", "peak RSS of the 2,000-step run", None, []),
    ("upload.multipart.rss", "peak RSS of a 1 GiB multipart upload",
     ("<", 50, "< 50 MB"), []),
    ("upload.body_file.rss", "peak RSS of a 1 GiB `body_file` upload",
     ("<", 50, "< 50 MB (bench)"), []),
    ("download.rss", "peak RSS of a 1 GiB download to a file (CourierHTTP)",
     ("<", 50, "< 50 MB (bench)"), [("download.courier", "courier"), ("download.curl", "curl -o")]),
    ("library.ratio", "library: 2,000 GETs decoded into a struct, time / `courier run`'s",
     ("<=", 1.10, "≤ 1.10× (bench)"), []),
    ("library.download.rss", "library: peak RSS of `APIClient.download` of 1 GiB",
     ("<", 50, "< 50 MB (bench)"), []),
    ("mask.s10", "masking throughput, 10 secrets (20 MB text)", None,
     [("mask.python_re", "Python re.sub"), ("mask.copy", "copy")]),
    ("mask.s10000", "masking throughput, 10,000 secrets (20 MB text)", None, []),
]

OPS = {">=": lambda v, g: v >= g, "<=": lambda v, g: v <= g, "<": lambda v, g: v < g}


def fmt(value):
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def main():
    rows_path, floors_path, machine_path, failures_path, notes_path = sys.argv[1:6]
    samples, units = {}, {}
    for line in open(rows_path):
        parts = line.split()
        if len(parts) == 4 and parts[0] == "ROW":
            try:
                samples.setdefault(parts[1], []).append(float(parts[2]))
            except ValueError:
                continue
            units[parts[1]] = parts[3]
    bounds = {}
    for line in open(floors_path):
        if line.strip() and not line.startswith("#"):
            name, kind, value = line.rstrip("\n").split("\t")[:3]
            bounds[name] = (kind, float(value))
    machine = [line.rstrip("\n").split("\t", 1) for line in open(machine_path) if "\t" in line]
    failures = [l.strip() for l in open(failures_path) if l.strip()]
    notes = [l.strip() for l in open(notes_path) if l.strip()]

    def unit(name):
        u = units.get(name, "")
        return "×" if u == "x" else (" " + u if u else "")

    def median(name):
        return statistics.median(samples[name])

    problems, missed = [], []
    out = ["| what | median | spread (min–max, runs) | goal | bound (floors.tsv) | |",
           "|---|---|---|---|---|---|"]
    for name, what, goal, details in SPEC:
        bound = bounds.get(name)
        bound_text = "—" if bound is None else (f"floor {fmt(bound[1])}" if bound[0] == "min" else f"ceiling {fmt(bound[1])}")
        if name not in samples:
            out.append(f"| {what} | not measured | | {goal[2] if goal else '—'} | {bound_text} | **NOT MEASURED** |")
            if bound is not None:
                problems.append(f"{name}: not measured")
            continue
        values = samples[name]
        med = median(name)
        spread = f"{fmt(min(values))}–{fmt(max(values))}{unit(name)} ({len(values)})"
        verdict = []
        if goal:
            if OPS[goal[0]](med, goal[1]):
                verdict.append("goal met")
            else:
                verdict.append("**goal missed**")
                missed.append(f"{what}: {fmt(med)}{unit(name)}, goal {goal[2]}")
        if bound is not None:
            kind, limit = bound
            ok = med >= limit if kind == "min" else med <= limit
            if not ok:
                verdict.append("**PAST BOUND**")
                problems.append(f"{name}: median {fmt(med)} is {'below its floor' if kind == 'min' else 'above its ceiling'} {fmt(limit)}")
        detail = ", ".join(f"{label} {fmt(median(d))}{unit(d)}" for d, label in details if d in samples)
        what_cell = what + (f" ({detail})" if detail else "")
        out.append(f"| {what_cell} | **{fmt(med)}{unit(name)}** | {spread} | {goal[2] if goal else '—'} | {bound_text} | {'; '.join(verdict)} |")

    print("Machine and run:\n")
    for key, value in machine:
        print(f"- {key}: {value}")
    print()
    print("\n".join(out))
    print()
    if missed:
        print("Goals missed:\n")
        for m in missed:
            print(f"- {m}")
        print()
    if notes:
        print("Benches' own verdicts:\n")
        for n in notes:
            print(f"- {n}")
        print()
    problems += failures
    if problems:
        print("**FAILED** (a row past its bound in Benchmarks/floors.tsv, not measured, or a flow that did not pass):\n")
        for p in problems:
            print(f"- {p}")
            print(f"bench: {p}", file=sys.stderr)
        return 1
    print("Every bounded row is within its bound (Benchmarks/floors.tsv).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
