#!/usr/bin/env python3
"""Check a skill folder against the Agent Skills format and portable YAML rules.

Standard library only. It reads the frontmatter with a small line-based
reader that accepts the conservative YAML subset every agent can parse, and
reports anything outside that subset instead of guessing.

Usage: python3 scripts/check_skill.py SKILL_DIR [SKILL_DIR ...]
Exit status: 0 = no errors, 1 = errors found, 2 = usage error.
"""
import json
import os
import re
import sys

ALLOWED = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
NAME_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
KEY_RE = re.compile(r"^([A-Za-z0-9_.-]+):(?: (.*))?$")
NON_STRING = re.compile(
    r"^(?:y|n|yes|no|on|off|true|false|null|~|[-+]?(?:\d[\d_]*)?\.?\d+(?:[eE][-+]?\d+)?"
    r"|0x[0-9a-fA-F]+|0o?[0-7]+|\d{4}-\d{2}-\d{2}.*|[-+]?\.(?:inf|nan)|\d+(?::\d+)+)$",
    re.IGNORECASE,
)
REF_RE = re.compile(r"(?<![\w/.-])((?:scripts|references|assets)/[\w./-]*[\w-])")
RESOURCE_DIRS = ("scripts", "references", "assets")


def scalar(raw, where, report):
    """Return the string value of a one-line YAML scalar, reporting risky forms."""
    if raw.startswith('"'):
        if len(raw) < 2 or not raw.endswith('"'):
            report(where, "error", "unterminated double-quoted string")
            return raw
        try:
            return json.loads(raw)
        except ValueError:
            report(where, "warning", "unusual escape in double-quoted string")
            return raw[1:-1]
    if raw.startswith("'"):
        if len(raw) < 2 or not raw.endswith("'"):
            report(where, "error", "unterminated single-quoted string")
        return raw[1:-1].replace("''", "'")
    if raw[:1] in ("[", "{"):
        report(where, "error", "flow style ([...] or {...}) is rejected by strict parsers")
    elif raw[:1] in ("&", "*", "!"):
        report(where, "error", "anchors, aliases and tags are not portable")
    elif raw[:1] in ("|", ">"):
        report(where, "error", "use a one-line value instead of a block scalar")
    elif raw[:1] in "-?:,]}#|%@`" or ": " in raw or " #" in raw or raw.endswith(":"):
        report(where, "error", "value needs double quotes (special character, ': ' or ' #')")
    elif NON_STRING.match(raw):
        report(where, "error", "%r is not a string in YAML 1.1; wrap it in double quotes" % raw)
    return raw


def check(skill_dir):
    problems = []
    path = os.path.join(skill_dir, "SKILL.md")

    def report(line, level, message):
        problems.append((line, level, message))

    if not os.path.isfile(path):
        return path, [(0, "error", "SKILL.md not found (the file name is case-sensitive)")]
    with open(path, "rb") as handle:
        data = handle.read()
    if data.startswith(b"\xef\xbb\xbf"):
        report(1, "error", "file starts with a byte order mark; save as UTF-8 without BOM")
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return path, [(0, "error", "not valid UTF-8 (%s)" % exc.reason)]
    if "\r" in text:
        report(1, "error", "use LF line endings, not CRLF")
        text = text.replace("\r\n", "\n")
    if not text.endswith("\n"):
        report(text.count("\n") + 1, "warning", "file should end with a newline")
    lines = text.split("\n")
    if lines[0] != "---":
        report(1, "error", "line 1 must be exactly '---'")
        return path, problems
    try:
        end = lines.index("---", 1)
    except ValueError:
        report(1, "error", "frontmatter is not closed with a '---' line")
        return path, problems

    fields, metadata, current = {}, {}, None
    for number, line in enumerate(lines[1:end], start=2):
        if "\t" in line:
            report(number, "error", "tab character in frontmatter; indent with spaces")
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indented = line.startswith(" ")
        match = KEY_RE.match(line.strip())
        if not match:
            report(number, "error", "cannot read this line as 'key: value'")
            continue
        key, raw = match.group(1), (match.group(2) or "").strip()
        if indented:
            if current != "metadata" or line.startswith("    "):
                report(number, "error", "only metadata may have indented entries, one level deep")
                continue
            if key in metadata:
                report(number, "error", "duplicate metadata key %r" % key)
            metadata[key] = scalar(raw, number, report) if raw else ""
            if not raw:
                report(number, "error", "metadata %r needs a string value (no nesting)" % key)
            continue
        current = key
        if key in fields:
            report(number, "error", "duplicate key %r" % key)
        if key not in ALLOWED:
            report(number, "error", "unknown field %r; put extra data under metadata" % key)
        if key == "metadata":
            if raw:
                report(number, "error", "metadata must be a block of 'key: \"value\"' lines")
            fields[key] = metadata
        elif not raw:
            report(number, "error", "field %r is empty" % key)
            fields[key] = ""
        else:
            fields[key] = (scalar(raw, number, report), number)

    def value(key):
        item = fields.get(key)
        return item if isinstance(item, tuple) else (None, 1)

    folder = os.path.basename(os.path.abspath(skill_dir))
    name, line = value("name")
    if name is None:
        report(1, "error", "missing required field 'name'")
    elif not (1 <= len(name) <= 64 and NAME_RE.match(name)):
        report(line, "error", "name must be 1-64 lowercase letters, digits and single hyphens")
    elif name != folder:
        report(line, "error", "name %r must equal the folder name %r" % (name, folder))
    desc, line = value("description")
    if desc is None:
        report(1, "error", "missing required field 'description'")
    else:
        if not 1 <= len(desc) <= 1024:
            report(line, "error", "description must be 1-1024 characters (has %d)" % len(desc))
        if "<" in desc or ">" in desc:
            report(line, "error", "description must not contain '<' or '>'")
        if not re.search(r"\bwhen\b", desc, re.IGNORECASE):
            report(line, "warning", "description should say when to use the skill")
    compat, line = value("compatibility")
    if compat is not None and not 1 <= len(compat) <= 500:
        report(line, "error", "compatibility must be 1-500 characters")
    if "metadata" in fields and not metadata:
        report(1, "warning", "metadata is declared but empty")

    body = "\n".join(lines[end + 1:])
    if len(lines) - end > 500:
        report(end + 1, "warning", "body is over 500 lines; move detail into references/")
    mentioned = set()
    for ref in sorted(set(REF_RE.findall(body))):
        if ref.count("/") > 1:
            report(0, "warning", "%s is nested; keep references one level deep" % ref)
        if not os.path.exists(os.path.join(skill_dir, ref)):
            report(0, "error", "body references %s, which does not exist" % ref)
        mentioned.add(ref)
    for sub in RESOURCE_DIRS:
        for root, _dirs, files in os.walk(os.path.join(skill_dir, sub)):
            for filename in files:
                rel = os.path.relpath(os.path.join(root, filename), skill_dir).replace(os.sep, "/")
                if rel not in mentioned:
                    report(0, "warning", "%s is never mentioned in the body" % rel)
    return path, problems


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip().split("\n\n", 2)[2], file=sys.stderr)
        return 0 if len(argv) > 1 else 2
    errors = 0
    for skill_dir in argv[1:]:
        if not os.path.isdir(skill_dir):
            print("check_skill: error: not a directory: %s" % skill_dir, file=sys.stderr)
            errors += 1
            continue
        path, problems = check(skill_dir)
        for line, level, message in problems:
            where = "%s:%d" % (path, line) if line else path
            print("%s: %s: %s" % (where, level, message))
            errors += level == "error"
        if not problems:
            print("%s: ok" % path)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
