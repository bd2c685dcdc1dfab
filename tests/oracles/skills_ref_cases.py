#!/usr/bin/env python3
"""Capture golden outputs of the reference validator skills-ref 0.1.1 (agentskills.io).

Writes tests/fixtures/skills-ref/cases.json: one object per case, sorted by id, holding what the
real `agentskills` CLI (and, where a case is about the Python API, the skills_ref API) printed.

Install the oracle (PyPI reachable; Python >= 3.11):

    python3 -m venv /tmp/oracles/venv-sr
    /tmp/oracles/venv-sr/bin/pip install skills-ref==0.1.1
    # the console script is named `agentskills` (not `skills-ref`) in 0.1.1
    # goldens were captured with click 8.5.1 and strictyaml 1.7.3 (see versions in the run log)

Regenerate (from the repository root; stdlib only):

    python3 tests/oracles/skills_ref_cases.py [--bin /tmp/oracles/venv-sr/bin/agentskills]
                                              [--python VENV_PYTHON] [--out PATH]

--bin defaults to $AGENTSKILLS_BIN, else /tmp/oracles/venv-sr/bin/agentskills. The API probes run with
the interpreter next to --bin (override with --python).

Record layout (keys in this order):
  id         "parser/<test>", "prompt/<test>", "validator/<test>" (the 40 pytest functions of
             skills-ref 0.1.1) or "quirk/<name>" (extra differential cases)
  origin     "skills-ref tests/test_<module>.py::test_<name>" or "quirk"
  kind       the CLI command whose result fills valid/exit_code/messages/stdout/stderr. It is
             "validate" for every case that has a skill folder (API-level tests are also run
             through `agentskills validate DIR`); only prompt/empty_list, which has no folder,
             is "to-prompt" (`agentskills to-prompt` with no argument).
  dir        folder name of the skill ("" when there is none)
  files      relative path -> exact text written (UTF-8, newlines as given, no translation)
  files_b64  instead of files, for raw bytes that are not UTF-8 (base64)
  extra_dirs (prompt/multiple_skills only) further sibling skill folders: name -> files
  file_text  (path_kind "file" only) text of the regular file passed instead of a folder
  path_kind  "dir" (the folder), "missing" (nonexistent path), "file" (a regular file), or
             "none" (no path argument at all)
  valid      exit_code == 0
  exit_code  exit status of the CLI
  messages   for a failed validate: the error lines after "Validation failed for ...:" with the
             leading "  - " removed; continuation lines (not starting with "  - ") are joined to
             the previous message with "\n". Empty when no such header was printed.
  stdout, stderr  exactly as printed
  api        (optional) the Python API result: {"kind", "call", "ok", "result" | "error"} and for
             read-properties / to-prompt also "cli": the matching CLI command's
             {"argv", "exit_code", "stdout", "stderr"}.

The CLI always gets the absolute path of the skill folder. In every string, that path is replaced
by {DIR}, the folder holding it by {PARENT}; in crash tracebacks the venv prefix by {VENV} and the
base interpreter prefix by {PYBASE}, so the file is machine-independent.
"""

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_OUT = os.path.join(REPO, "tests", "fixtures", "skills-ref", "cases.json")

P = "skills-ref tests/test_parser.py::test_"
PR = "skills-ref tests/test_prompt.py::test_"
V = "skills-ref tests/test_validator.py::test_"


def fm(*lines, body="Body.\n"):
    """A SKILL.md text: '---', the given frontmatter lines, '---', then body."""
    return "---\n" + "".join(l + "\n" for l in lines) + "---\n" + body


def skill(name, desc, *extra, body="Body.\n"):
    return fm("name: " + name, "description: " + desc, *extra, body=body)


CASES = []


def case(id, origin, dir, files=None, *, path_kind="dir", api=None, files_b64=None,
         extra_dirs=None, file_text=None, kind="validate"):
    CASES.append(dict(id=id, origin=origin, kind=kind, dir=dir, files=files or {},
                      files_b64=files_b64, extra_dirs=extra_dirs, file_text=file_text,
                      path_kind=path_kind, api=api))


# --------------------------------------------------------------------------------------------
# tests/test_parser.py (15). Each is also run through `agentskills validate DIR`.
# api: "parse-frontmatter" -> parse_frontmatter(text of the file); "read-properties" ->
# read_properties(DIR) and `agentskills read-properties DIR`; "find-skill-md" -> find_skill_md(DIR)
# --------------------------------------------------------------------------------------------
case("parser/valid_frontmatter", P + "valid_frontmatter", "table-formatter",
     {"SKILL.md": skill("table-formatter", "Formats Markdown tables.",
                        body="# Table Formatter\n\nAlign every column.\n")},
     api="parse-frontmatter")
