#!/usr/bin/python3
"""Checks a results.json against the fields Gradescope documents for it
(https://gradescope-autograders.readthedocs.io/en/latest/specs/, "Output format", "Controlling
test case visibility", "Output string formatting", "Leaderboards"), strictly: an unknown key, a
wrong type or value, a score that does not add up is an error. Prints a one-line summary, and a
JSON document of the figures the autograder tests assert on with --facts.

  validate_results.py results.json [--facts]
"""
import json
import sys

VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}
FORMATS = {"text", "html", "simple_format", "md", "ansi"}
TOP = {"score": (int, float), "execution_time": (int, float), "output": str, "output_format": str,
       "test_output_format": str, "test_name_format": str, "visibility": str, "stdout_visibility": str,
       "extra_data": dict, "tests": list, "leaderboard": list}
TEST = {"score": (int, float), "max_score": (int, float), "status": str, "name": str, "name_format": str,
        "number": str, "output": str, "output_format": str, "tags": list, "visibility": str, "extra_data": dict}


def check(doc):
    errors = []
    if not isinstance(doc, dict):
        return ["the document is not a JSON object"]
    for key, value in doc.items():
        if key not in TOP:
            errors.append("unknown top-level key %r" % key)
        elif not isinstance(value, TOP[key]) or isinstance(value, bool):
            errors.append("top-level %r is a %s" % (key, type(value).__name__))
    for key in ("visibility", "stdout_visibility"):
        if key in doc and doc[key] not in VISIBILITY:
            errors.append("%s %r is not one of %s" % (key, doc[key], sorted(VISIBILITY)))
    for key in ("output_format", "test_output_format", "test_name_format"):
        if key in doc and doc[key] not in FORMATS:
            errors.append("%s %r is not one of %s" % (key, doc[key], sorted(FORMATS)))
    tests = doc.get("tests", [])
    if "score" not in doc and not all(isinstance(t, dict) and "score" in t for t in tests):
        errors.append("no top-level score and not every test has one")
    total = 0.0
    for i, t in enumerate(tests):
        where = "tests[%d]" % i
        if not isinstance(t, dict):
            errors.append("%s is not an object" % where)
            continue
        for key, value in t.items():
            if key not in TEST:
                errors.append("%s: unknown key %r" % (where, key))
            elif not isinstance(value, TEST[key]) or isinstance(value, bool):
                errors.append("%s: %r is a %s" % (where, key, type(value).__name__))
        if t.get("visibility", "visible") not in VISIBILITY:
            errors.append("%s: visibility %r" % (where, t.get("visibility")))
        if "status" in t and t["status"] not in ("passed", "failed"):
            errors.append("%s: status %r is not passed or failed" % (where, t["status"]))
        for key in ("output_format", "name_format"):
            if key in t and t[key] not in FORMATS:
                errors.append("%s: %s %r" % (where, key, t[key]))
        if not all(isinstance(tag, str) for tag in t.get("tags", [])):
            errors.append("%s: a tag is not a string" % where)
        score, top = t.get("score", 0), t.get("max_score")
        if top is not None and not 0 <= score <= top:
            errors.append("%s: score %s outside 0..%s" % (where, score, top))
        if t.get("status") == "passed" and top is not None and score != top:
            errors.append("%s: passed with %s of %s points" % (where, score, top))
        total += score
    if "score" in doc and tests and abs(doc["score"] - total) > 1e-9:
        errors.append("top-level score %s is not the tests' sum %s" % (doc["score"], total))
    for i, entry in enumerate(doc.get("leaderboard", [])):
        where = "leaderboard[%d]" % i
        if not isinstance(entry, dict) or set(entry) - {"name", "value", "order"}:
            errors.append("%s: keys %s (name, value, order)" % (where, sorted(entry) if isinstance(entry, dict) else entry))
            continue
        if not isinstance(entry.get("name"), str):
            errors.append("%s: no name" % where)
        if not isinstance(entry.get("value"), (int, float, str)) or isinstance(entry.get("value"), bool):
            errors.append("%s: value %r" % (where, entry.get("value")))
        if entry.get("order", "desc") not in ("asc", "desc"):
            errors.append("%s: order %r" % (where, entry.get("order")))
    return errors


def main():
    doc = json.load(open(sys.argv[1]))
    errors = check(doc)
    for e in errors:
        print("results.json: " + e, file=sys.stderr)
    tests = doc.get("tests", [])
    facts = {
        "score": doc.get("score"),
        "max_score": sum(t.get("max_score", 0) for t in tests),
        "failed": [t["name"] for t in tests if t.get("status") != "passed"],
        "hidden": [t["name"] for t in tests if t.get("visibility", doc.get("visibility", "visible")) != "visible"],
        "output": doc.get("output", ""),
        "leaderboard": doc.get("leaderboard", []),
        "partial": [t["name"] for t in tests if 0 < t.get("score", 0) < t.get("max_score", 0)],
    }
    if "--facts" in sys.argv:
        print(json.dumps(facts))
    else:
        print("results.json: valid, %s of %s points, %d tests" % (facts["score"], facts["max_score"], len(tests)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
