#!/usr/bin/env python3
"""Render an OpenAPI 3.x document (JSON) as a Markdown endpoint reference.

Standard library only, so YAML input is not supported: convert it to JSON
first. Output goes to standard output, or to the file given with -o.

Exit status: 0 = ok, 1 = unreadable or unsupported document, 2 = usage error.
"""
import argparse
import json
import sys

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def fail(message):
    print("openapi_to_md: error: " + message, file=sys.stderr)
    sys.exit(1)


def cell(text):
    """Make text safe for a single Markdown table cell."""
    text = " ".join(str(text or "").split())
    return text.replace("|", "\\|")


def resolve(spec, node, seen=None):
    """Follow a local $ref ('#/components/...'); leave anything else alone."""
    seen = seen or set()
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        ref = node["$ref"]
        if not ref.startswith("#/") or ref in seen:
            return node
        seen.add(ref)
        target = spec
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(target, dict) or part not in target:
                print("openapi_to_md: warning: unresolved $ref " + ref, file=sys.stderr)
                return node
            target = target[part]
        node = target
    return node


def type_name(schema, depth=0):
    """Short human-readable type: 'Pet', 'array of Pet', 'string (date-time)'."""
    if not isinstance(schema, dict) or depth > 5:
        return ""
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    for key, joiner in (("oneOf", " or "), ("anyOf", " or "), ("allOf", " and ")):
        if isinstance(schema.get(key), list):
            return joiner.join(type_name(s, depth + 1) or "object" for s in schema[key])
    kind = schema.get("type", "object" if "properties" in schema else "")
    if isinstance(kind, list):
        kind = " or ".join(str(k) for k in kind)
    if kind == "array":
        return "array of " + (type_name(schema.get("items"), depth + 1) or "any")
    if schema.get("format"):
        kind = "%s (%s)" % (kind, schema["format"])
    if isinstance(schema.get("enum"), list):
        kind = "%s, one of: %s" % (kind, ", ".join(str(v) for v in schema["enum"]))
    return kind


def render_operation(spec, path, method, op, shared_params):
    lines = ["### %s %s" % (method.upper(), path), ""]
    if op.get("deprecated"):
        lines += ["**Deprecated.**", ""]
    summary = op.get("summary") or op.get("operationId") or ""
    if summary:
        lines += [summary.strip(), ""]
    if op.get("description") and op.get("description") != summary:
        lines += [op["description"].strip(), ""]

    params = {}
    for raw in list(shared_params) + list(op.get("parameters") or []):
        param = resolve(spec, raw)
        if isinstance(param, dict) and "name" in param:
            params[(param["name"], param.get("in"))] = param
    if params:
        lines += ["**Parameters**", "", "| Name | In | Type | Required | Description |",
                  "| --- | --- | --- | --- | --- |"]
        for param in params.values():
            schema = param.get("schema")
            lines.append("| `%s` | %s | %s | %s | %s |" % (
                cell(param["name"]), cell(param.get("in")), cell(type_name(schema)),
                "yes" if param.get("required") else "no", cell(param.get("description"))))
        lines.append("")

    body = resolve(spec, op.get("requestBody"))
    if isinstance(body, dict) and body.get("content"):
        required = " (required)" if body.get("required") else ""
        lines += ["**Request body**%s" % required, ""]
        for media, content in body["content"].items():
            lines.append("- `%s`: %s" % (media, type_name((content or {}).get("schema")) or "unspecified"))
        lines.append("")

    responses = op.get("responses") or {}
    if responses:
        lines += ["**Responses**", "", "| Status | Description | Body |", "| --- | --- | --- |"]
        for status, raw in responses.items():
            response = resolve(spec, raw) if isinstance(raw, dict) else {}
            kinds = []
            for media, content in (response.get("content") or {}).items():
                kinds.append("`%s` %s" % (media, type_name((content or {}).get("schema"))))
            lines.append("| %s | %s | %s |" % (cell(status), cell(response.get("description")), cell("; ".join(kinds))))
        lines.append("")
    return lines


def render(spec, only_tag):
    info = spec.get("info") or {}
    lines = ["# %s" % (info.get("title") or "API reference"), ""]
    if info.get("version"):
        lines += ["Version: `%s`" % info["version"], ""]
    if info.get("description"):
        lines += [info["description"].strip(), ""]
    servers = [s.get("url") for s in spec.get("servers") or [] if isinstance(s, dict) and s.get("url")]
    if servers:
        lines += ["Base URL%s: %s" % ("s" if len(servers) > 1 else "", ", ".join("`%s`" % u for u in servers)), ""]

    groups = {}
    for path, item in (spec.get("paths") or {}).items():
        item = resolve(spec, item)
        if not isinstance(item, dict):
            continue
        for method in METHODS:
            op = item.get(method)
            if not isinstance(op, dict):
                continue
            tag = (op.get("tags") or ["Other"])[0]
            if only_tag and tag != only_tag:
                continue
            groups.setdefault(tag, []).append(render_operation(spec, path, method, op, item.get("parameters") or []))
    if not groups:
        fail("no operations found" + (" with tag %r" % only_tag if only_tag else ""))

    tag_text = {t.get("name"): t.get("description") for t in spec.get("tags") or [] if isinstance(t, dict)}
    order = [t for t in tag_text if t in groups] + sorted(t for t in groups if t not in tag_text)
    for tag in order:
        lines += ["## %s" % tag, ""]
        if tag_text.get(tag):
            lines += [tag_text[tag].strip(), ""]
        for block in groups[tag]:
            lines += block
    return "\n".join(lines).rstrip("\n") + "\n"


def main():
    parser = argparse.ArgumentParser(
        prog="openapi_to_md.py",
        description="Render an OpenAPI 3.x JSON document as Markdown.",
        epilog="example: python3 scripts/openapi_to_md.py openapi.json -o docs/api.md",
    )
    parser.add_argument("spec", help="path to the OpenAPI JSON file, or - for standard input")
    parser.add_argument("--tag", help="only render operations whose first tag is TAG")
    parser.add_argument("-o", "--output", help="write Markdown to this file instead of stdout")
    args = parser.parse_args()

    try:
        if args.spec == "-":
            text = sys.stdin.read()
        else:
            with open(args.spec, encoding="utf-8-sig") as handle:
                text = handle.read()
    except FileNotFoundError:
        fail("file not found: " + args.spec)
    except (OSError, UnicodeDecodeError) as exc:
        fail("cannot read %s: %s" % (args.spec, exc))
    try:
        spec = json.loads(text)
    except json.JSONDecodeError as exc:
        hint = ""
        if text.lstrip().startswith(("openapi:", "swagger:", "---", "#")):
            hint = " (this looks like YAML; convert it to JSON first)"
        fail("not valid JSON at line %d column %d%s" % (exc.lineno, exc.colno, hint))
    if not isinstance(spec, dict):
        fail("the document must be a JSON object")
    if "swagger" in spec:
        fail("Swagger/OpenAPI 2.0 is not supported; convert it to OpenAPI 3 first")
    if not str(spec.get("openapi", "")).startswith("3."):
        fail("missing or unsupported 'openapi' version %r; expected 3.x" % spec.get("openapi"))

    markdown = render(spec, args.tag)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(markdown)
        except OSError as exc:
            fail("cannot write %s: %s" % (args.output, exc.strerror))
    else:
        sys.stdout.write(markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