case("parser/missing_frontmatter", P + "missing_frontmatter", "table-formatter",
     {"SKILL.md": "# Table Formatter\n\nThere is no header block here.\n"},
     api="parse-frontmatter")
case("parser/unclosed_frontmatter", P + "unclosed_frontmatter", "table-formatter",
     {"SKILL.md": "---\nname: table-formatter\ndescription: Formats Markdown tables.\n"},
     api="parse-frontmatter")
case("parser/invalid_yaml", P + "invalid_yaml", "table-formatter",
     {"SKILL.md": fm("name: [table-formatter", "description: Formats Markdown tables.")},
     api="parse-frontmatter")
case("parser/non_dict_frontmatter", P + "non_dict_frontmatter", "table-formatter",
     {"SKILL.md": fm("- alpha", "- beta", "- gamma")},
     api="parse-frontmatter")
case("parser/read_valid_skill", P + "read_valid_skill", "csv-cleaner",
     {"SKILL.md": skill("csv-cleaner", "Cleans CSV files.", "license: MIT",
                        body="# CSV Cleaner\n")},
     api="read-properties")
case("parser/read_with_metadata", P + "read_with_metadata", "csv-cleaner",
     {"SKILL.md": skill("csv-cleaner", "Cleans CSV files.",
                        "metadata:", "  author: Jane Roe", "  version: 1.0")},
     api="read-properties")
case("parser/missing_skill_md", P + "missing_skill_md", "empty-skill", {},
     api="read-properties")
case("parser/missing_name", P + "missing_name", "csv-cleaner",
     {"SKILL.md": fm("description: Cleans CSV files.")},
     api="read-properties")
case("parser/missing_description", P + "missing_description", "csv-cleaner",
     {"SKILL.md": fm("name: csv-cleaner")},
     api="read-properties")
case("parser/find_skill_md_prefers_uppercase", P + "find_skill_md_prefers_uppercase",
     "csv-cleaner",
     {"SKILL.md": skill("csv-cleaner", "Cleans CSV files."),
      "skill.md": "Not a skill file.\n"},
     api="find-skill-md")
case("parser/find_skill_md_accepts_lowercase", P + "find_skill_md_accepts_lowercase",
     "csv-cleaner", {"skill.md": "Not a skill file.\n"},
     api="find-skill-md")
case("parser/find_skill_md_returns_none_when_missing",
     P + "find_skill_md_returns_none_when_missing", "csv-cleaner", {},
     api="find-skill-md")
case("parser/read_properties_with_lowercase_skill_md",
     P + "read_properties_with_lowercase_skill_md", "csv-cleaner",
     {"skill.md": skill("csv-cleaner", "Cleans CSV files.", body="# CSV Cleaner\n")},
     api="read-properties")
case("parser/read_with_allowed_tools", P + "read_with_allowed_tools", "csv-cleaner",
     {"SKILL.md": skill("csv-cleaner", "Cleans CSV files.",
                        "allowed-tools: Bash(jq:*) Bash(curl:*)")},
     api="read-properties")

# --------------------------------------------------------------------------------------------
# tests/test_prompt.py (4). api: to_prompt([...]) and `agentskills to-prompt ...`.
# --------------------------------------------------------------------------------------------
case("prompt/empty_list", PR + "empty_list", "", {}, path_kind="none", api="to-prompt",
     kind="to-prompt")
case("prompt/single_skill", PR + "single_skill", "log-reader",
     {"SKILL.md": skill("log-reader", "Reads log files.")}, api="to-prompt")
case("prompt/multiple_skills", PR + "multiple_skills", "csv-cleaner",
     {"SKILL.md": skill("csv-cleaner", "Cleans CSV files.")},
     extra_dirs={"log-reader": {"SKILL.md": skill("log-reader", "Reads log files.")}},
     api="to-prompt")
case("prompt/special_characters_escaped", PR + "special_characters_escaped", "markup-helper",
     {"SKILL.md": skill("markup-helper", "Handles <div> & <span> markup")}, api="to-prompt")

