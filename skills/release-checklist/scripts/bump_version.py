#!/usr/bin/env python3
"""Compute the next Semantic Versioning number.

Standard library only. Prints the new version on standard output so it can
be captured by a shell. A leading 'v' in the input is kept in the output.

Exit status: 0 = ok, 1 = invalid version or impossible bump, 2 = usage error.
"""
import argparse
import re
import sys

SEMVER_RE = re.compile(
    r"^(?P<prefix>v?)(?P<major>0|[1-9]\d*)\.(?P<minor>0|[1-9]\d*)\.(?P<patch>0|[1-9]\d*)"
    r"(?:-(?P<pre>[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
    r"(?:\+(?P<build>[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)
LABEL_RE = re.compile(r"^[A-Za-z][0-9A-Za-z-]*$")
PARTS = ("major", "minor", "patch", "pre", "release")


def fail(message):
    print("bump_version: error: " + message, file=sys.stderr)
    sys.exit(1)


def bump(version, part, label):
    match = SEMVER_RE.match(version.strip())
    if not match:
        fail("%r is not a semantic version like 1.4.2 or v2.0.0-rc.1" % version)
    prefix = match.group("prefix")
    major, minor, patch = (int(match.group(k)) for k in ("major", "minor", "patch"))
    pre = match.group("pre")
    if match.group("build"):
        print("bump_version: note: dropping build metadata +%s" % match.group("build"), file=sys.stderr)

    if part == "major":
        if not (pre and minor == 0 and patch == 0):
            major, minor, patch = major + 1, 0, 0
        pre = None
    elif part == "minor":
        if not (pre and patch == 0):
            minor, patch = minor + 1, 0
        pre = None
    elif part == "patch":
        if not pre:
            patch += 1
        pre = None
    elif part == "release":
        if not pre:
            fail("%s is already a release version; nothing to finalise" % version)
        pre = None
    elif part == "pre":
        if pre:
            pieces = pre.split(".")
            if pieces[0] == label and len(pieces) > 1 and pieces[-1].isdigit():
                pieces[-1] = str(int(pieces[-1]) + 1)
                pre = ".".join(pieces)
            elif not pieces[0].isdigit() and label < pieces[0]:
                fail("label %r sorts before %r, so %s would go backwards" % (label, pieces[0], version))
            else:
                pre = label + ".1"
        else:
            patch += 1
            pre = label + ".1"

    result = "%s%d.%d.%d" % (prefix, major, minor, patch)
    return result + ("-" + pre if pre else "")


def main():
    parser = argparse.ArgumentParser(
        prog="bump_version.py",
        description="Print the next semantic version.",
        epilog="examples: bump_version.py v1.4.2 minor  ->  v1.5.0; "
        "bump_version.py 2.0.0-rc.1 pre  ->  2.0.0-rc.2",
    )
    parser.add_argument("version", help="current version, e.g. 1.4.2 or v1.4.2")
    parser.add_argument("part", choices=PARTS, help="what to bump")
    parser.add_argument("--label", default="rc", help="pre-release label for 'pre' (default: rc)")
    args = parser.parse_args()
    if not LABEL_RE.match(args.label):
        parser.error("--label must start with a letter and use only letters, digits and hyphens")
    print(bump(args.version, args.part, args.label))
    return 0


if __name__ == "__main__":
    sys.exit(main())
