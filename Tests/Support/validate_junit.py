#!/usr/bin/env python3
"""Validates a JUnit XML report against an XSD (Courier's integration tests use it).

usage: validate_junit.py SCHEMA.xsd REPORT.xml...
       validate_junit.py --serve SCHEMA.xsd

Exit status: 0 valid; 1 invalid or not well-formed (the reasons on stderr); 2 bad usage;
3 the `xmlschema` package is missing (run Scripts/venv.sh, then use .venv/bin/python3).

--serve loads the schema once (importing xmlschema and building the schema take about a
second), prints `READY`, then answers each report path read from stdin with one line:
`OK` or `INVALID <reason as a JSON string>`. It exits at the end of stdin.

One extension of the Jenkins schema is accepted, and only this one: a `file` attribute on
`<testcase>` (a string), which GitLab reads to link a test case to its file and Courier
writes (spec section 12). junit-10.xsd allows `file` on `<testsuite>` only; every other rule
of the schema still applies.
"""
import json
import sys


def problems(schema, report_path):
    errors = []
    try:
        for error in schema.iter_errors(report_path):
            errors.append(str(error))
            if len(errors) == 10:
                break
    except Exception as error:  # not well-formed XML, unreadable file
        errors.append("%s: %s" % (type(error).__name__, error))
    return errors


TESTCASE_GROUP = '<xs:attribute name="group" type="xs:string"/>\n        </xs:complexType>\n    </xs:element>'


def load_schema(xmlschema, schema_path):
    """junit-10.xsd with `file` allowed on `<testcase>` (see the module's doc)."""
    with open(schema_path, encoding="utf-8") as handle:
        text = handle.read()
    start = text.find('<xs:element name="testcase">')
    end = text.find(TESTCASE_GROUP, start)
    if start < 0 or end < 0:
        raise SystemExit("validate_junit: %s has no <testcase> definition of the known shape" % schema_path)
    extended = text[:end] + '<xs:attribute name="group" type="xs:string"/>\n            <xs:attribute name="file" type="xs:string"/>' \
        + text[end + len('<xs:attribute name="group" type="xs:string"/>'):]
    return xmlschema.XMLSchema(extended)


def serve(schema):
    print("READY", flush=True)
    for line in sys.stdin:
        path = line.rstrip("\n")
        if not path:
            continue
        errors = problems(schema, path)
        if errors:
            print("INVALID " + json.dumps("\n\n".join(errors)), flush=True)
        else:
            print("OK", flush=True)
    return 0


def main(argv):
    serving = len(argv) == 3 and argv[1] == "--serve"
    if len(argv) < 3 or (argv[1].startswith("--") and not serving):
        sys.stderr.write(__doc__)
        return 2
    schema_path = argv[2] if serving else argv[1]
    try:
        import xmlschema
    except ImportError:
        sys.stderr.write("xmlschema is not installed for %s (run Scripts/venv.sh)\n" % sys.executable)
        return 3
    schema = load_schema(xmlschema, schema_path)
    if serving:
        return serve(schema)
    status = 0
    for report_path in argv[2:]:
        errors = problems(schema, report_path)
        if errors:
            sys.stderr.write("%s does not validate against %s:\n" % (report_path, schema_path))
            for error in errors:
                sys.stderr.write(error + "\n\n")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