# --------------------------------------------------------------------------------------------
# tests/test_validator.py (21). The tests call validate(); the CLI gives the same list except
# for a nonexistent path (click rejects it, exit 2), where api records validate() itself.
# --------------------------------------------------------------------------------------------
UC = "unit-converter"
UCD = "Converts units of measure."
case("validator/valid_skill", V + "valid_skill", UC,
     {"SKILL.md": skill(UC, UCD, body="# Unit Converter\n")})
case("validator/nonexistent_path", V + "nonexistent_path", "no-such-skill", {},
     path_kind="missing", api="validate")
case("validator/not_a_directory", V + "not_a_directory", "notes.txt", {},
     path_kind="file", file_text="Plain notes.\n")
case("validator/missing_skill_md", V + "missing_skill_md", UC, {})
case("validator/invalid_name_uppercase", V + "invalid_name_uppercase", "UnitConverter",
     {"SKILL.md": skill("UnitConverter", UCD)})
case("validator/name_too_long", V + "name_too_long", "z" * 70,
     {"SKILL.md": skill("z" * 70, UCD)})
case("validator/name_leading_hyphen", V + "name_leading_hyphen", "-unit-converter",
     {"SKILL.md": skill("-unit-converter", UCD)})
case("validator/name_consecutive_hyphens", V + "name_consecutive_hyphens", "unit--converter",
     {"SKILL.md": skill("unit--converter", UCD)})
case("validator/name_invalid_characters", V + "name_invalid_characters", "unit_converter",
     {"SKILL.md": skill("unit_converter", UCD)})
case("validator/name_directory_mismatch", V + "name_directory_mismatch", "old-name",
     {"SKILL.md": skill("new-name", UCD)})
case("validator/unexpected_fields", V + "unexpected_fields", UC,
     {"SKILL.md": skill(UC, UCD, "extra_field: not allowed here")})
case("validator/valid_with_all_fields", V + "valid_with_all_fields", UC,
     {"SKILL.md": skill(UC, UCD, "license: MIT", "metadata:", "  owner: Units Team")})
case("validator/allowed_tools_accepted", V + "allowed_tools_accepted", UC,
     {"SKILL.md": skill(UC, UCD, "allowed-tools: Read Grep Bash(python3:*)")})
case("validator/i18n_chinese_name", V + "i18n_chinese_name", "技能",
     {"SKILL.md": skill("技能", "Skill whose name is Chinese.")})
case("validator/i18n_russian_name_with_hyphens", V + "i18n_russian_name_with_hyphens",
     "мой-навык", {"SKILL.md": skill("мой-навык", "Skill whose name is Russian with a hyphen.")})
case("validator/i18n_russian_lowercase_valid", V + "i18n_russian_lowercase_valid", "навык",
     {"SKILL.md": skill("навык", "Skill whose name is lowercase Russian.")})
case("validator/i18n_russian_uppercase_rejected", V + "i18n_russian_uppercase_rejected",
     "НАВЫК", {"SKILL.md": skill("НАВЫК", "Skill whose name is uppercase Russian.")})
case("validator/description_too_long", V + "description_too_long", UC,
     {"SKILL.md": skill(UC, "d" * 1100)})
case("validator/valid_compatibility", V + "valid_compatibility", UC,
     {"SKILL.md": skill(UC, UCD, "compatibility: Needs Node.js 20 or newer")})
case("validator/compatibility_too_long", V + "compatibility_too_long", UC,
     {"SKILL.md": skill(UC, UCD, "compatibility: " + "c" * 550)})
case("validator/nfkc_normalization", V + "nfkc_normalization", "caf\u00e9",
     {"SKILL.md": skill("cafe\u0301", "Name is decomposed, folder is composed.")})

# --------------------------------------------------------------------------------------------
# Quirks (extra differential cases). api: read_properties(DIR) + `agentskills read-properties`.
# --------------------------------------------------------------------------------------------
Q = "quirk"
RP = "read-properties"
TF = "table-formatter"
TFD = "Formats tables."


def quirk(id, dir, files, **kw):
    kw.setdefault("api", RP)
    case("quirk/" + id, Q, dir, files, **kw)


quirk("flow_list_allowed_tools", TF, {"SKILL.md": skill(TF, TFD, "allowed-tools: [Read, Bash]")})
quirk("flow_map_metadata", TF, {"SKILL.md": skill(TF, TFD, "metadata: {owner: Docs Team}")})
quirk("metadata_empty_flow_map", TF, {"SKILL.md": skill(TF, TFD, "metadata: {}")})
quirk("duplicate_key", TF, {"SKILL.md": skill(TF, TFD, "description: Formats tables twice.")})
quirk("anchor_alias", TF,
      {"SKILL.md": fm("name: " + TF, "description: &desc Formats tables.",
                      "compatibility: *desc")})
