#!/usr/bin/env python3
"""Validate a trigger-eval set for a skill and optionally score a test run.

Standard library only.

Usage:
  python3 scripts/check_evals.py EVALS.json
  python3 scripts/check_evals.py EVALS.json --results RESULTS.json

EVALS.json is a list of objects with "id", "query" and "should_trigger".
RESULTS.json maps each id to true (the skill loaded) or false.
Exit status: 0 = valid (and, with --results, every case passed),
1 = problems found or cases failed, 2 = usage error.
"""
import argparse
import json
import sys

MIN_CASES = 6


def load_json(path, what):
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError:
        sys.exit("check_evals: error: %s file not found: %s" % (what, path))
    except json.JSONDecodeError as exc:
        sys.exit("check_evals: error: %s is not valid JSON (line %d, column %d): %s"
                 % (path, exc.lineno, exc.colno, exc.msg))
    except OSError as exc:
        sys.exit("check_evals: error: cannot read %s: %s" % (path, exc.strerror))


def validate(cases):
    errors, warnings = [], []
    if not isinstance(cases, list):
        return ["the evals file must contain a JSON list of cases"], warnings
    seen_ids, seen_queries = set(), set()
    for index, case in enumerate(cases, start=1):
        where = "case %d" % index
        if not isinstance(case, dict):
            errors.append("%s: must be an object" % where)
            continue
        case_id, query, expected = case.get("id"), case.get("query"), case.get("should_trigger")
        if not isinstance(case_id, str) or not case_id.strip():
            errors.append("%s: 'id' must be a non-empty string" % where)
        else:
            where = "case %r" % case_id
            if case_id in seen_ids:
                errors.append("%s: duplicate id" % where)
            seen_ids.add(case_id)
        if not isinstance(query, str) or not query.strip():
            errors.append("%s: 'query' must be a non-empty string" % where)
        else:
            normalised = " ".join(query.lower().split())
            if normalised in seen_queries:
                warnings.append("%s: same query as an earlier case" % where)
            seen_queries.add(normalised)
            if len(query.split()) < 4:
                warnings.append("%s: very short query; real requests carry more context" % where)
        if not isinstance(expected, bool):
            errors.append("%s: 'should_trigger' must be true or false (not a string)" % where)
        unknown = set(case) - {"id", "query", "should_trigger", "note"}
        if unknown:
            warnings.append("%s: unknown keys %s" % (where, ", ".join(sorted(unknown))))
    positives = sum(1 for c in cases if isinstance(c, dict) and c.get("should_trigger") is True)
    negatives = sum(1 for c in cases if isinstance(c, dict) and c.get("should_trigger") is False)
    if len(cases) < MIN_CASES:
        warnings.append("only %d cases; aim for at least %d" % (len(cases), MIN_CASES))
    if positives == 0 or negatives == 0:
        errors.append("need both positive and negative cases (have %d and %d)" % (positives, negatives))
    elif not 0.25 <= positives / float(positives + negatives) <= 0.75:
        warnings.append("unbalanced set: %d positive, %d negative" % (positives, negatives))
    return errors, warnings


def score(cases, results):
    if isinstance(results, list):
        try:
            results = {item["id"]: item["triggered"] for item in results}
        except (TypeError, KeyError):
            sys.exit("check_evals: error: results list items need 'id' and 'triggered'")
    if not isinstance(results, dict):
        sys.exit("check_evals: error: results must map case ids to true or false")
    tp = fp = fn = tn = 0
    failures, missing = [], []
    for case in cases:
        if case["id"] not in results:
            missing.append(case["id"])
            continue
        got, want = results[case["id"]], case["should_trigger"]
        if not isinstance(got, bool):
            sys.exit("check_evals: error: result for %r must be true or false" % case["id"])
        tp += got and want
        fp += got and not want
        fn += want and not got
        tn += not got and not want
        if got != want:
            kind = "missed (should trigger)" if want else "false trigger"
            failures.append("%s: %s: %s" % (case["id"], kind, case["query"]))
    precision = tp / float(tp + fp) if tp + fp else 0.0
    recall = tp / float(tp + fn) if tp + fn else 0.0
    print("passed %d of %d; precision %.2f, recall %.2f" % (tp + tn, tp + tn + fp + fn, precision, recall))
    for line in failures:
        print("FAIL " + line)
    for case_id in missing:
        print("MISSING result for " + case_id)
    unknown = sorted(set(results) - {c["id"] for c in cases})
    for case_id in unknown:
        print("UNKNOWN id in results: " + case_id)
    return not failures and not missing


def main():
    parser = argparse.ArgumentParser(
        prog="check_evals.py",
        description="Validate trigger evals for a skill and score a test run.",
        epilog="example: python3 scripts/check_evals.py evals/trigger-evals.json --results run1.json",
    )
    parser.add_argument("evals", help="JSON file with the eval cases")
    parser.add_argument("--results", help="JSON file mapping case ids to true/false")
    args = parser.parse_args()

    cases = load_json(args.evals, "evals")
    errors, warnings = validate(cases)
    for message in warnings:
        print("warning: " + message)
    for message in errors:
        print("error: " + message)
    if errors:
        return 1
    positives = sum(1 for c in cases if c["should_trigger"])
    print("ok: %d cases (%d should trigger, %d should not)" % (len(cases), positives, len(cases) - positives))
    if args.results:
        return 0 if score(cases, load_json(args.results, "results")) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
