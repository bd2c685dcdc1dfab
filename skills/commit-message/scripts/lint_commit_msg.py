#!/usr/bin/env python3
"""Lint a git commit message against the Conventional Commits format.

Standard library only. Prints one 'FILE:LINE: level: message' line per
problem. Exit status: 0 = no errors, 1 = errors found, 2 = usage problem.
"""
import argparse
import re
import sys

DEFAULT_TYPES = "feat,fix,docs,style,refactor,perf,test,build,ci,chore,revert"
HEADER_RE = re.compile(
    r"^(?P<type>[A-Za-z]+)(?:\((?P<scope>[^()]*)\))?(?P<bang>!)?: (?P<summary>.*)$"
)
GENERATED_RE = re.compile(r'^(?:Merge (?:branch|pull request|remote-tracking branch|tag) |Revert ")')
PAST_TENSE = re.compile(r"^(?:added|fixed|changed|removed|updated|adds|fixes|changes|removes|updates)\b", re.I)


def lint(lines, types, max_header, max_body):
    problems = []

    def report(line_no, level, message):
        problems.append((line_no, level, message))

    while lines and not lines[-1].strip():
        lines.pop()
    if not lines or not lines[0].strip():
        report(1, "error", "message is empty or starts with a blank line")
        return problems

    header = lines[0]
    if GENERATED_RE.match(header):
        return problems

    match = HEADER_RE.match(header)
    if not match:
        report(1, "error", "header must look like 'type(scope): summary', got %r" % header)
    else:
        kind, scope, summary = match.group("type"), match.group("scope"), match.group("summary")
        if kind not in types:
            report(1, "error", "unknown type %r; allowed: %s" % (kind, ", ".join(sorted(types))))
        if scope is not None and (not scope.strip() or scope != scope.strip()):
            report(1, "error", "scope must be a non-empty word without surrounding spaces")
        if not summary.strip():
            report(1, "error", "summary after ': ' is empty")
        else:
            if summary.endswith("."):
                report(1, "warning", "summary should not end with a full stop")
            if summary[0].isupper() and not summary.split()[0].isupper():
                report(1, "warning", "summary should start with a lowercase letter")
            if PAST_TENSE.match(summary):
                report(1, "warning", "use the imperative mood ('add', not 'added' or 'adds')")
    if len(header) > max_header:
        report(1, "error", "header is %d characters; the limit is %d" % (len(header), max_header))

    if len(lines) > 1 and lines[1].strip():
        report(2, "error", "leave a blank line between the header and the body")

    for number, line in enumerate(lines[1:], start=2):
        if len(line) > max_body and "://" not in line:
            report(number, "warning", "line is %d characters; wrap the body at %d" % (len(line), max_body))
        if re.match(r"breaking[ -]change", line, re.I):
            if not line.startswith(("BREAKING CHANGE: ", "BREAKING-CHANGE: ")):
                report(number, "error", "write the footer exactly as 'BREAKING CHANGE: description'")
            elif not line.split(":", 1)[1].strip():
                report(number, "error", "BREAKING CHANGE footer needs a description")
    return problems


def main():
    parser = argparse.ArgumentParser(
        prog="lint_commit_msg.py",
        description="Check a commit message against Conventional Commits.",
        epilog="example: python3 scripts/lint_commit_msg.py .git/COMMIT_EDITMSG",
    )
    parser.add_argument("file", help="file with the commit message, or - for standard input")
    parser.add_argument("--types", default=DEFAULT_TYPES, help="comma-separated allowed types (default: %(default)s)")
    parser.add_argument("--max-header", type=int, default=72, help="maximum header length (default: 72)")
    parser.add_argument("--max-body", type=int, default=100, help="maximum body line length (default: 100)")
    parser.add_argument("--keep-comments", action="store_true", help="do not drop lines starting with '#'")
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    args = parser.parse_args()

    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except FileNotFoundError:
        parser.exit(2, "lint_commit_msg: error: file not found: %s\n" % args.file)
    except (OSError, UnicodeDecodeError) as exc:
        parser.exit(2, "lint_commit_msg: error: cannot read %s: %s\n" % (args.file, exc))

    lines = text.replace("\r\n", "\n").split("\n")
    if not args.keep_comments:
        lines = [line for line in lines if not line.startswith("#")]
    types = {t.strip() for t in args.types.split(",") if t.strip()}
    if not types:
        parser.exit(2, "lint_commit_msg: error: --types must list at least one type\n")

    problems = lint(lines, types, args.max_header, args.max_body)
    errors = 0
    for line_no, level, message in problems:
        if args.strict and level == "warning":
            level = "error"
        errors += level == "error"
        print("%s:%d: %s: %s" % (args.file, line_no, level, message))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