quirk("explicit_tag", TF, {"SKILL.md": skill(TF, "!!str Formats tables.")})
quirk("utf8_bom", TF, {"SKILL.md": "\ufeff" + skill(TF, TFD)})
quirk("crlf_line_endings", TF,
      {"SKILL.md": skill(TF, TFD, body="# Table Formatter\n").replace("\n", "\r\n")})
quirk("triple_dash_in_description", TF,
      {"SKILL.md": skill(TF, "Before --- after")})
quirk("triple_dash_truncates_before_name", TF,
      {"SKILL.md": fm("description: Before --- after", "name: " + TF)})
quirk("triple_dash_inside_quotes", TF,
      {"SKILL.md": skill(TF, '"Before --- after"')})
quirk("empty_compatibility", TF, {"SKILL.md": skill(TF, TFD, 'compatibility: ""')})
quirk("compatibility_block_list", TF,
      {"SKILL.md": skill(TF, TFD, "compatibility:", "  - linux", "  - macos")})
quirk("empty_name_value", TF, {"SKILL.md": fm("name:", "description: " + TFD)})
quirk("description_block_map", TF,
      {"SKILL.md": fm("name: " + TF, "description:", "  short: Formats tables.")})
quirk("fullwidth_name", "pdf", {"SKILL.md": skill("\uff50\uff44\uff46", "Reads PDF files.")})
quirk("devanagari_name", "हिन्दी", {"SKILL.md": skill("हिन्दी", "Skill whose name is Hindi.")})
quirk("lowercase_skill_md_only", TF, {"skill.md": skill(TF, TFD)})
quirk("both_skill_md_cases", TF,
      {"SKILL.md": "No frontmatter in the uppercase file.\n", "skill.md": skill(TF, TFD)})
quirk("unquoted_colon_description", TF, {"SKILL.md": skill(TF, "Use when: the user asks")})
quirk("numeric_name", "123", {"SKILL.md": skill("123", "Counts numbers.")})
quirk("description_yes", TF, {"SKILL.md": skill(TF, "yes")})
quirk("metadata_nested_map", TF,
      {"SKILL.md": skill(TF, TFD, "metadata:", "  owner: Docs Team", "  limits:",
                         "    rows: 100")})
quirk("allowed_tools_block_list", TF,
      {"SKILL.md": skill(TF, TFD, "allowed-tools:", "  - Read", "  - Bash")})
quirk("leading_blank_line", TF, {"SKILL.md": "\n" + skill(TF, TFD)})
quirk("html_comment_before_frontmatter", TF,
      {"SKILL.md": "<!-- generated -->\n" + skill(TF, TFD)})
quirk("no_closing_delimiter", TF,
      {"SKILL.md": "---\nname: " + TF + "\ndescription: " + TFD + "\n\n# Table Formatter\n"})
quirk("closing_delimiter_trailing_spaces", TF,
      {"SKILL.md": "---\nname: " + TF + "\ndescription: " + TFD + "\n---   \nBody.\n"})
quirk("four_dashes_first_line", TF,
      {"SKILL.md": "----\nname: " + TF + "\ndescription: " + TFD + "\n---\nBody.\n"})
quirk("empty_frontmatter", TF, {"SKILL.md": "---\n---\nbody"})
quirk("frontmatter_yaml_list", TF,
      {"SKILL.md": fm("- name: " + TF, "  description: " + TFD)})
quirk("tab_indented_nested_key", TF,
      {"SKILL.md": skill(TF, TFD, "metadata:", "\towner: Docs Team")})
quirk("unknown_keys_version_author", TF,
      {"SKILL.md": skill(TF, TFD, "version: 1.2.0", "author: Jane Roe")})
quirk("when_to_use_and_disable_model_invocation", TF,
      {"SKILL.md": skill(TF, TFD, "when_to_use: When a table looks messy.",
                         "disable-model-invocation: true")})
quirk("description_angle_brackets", TF,
      {"SKILL.md": skill(TF, "Wraps cells in <td> and </td> tags.")})
quirk("name_uppercase_and_double_hyphen", "Table--Formatter",
      {"SKILL.md": skill("Table--Formatter", TFD)})
