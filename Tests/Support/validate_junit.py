#!/usr/bin/env python3
"""Validates a JUnit XML report against an XSD (Courier's integration tests use it).

usage: validate_junit.py SCHEMA.xsd REPORT.xml

Exit status: 0 valid; 1 invalid or not well-formed (the reason on stderr); 2 bad usage;
3 the `xmlschema` package is missing (run Scripts/venv.sh, then use .venv/bin/python3).
"""
import sys


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    schema_path, report_path = argv[1], argv[2]
    try:
        import xmlschema
    except ImportError:
        sys.stderr.write("xmlschema is not installed for %s (run Scripts/venv.sh)\n" % sys.executable)
        return 3
    schema = xmlschema.XMLSchema(schema_path)
    errors = []
    try:
        for error in schema.iter_errors(report_path):
            errors.append(str(error))
    except Exception as error:  # not well-formed XML, unreadable file
        errors.append("%s: %s" % (type(error).__name__, error))
    if errors:
        sys.stderr.write("%s does not validate against %s:\n" % (report_path, schema_path))
        for error in errors[:10]:
            sys.stderr.write(error + "\n\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