quirk("description_1024_chars", TF, {"SKILL.md": skill(TF, "d" * 1024)})
quirk("description_1025_chars", TF, {"SKILL.md": skill(TF, "d" * 1025)})
quirk("name_64_chars", "n" * 64, {"SKILL.md": skill("n" * 64, TFD)})
quirk("name_65_chars", "n" * 65, {"SKILL.md": skill("n" * 65, TFD)})
quirk("invalid_utf8", TF, None,
      files_b64={"SKILL.md": base64.b64encode(
          b"---\nname: " + TF.encode() + b"\ndescription: Formats \xff\xfe tables.\n---\nBody.\n"
      ).decode("ascii")})


# --------------------------------------------------------------------------------------------
# API probe, run with the venv interpreter (it has skills_ref). Reads a JSON request on stdin.
# --------------------------------------------------------------------------------------------
PROBE = r'''
import json, sys, traceback
from pathlib import Path
import skills_ref
from skills_ref.parser import parse_frontmatter, read_properties, find_skill_md
from skills_ref.prompt import to_prompt
from skills_ref.validator import validate
req = json.load(sys.stdin)
kind, paths = req["kind"], req["paths"]
out = {}
try:
    if kind == "validate-list":
        out["result"] = validate(Path(paths[0]))
    elif kind == "parse-frontmatter":
        meta, body = parse_frontmatter(req["text"])
        out["result"] = {"metadata": meta, "body": body}
    elif kind == "read-properties":
        out["result"] = read_properties(Path(paths[0])).to_dict()
    elif kind == "find-skill-md":
        r = find_skill_md(Path(paths[0]))
        out["result"] = None if r is None else str(r)
    elif kind == "to-prompt":
        out["result"] = to_prompt([Path(p) for p in paths])
    out["ok"] = True
except Exception as e:
    out["ok"] = False
    out["error"] = {"type": type(e).__name__, "message": str(e)}
    if getattr(e, "errors", None) is not None:
        out["error"]["errors"] = list(e.errors)
sys.stdout.write(json.dumps(out, ensure_ascii=True))
'''


def run(argv, env, stdin=None):
    p = subprocess.run(argv, input=stdin, capture_output=True, env=env, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "backslashreplace"), \
        p.stderr.decode("utf-8", "backslashreplace")


def subst_all(v, f):
    """Apply f to every string (keys included) inside a JSON value."""
    if isinstance(v, str):
        return f(v)
    if isinstance(v, list):
        return [subst_all(x, f) for x in v]
    if isinstance(v, dict):
        return {f(k): subst_all(x, f) for k, x in v.items()}
    return v


def split_messages(stderr):
    lines = stderr.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for i, l in enumerate(lines):
        if l.startswith("Validation failed for ") and l.endswith(":"):
            msgs = []
            for m in lines[i + 1:]:
                if m.startswith("  - "):
                    msgs.append(m[4:])
                elif msgs:
                    msgs[-1] += "\n" + m
                else:
                    raise SystemExit("unexpected line after header: %r" % m)
            return msgs
    return []


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.environ.get(
        "AGENTSKILLS_BIN", "/tmp/oracles/venv-sr/bin/agentskills"))
    ap.add_argument("--python", default=None, help="venv interpreter (default: next to --bin)")
    ap.add_argument("--out", default=DEFAULT_OUT)
    a = ap.parse_args()
    binp = os.path.abspath(a.bin)
    py = a.python or os.path.join(os.path.dirname(binp), "python")
    env = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8", PYTHONIOENCODING="utf-8",
               PYTHONDONTWRITEBYTECODE="1", COLUMNS="80")
    for k in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP"):
        env.pop(k, None)

    rc, ver, _ = run([binp, "--version"], env)
    rc2, deps, _ = run([py, "-c", "import sys, click, importlib.metadata as m; print(sys.version.split()[0], "
                        "*(n + '=' + m.version(n) for n in ('skills-ref', 'click', 'strictyaml')))"],
                       env)
    rc3, prefixes, _ = run([py, "-c", "import sys; print(sys.prefix); print(sys.base_prefix)"], env)
    venv_prefix, base_prefix = prefixes.strip().split("\n")
    print("oracle:", ver.strip(), "|", deps.strip(), file=sys.stderr)
    if rc or rc2 or rc3 or "0.1.1" not in ver:
        raise SystemExit("agentskills 0.1.1 not usable at %s" % binp)

    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate ids"
    assert sum(1 for i in ids if not i.startswith("quirk/")) == 40

    root = os.path.realpath(tempfile.mkdtemp(prefix="skills-ref-cases-"))
    out = []
    try:
        for n, c in enumerate(CASES):
            parent = os.path.join(root, "%03d" % n)
            os.makedirs(parent)
            d = os.path.join(parent, c["dir"]) if c["dir"] else None

            def subst(s):
                if d:
                    s = s.replace(d, "{DIR}")
                s = s.replace(parent, "{PARENT}")
                s = s.replace(venv_prefix + "/", "{VENV}/")
                s = s.replace(base_prefix + "/", "{PYBASE}/")
                return s

            def write_tree(base, files, b64=False):
                os.makedirs(base, exist_ok=True)
                for rel, content in files.items():
                    fp = os.path.join(base, rel)
                    os.makedirs(os.path.dirname(fp), exist_ok=True)
                    data = base64.b64decode(content) if b64 else content.encode("utf-8")
                    with open(fp, "wb") as f:
                        f.write(data)

            if c["path_kind"] == "dir":
                if c["files_b64"]:
                    write_tree(d, c["files_b64"], b64=True)
                else:
                    write_tree(d, c["files"])
            elif c["path_kind"] == "file":
                with open(d, "wb") as f:
                    f.write(c["file_text"].encode("utf-8"))
            for name, files in (c["extra_dirs"] or {}).items():
                write_tree(os.path.join(parent, name), files)
            paths = [d] if d else []
            paths += [os.path.join(parent, x) for x in (c["extra_dirs"] or {})]

            # top-level CLI run
            if c["kind"] == "validate":
                argv = [binp, "validate", d]
            else:
                argv = [binp, c["kind"]] + paths
            code, so, se = run(argv, env)
            msgs = split_messages(se) if c["kind"] == "validate" else []
            # cross-check the parsed messages against validate() from the API
            if c["kind"] == "validate" and c["path_kind"] != "missing" and not c["files_b64"]:
                chk = json.loads(run([py, "-c", PROBE], env, json.dumps(
                    {"kind": "validate-list", "paths": [d]}).encode())[1])
                if not chk.get("ok") or chk["result"] != msgs:
                    raise SystemExit("%s: CLI messages %r != API %r" % (c["id"], msgs, chk))

            rec = {"id": c["id"], "origin": c["origin"], "kind": c["kind"], "dir": c["dir"]}
            if c["files_b64"]:
                rec["files_b64"] = c["files_b64"]
            else:
                rec["files"] = c["files"]
            if c["extra_dirs"]:
                rec["extra_dirs"] = c["extra_dirs"]
            if c["file_text"] is not None:
                rec["file_text"] = c["file_text"]
            rec.update(path_kind=c["path_kind"], valid=code == 0, exit_code=code,
                       messages=[subst(m) for m in msgs], stdout=subst(so), stderr=subst(se))

            if c["api"]:
                k = "validate-list" if c["api"] == "validate" else c["api"]
                req = {"kind": k, "paths": paths}
                if k == "parse-frontmatter":
                    req["text"] = c["files"]["SKILL.md"]
                    call = "parse_frontmatter(<text of SKILL.md>)"
                elif k == "to-prompt":
                    call = "to_prompt([%s])" % ", ".join(subst(p) for p in paths)
                else:
                    call = "%s(%s)" % (k.replace("-list", "").replace("-", "_"), subst(paths[0]))
                pc, po, pe = run([py, "-c", PROBE], env, json.dumps(req).encode())
                if pc != 0:
                    raise SystemExit("%s: API probe failed: %s" % (c["id"], pe))
                res = subst_all(json.loads(po), subst)
                api = {"kind": c["api"], "call": call, "ok": res["ok"]}
                if res["ok"]:
                    api["result"] = res["result"]
                else:
                    api["error"] = res["error"]
                if c["api"] in ("read-properties", "to-prompt"):
                    cargv = [c["api"]] + paths
                    cc, cso, cse = run([binp] + cargv, env)
                    api["cli"] = {"argv": [subst(x) for x in cargv], "exit_code": cc,
                                  "stdout": subst(cso), "stderr": subst(cse)}
                rec["api"] = api
            out.append(rec)
    finally:
        shutil.rmtree(root, ignore_errors=True)

    out.sort(key=lambda r: r["id"])
    text = json.dumps(out, ensure_ascii=True, indent=2) + "\n"
    if root in text:
        raise SystemExit("temp path leaked into output")
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    nv = sum(r["valid"] for r in out)
    print("wrote %s: %d cases, %d exit 0, %d nonzero" % (a.out, len(out), nv, len(out) - nv),
          file=sys.stderr)


if __name__ == "__main__":
    main()
