#!/usr/bin/env python3
"""Capture what LangChain DeepAgents 0.7.32's `read_file` tool returns to the model.

Writes tests/fixtures/deepagents-read-file/cases.json, checked byte for byte by
tests/tests/deepagents_read_file.rs against `skillkit::agents::deepagents_read`.

Every case runs through the real program: `langchain.agents.create_agent` with a scripted fake
chat model that emits the `read_file` tool calls, and `FilesystemMiddleware(backend=
FilesystemBackend(root_dir=TMP))` (virtual_mode=True, the default), so the ToolMessages come from
the real `sync_read_file` -> `FilesystemBackend.read` -> `_handle_read_result` path, run by the
real ToolNode. When the script runs as root (which ignores file modes), the permission-denied
case runs in a child process started with `setpriv` without CAP_DAC_OVERRIDE and
CAP_DAC_READ_SEARCH (util-linux setpriv must be installed).

Install the oracle (PyPI reachable; Python >= 3.11):

    python3 -m venv /tmp/oracles/venv-da
    /tmp/oracles/venv-da/bin/pip install deepagents==0.7.32
    # captured with langchain 1.4.7, langgraph 1.2.22, Python 3.11.7 (see "versions" in the output)

Regenerate (from the repository root):

    /tmp/oracles/venv-da/bin/python tests/oracles/deepagents_read_file.py [--out PATH]

Record layout of cases.json:
  versions   the packages and Python the goldens were captured with
  tool       {name, description, parameters}: `convert_to_openai_tool(tool)["function"]`, i.e.
             what LangChain binds for the model (JSON schema without pydantic titles)
  defaults   {offset, limit}: DEFAULT_READ_OFFSET / DEFAULT_READ_LIMIT
  cases      list of objects, in this order of keys:
    id         short name
    file_path  the `file_path` argument the model passed
    offset     the `offset` argument, or null when the call left it out (the default applies)
    limit      the `limit` argument, or null when left out
    file       what is on disk at the validated path, relative to the backend root:
                 {"kind": "file", "text": STR} or {"kind": "file", "base64": STR} (the bytes), or
                 {"kind": "file", "parts": [[STR, N], ...]} (each STR repeated N times, joined:
                 the big generated files), or {"kind": "missing"}, {"kind": "directory"},
                 {"kind": "permission_denied", "host_path": STR} (the resolved host path that
                 Python puts in the error), {"kind": "os_error", "message": STR} (str() of the
                 OSError/RuntimeError the backend caught)
    content    the ToolMessage content (a str; for media files, `json.dumps` of the block list)
    status     the ToolMessage status ("success" or "error"), or "raises" when the tool raises
               and the default ToolNode error handling re-raises, ending the agent run with no
               ToolMessage; content is then "ExceptionType: message"
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "tests" / "fixtures" / "deepagents-read-file" / "cases.json"

# ---------------------------------------------------------------------------------------------
# Fixture texts (written for this test; realistic SKILL.md files with YAML frontmatter).

SKILL_PDF = """---
name: pdf-forms
description: Fill in and flatten PDF forms. Use when the user hands over a PDF with form fields and wants them completed.
license: MIT
compatibility: Python 3.10+ with pypdf installed
allowed-tools: read_file, execute
---

# PDF forms

## When to use

- The user attaches a PDF that has fillable fields.
- The user asks to "fill in", "complete" or "flatten" a form.

## Steps

1. List the fields: `python scripts/list_fields.py form.pdf`.
2. Write the values to `values.json`, one key per field name.
3. Fill and flatten: `python scripts/fill.py form.pdf values.json out.pdf`.

## Notes

Checkbox values are `/Yes` or `/Off`; anything else is ignored by most viewers.
"""

SKILL_CRLF = SKILL_PDF.replace("\n", "\r\n")

SKILL_NO_NL = """---
name: tidy-commits
description: Rewrite a messy branch into a few reviewable commits.
---

Squash fixups, keep one logical change per commit, and write subjects under 60 characters."""

SKILL_UNICODE = """---
name: café-notes
description: "Résumé des réunions — 会議の要約 🗒️"
metadata:
  author: "Zoë"
---

# Notes de réunion

Use « guillemets » and keep the 🗒️ emoji.
\tIndented with a tab; @@ not a header @@
"""

SKILL_SPECIAL_SEPARATORS = (
    "---\nname: separators\ndescription: Lines split by characters other than LF.\n---\n"
    "page one\x0cpage two\n"
    "vertical\x0btab\n"
    "line\u2028separator\n"
    "next\x85line\n"
    "group\x1dseparator\n"
    "end\n"
)


def long_skill(n: int) -> str:
    head = "---\nname: long-skill\ndescription: A long skill used to exercise pagination.\n---\n"
    body = "".join(f"Step {i}: do the thing number {i} and check the result.\n" for i in range(5, n + 1))
    return head + body


def text(s: str) -> dict:
    return {"kind": "file", "text": s}


def raw(b: bytes) -> dict:
    return {"kind": "file", "base64": base64.b64encode(b).decode("ascii")}


def parts(*p: tuple[str, int]) -> dict:
    return {"kind": "file", "parts": [[s, n] for s, n in p]}


def file_bytes(f: dict) -> bytes:
    if "text" in f:
        return f["text"].encode("utf-8")
    if "base64" in f:
        return base64.b64decode(f["base64"])
    return "".join(s * n for s, n in f["parts"]).encode("utf-8")


S = "/skills/pdf-forms/SKILL.md"

# (id, file_path passed, offset, limit, on-disk path relative to root or None, file)
CASES: list[tuple[str, str, int | None, int | None, str | None, dict]] = [
    # What the skills listing asks for: the listed path with limit=1000.
    ("skill/limit_1000", S, None, 1000, "skills/pdf-forms/SKILL.md", text(SKILL_PDF)),
    ("skill/default_window", S, None, None, "skills/pdf-forms/SKILL.md", text(SKILL_PDF)),
    ("skill/offset_2_limit_3", S, 2, 3, "skills/pdf-forms/SKILL.md", text(SKILL_PDF)),
    ("skill/last_line_only", S, 23, 1000, "skills/pdf-forms/SKILL.md", text(SKILL_PDF)),
    ("skill/offset_equals_length", S, 24, 1000, "skills/pdf-forms/SKILL.md", text(SKILL_PDF)),
    ("skill/offset_past_end", S, 500, 1000, "skills/pdf-forms/SKILL.md", text(SKILL_PDF)),
    ("skill/negative_offset", S, -3, 1000, "skills/pdf-forms/SKILL.md", text(SKILL_PDF)),
    ("skill/negative_offset_small_limit", S, -1, 2, "skills/pdf-forms/SKILL.md", text(SKILL_PDF)),
    ("skill/limit_0", S, 0, 0, "skills/pdf-forms/SKILL.md", text(SKILL_PDF)),
    ("skill/limit_negative", S, 3, -5, "skills/pdf-forms/SKILL.md", text(SKILL_PDF)),
    ("skill/crlf", "/skills/crlf/SKILL.md", None, 1000, "skills/crlf/SKILL.md", text(SKILL_CRLF)),
    ("skill/crlf_window", "/skills/crlf/SKILL.md", 1, 2, "skills/crlf/SKILL.md", text(SKILL_CRLF)),
    ("skill/lone_cr", "/skills/cr/SKILL.md", None, 1000, "skills/cr/SKILL.md", text("---\rname: cr\r---\r\rbody\r")),
    ("skill/mixed_eol", "/skills/mixed/SKILL.md", None, 1000, "skills/mixed/SKILL.md", text("a\r\nb\rc\nd\r\r\ne")),
    ("skill/no_trailing_newline", "/skills/tidy/SKILL.md", None, 1000, "skills/tidy/SKILL.md", text(SKILL_NO_NL)),
    ("skill/no_trailing_newline_tail", "/skills/tidy/SKILL.md", 5, 1000, "skills/tidy/SKILL.md", text(SKILL_NO_NL)),
    ("skill/unicode", "/skills/cafe/SKILL.md", None, 1000, "skills/cafe/SKILL.md", text(SKILL_UNICODE)),
    ("skill/bom", "/skills/bom/SKILL.md", None, 1000, "skills/bom/SKILL.md", text("\ufeff---\nname: bom\n---\nbody\n")),
    ("skill/special_separators", "/skills/sep/SKILL.md", None, 1000, "skills/sep/SKILL.md", text(SKILL_SPECIAL_SEPARATORS)),
    ("skill/special_separators_window", "/skills/sep/SKILL.md", 4, 3, "skills/sep/SKILL.md", text(SKILL_SPECIAL_SEPARATORS)),
    ("skill/trailing_blank_lines", "/skills/blank/SKILL.md", None, 1000, "skills/blank/SKILL.md", text("---\nname: blank\n---\nbody\n\n\n")),
    ("skill/blank_window", "/skills/blank/SKILL.md", 4, 2, "skills/blank/SKILL.md", text("---\nname: blank\n---\nbody\n\n\n")),
    ("skill/blank_window_mid", "/skills/gap/SKILL.md", 1, 2, "skills/gap/SKILL.md", text("a\n\n\n\nb\n")),
    ("skill/whitespace_window", "/skills/ws/SKILL.md", 1, 1, "skills/ws/SKILL.md", text("a\n   \t\nb")),
    ("skill/long_250_limit_1000", "/skills/long/SKILL.md", None, 1000, "skills/long/SKILL.md", text(long_skill(250))),
    ("skill/long_250_default", "/skills/long/SKILL.md", None, None, "skills/long/SKILL.md", text(long_skill(250))),
    ("skill/long_250_page_2", "/skills/long/SKILL.md", 100, 100, "skills/long/SKILL.md", text(long_skill(250))),
    ("skill/long_250_page_3", "/skills/long/SKILL.md", 200, 100, "skills/long/SKILL.md", text(long_skill(250))),
    ("skill/long_1200_limit_1000", "/skills/long1200/SKILL.md", None, 1000, "skills/long1200/SKILL.md", text(long_skill(1200))),
    # Empty and whitespace-only files.
    ("empty/empty", "/skills/empty/SKILL.md", None, 1000, "skills/empty/SKILL.md", text("")),
    ("empty/empty_offset_5", "/skills/empty/SKILL.md", 5, 1000, "skills/empty/SKILL.md", text("")),
    ("empty/empty_negative_offset", "/skills/empty/SKILL.md", -2, 1000, "skills/empty/SKILL.md", text("")),
    ("empty/empty_limit_0", "/skills/empty/SKILL.md", 0, 0, "skills/empty/SKILL.md", text("")),
    ("empty/whitespace_only", "/skills/ws-only/SKILL.md", None, 1000, "skills/ws-only/SKILL.md", text("  \n\n\t\r\n")),
    ("empty/newline_only", "/skills/nl-only/SKILL.md", None, None, "skills/nl-only/SKILL.md", text("\n")),
    ("empty/unicode_space_only", "/skills/nbsp/SKILL.md", None, None, "skills/nbsp/SKILL.md", text("\u00a0\u3000\x1c\n")),
    ("empty/bom_only", "/skills/bom-only/SKILL.md", None, None, "skills/bom-only/SKILL.md", text("\ufeff")),
    # Long lines: MAX_LINE_LENGTH (5000) does not apply to read_file in 0.7.32.
    ("long_line/12000", "/skills/wide/SKILL.md", None, 1000, "skills/wide/SKILL.md", parts(("---\nname: wide\n---\n", 1), ("x", 12000), ("\nend\n", 1))),
    # The 20,000-token (80,000-char) budget.
    ("budget/many_lines", "/skills/big/SKILL.md", None, 1000, "skills/big/SKILL.md", parts(("Line of ninety-nine characters, padded to make the arithmetic easy to follow ......................\n", 1000))),
    ("budget/many_lines_negative_offset", "/skills/big/SKILL.md", -7, 1000, "skills/big/SKILL.md", parts(("Line of ninety-nine characters, padded to make the arithmetic easy to follow ......................\n", 1000))),
    ("budget/multibyte", "/skills/wide-chars/SKILL.md", None, 1000, "skills/wide-chars/SKILL.md", parts(("é" * 60 + "🗒️" * 30 + "\n", 1600))),
    ("budget/one_huge_line", "/skills/huge/SKILL.md", None, 1000, "skills/huge/SKILL.md", parts(("q", 90000), ("\nafter\n", 1))),
    ("budget/huge_second_line", "/skills/huge2/SKILL.md", None, 1000, "skills/huge2/SKILL.md", parts(("first line\n", 1), ("w", 85000), ("\n", 1))),
    ("budget/huge_line_negative_offset", "/skills/huge/SKILL.md", -1, 1000, "skills/huge/SKILL.md", parts(("q", 90000), ("\nafter\n", 1))),
    ("budget/exact_threshold", "/skills/exact/SKILL.md", None, 1000, "skills/exact/SKILL.md", parts(("e" * 79979, 1))),
    ("budget/one_below_threshold", "/skills/below/SKILL.md", None, 1000, "skills/below/SKILL.md", parts(("e" * 79978, 1))),
    # Not UTF-8.
    ("bytes/invalid_start_first", "/skills/latin1/SKILL.md", None, 1000, "skills/latin1/SKILL.md", raw(b"\xff---\nname: x\n")),
    ("bytes/latin1_mid", "/skills/latin1b/SKILL.md", None, 1000, "skills/latin1b/SKILL.md", raw(b"---\nname: caf\xe9\ndescription: x\n---\n")),
    ("bytes/invalid_continuation_1", "/skills/b1/SKILL.md", None, 1000, "skills/b1/SKILL.md", raw(b"ab\xe2(cd\n")),
    ("bytes/invalid_continuation_2", "/skills/b2/SKILL.md", None, 1000, "skills/b2/SKILL.md", raw(b"ab\xe2\x82(cd\n")),
    ("bytes/invalid_continuation_3", "/skills/b3/SKILL.md", None, 1000, "skills/b3/SKILL.md", raw(b"ab\xf0\x9f\x98(cd\n")),
    ("bytes/truncated_at_end_1", "/skills/b4/SKILL.md", None, 1000, "skills/b4/SKILL.md", raw(b"abc\xf0")),
    ("bytes/truncated_at_end_3", "/skills/b5/SKILL.md", None, 1000, "skills/b5/SKILL.md", raw(b"abc\xf0\x9f\x98")),
    ("bytes/surrogate", "/skills/b6/SKILL.md", None, 1000, "skills/b6/SKILL.md", raw(b"x\xed\xa0\x80y")),
    ("bytes/overlong", "/skills/b7/SKILL.md", None, 1000, "skills/b7/SKILL.md", raw(b"x\xc0\xafy")),
    ("bytes/above_max", "/skills/b8/SKILL.md", None, 1000, "skills/b8/SKILL.md", raw(b"x\xf4\x90\x80\x80y")),
    ("bytes/e0_overlong", "/skills/b9/SKILL.md", None, 1000, "skills/b9/SKILL.md", raw(b"x\xe0\x80\x80")),
    ("bytes/lone_continuation", "/skills/b10/SKILL.md", None, 1000, "skills/b10/SKILL.md", raw(b"x\x80")),
    ("bytes/late_error", "/skills/b11/SKILL.md", None, 1000, "skills/b11/SKILL.md", raw(("é" * 9000).encode() + b"\xfe\n")),
    ("bytes/nul", "/skills/nul/SKILL.md", None, 1000, "skills/nul/SKILL.md", raw(b"a\x00b\n")),
    # Paths.
    ("path/missing", "/skills/missing/SKILL.md", None, 1000, None, {"kind": "missing"}),
    ("path/directory", "/skills/pdf-forms", None, 1000, "skills/pdf-forms", {"kind": "directory"}),
    ("path/directory_trailing_slash", "/skills/pdf-forms/", None, 1000, "skills/pdf-forms", {"kind": "directory"}),
    ("path/relative", "skills/pdf-forms/SKILL.md", None, 1000, "skills/pdf-forms/SKILL.md", text(SKILL_PDF)),
    ("path/dots_and_slashes", "/skills/./pdf-forms//SKILL.md", None, 1000, "skills/pdf-forms/SKILL.md", text(SKILL_PDF)),
    ("path/double_leading_slash", "//skills/pdf-forms/SKILL.md", None, 1000, "skills/pdf-forms/SKILL.md", text(SKILL_PDF)),
    ("path/traversal", "/skills/../etc/passwd", None, 1000, None, {"kind": "missing"}),
    ("path/traversal_backslash", "/skills\\..\\x", None, 1000, None, {"kind": "missing"}),
    ("path/tilde", "~/skills/x/SKILL.md", None, 1000, None, {"kind": "missing"}),
    ("path/windows", "C:/skills/x/SKILL.md", None, 1000, None, {"kind": "missing"}),
    ("path/dotdot_in_name", "/skills/a..b/SKILL.md", None, 1000, None, {"kind": "missing"}),
    ("path/quote_in_name", "/skills/it's/SKILL.md", None, 1000, None, {"kind": "missing"}),
    ("path/hidden_png_name", "/skills/x/.png", None, 1000, "skills/x/.png", text("not an image\n")),
    # Media (multimodal content blocks, not text).
    ("media/png", "/skills/x/logo.png", None, 1000, "skills/x/logo.png", raw(b"\x89PNG\r\n\x1a\nfake")),
    ("media/pdf_upper", "/skills/x/Form.PDF", 5, 3, "skills/x/Form.PDF", raw(b"%PDF-1.4\n%fake\n")),
    ("media/empty_png", "/skills/x/empty.png", None, 1000, "skills/x/empty.png", raw(b"")),
    ("media/mkv", "/skills/x/clip.mkv", None, 1000, "skills/x/clip.mkv", raw(b"\x1aE\xdf\xa3")),
    ("media/video_at_limit", "/skills/x/ok.webm", None, 1000, "skills/x/ok.webm", raw(b"\x1aE")),
] + [
    (f"media/ext{ext}", f"/skills/x/a{ext}", None, None, f"skills/x/a{ext}", raw(b"ab"))
    for ext in (".jpeg", ".jpg", ".webp", ".gif", ".heic", ".heif", ".mp4", ".mpeg", ".mov", ".avi", ".flv", ".mpg",
                ".wmv", ".3gpp", ".wav", ".mp3", ".aiff", ".aac", ".ogg", ".flac", ".ppt", ".pptx")
]

PERMISSION_CASE = ("path/permission_denied", "/skills/locked/SKILL.md", None, 1000, "skills/locked/SKILL.md")
# A symlink to itself: Python 3.11's Path.resolve raises RuntimeError("Symlink loop from '<host path>'").
LOOP_CASE = ("path/symlink_loop", "/skills/loop/SKILL.md", None, 1000, "skills/loop/SKILL.md")


def run_calls(root: Path, calls: list[tuple[str, str, int | None, int | None]]) -> dict[str, tuple[object, str]]:
    """Run one agent turn issuing every call in parallel; return {call id: (content, status)}."""
    from deepagents.backends.filesystem import FilesystemBackend
    from deepagents.middleware.filesystem import FilesystemMiddleware
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    class Scripted(GenericFakeChatModel):
        def bind_tools(self, tools, **kwargs):  # noqa: ARG002 - the script ignores tools
            return self

    tool_calls = []
    for i, (_, file_path, offset, limit) in enumerate(calls):
        args: dict[str, object] = {"file_path": file_path}
        if offset is not None:
            args["offset"] = offset
        if limit is not None:
            args["limit"] = limit
        tool_calls.append({"id": f"call_{i}", "name": "read_file", "args": args})
    model = Scripted(messages=iter([AIMessage(content="", tool_calls=tool_calls), AIMessage(content="done")]))
    middleware = FilesystemMiddleware(backend=FilesystemBackend(root_dir=str(root)))
    agent = create_agent(model, middleware=[middleware])
    out = agent.invoke({"messages": [HumanMessage("read the skills")]})
    results = {}
    for message in out["messages"]:
        if isinstance(message, ToolMessage):
            i = int(message.tool_call_id.removeprefix("call_"))
            results[calls[i][0]] = (message.content, message.status)
    return results


def content_text(content: object) -> str:
    return content if isinstance(content, str) else json.dumps(content)


def child(root: str) -> None:
    """Permission case, run as an unprivileged user: print {id: [content, status]}."""
    cid, file_path, offset, limit, _ = PERMISSION_CASE
    results = run_calls(Path(root), [(cid, file_path, offset, limit)])
    print(json.dumps({k: [content_text(c), s] for k, (c, s) in results.items()}))


def tool_def() -> dict:
    from deepagents.backends.filesystem import FilesystemBackend
    from deepagents.middleware.filesystem import DEFAULT_READ_LIMIT, DEFAULT_READ_OFFSET, FilesystemMiddleware
    from langchain_core.utils.function_calling import convert_to_openai_tool

    middleware = FilesystemMiddleware(backend=FilesystemBackend(root_dir=tempfile.gettempdir()))
    tool = next(t for t in middleware.tools if t.name == "read_file")
    function = convert_to_openai_tool(tool)["function"]
    return {
        "tool": {"name": function["name"], "description": function["description"], "parameters": function["parameters"]},
        "defaults": {"offset": DEFAULT_READ_OFFSET, "limit": DEFAULT_READ_LIMIT},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child)
        return

    root = Path(tempfile.mkdtemp(prefix="da-read-")).resolve()
    try:
        os.chmod(root, 0o755)
        for _, _, _, _, rel, f in CASES:
            if rel is None:
                continue
            p = root / rel
            if f["kind"] == "directory":
                p.mkdir(parents=True, exist_ok=True)
                continue
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(file_bytes(f))
        # One agent run per call, so a call that makes the run raise is recorded on its own.
        results = {}
        for c in CASES:
            try:
                results.update(run_calls(root, [(c[0], c[1], c[2], c[3])]))
            except Exception as e:  # noqa: BLE001 - recorded as the case's outcome
                results[c[0]] = (f"{type(e).__name__}: {e}", "raises")

        cid, file_path, offset, limit, rel = LOOP_CASE
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        os.symlink("SKILL.md", root / rel)
        results.update(run_calls(root, [(cid, file_path, offset, limit)]))

        # Permission denied: the file exists, but the reader may not open it.
        cid, file_path, offset, limit, rel = PERMISSION_CASE
        locked = root / rel
        locked.parent.mkdir(parents=True, exist_ok=True)
        locked.write_text("---\nname: locked\n---\n")
        os.chmod(locked, 0)
        for d in root.rglob("*"):
            if d.is_dir():
                os.chmod(d, 0o755)
        if os.geteuid() == 0:
            drop = "-dac_override,-dac_read_search"
            proc = subprocess.run(
                ["setpriv", "--bounding-set", drop, "--inh-caps", drop, sys.executable, __file__, "--child", str(root)],
                capture_output=True, text=True, check=True,
            )
            content, status = json.loads(proc.stdout)[cid]
        else:
            (content, status) = run_calls(root, [(cid, file_path, offset, limit)])[cid]
            content = content_text(content)
        results[cid] = (content, status)
        os.chmod(locked, 0o644)

        cases = []
        for cid, file_path, offset, limit, _, f in CASES:
            content, status = results[cid]
            cases.append({"id": cid, "file_path": file_path, "offset": offset, "limit": limit, "file": f,
                          "content": content_text(content), "status": status})
        cid, file_path, offset, limit, rel = LOOP_CASE
        content, status = results[cid]
        cases.append({"id": cid, "file_path": file_path, "offset": offset, "limit": limit,
                      "file": {"kind": "os_error", "message": f"Symlink loop from {str(root / rel)!r}"},
                      "content": content, "status": status})
        cid, file_path, offset, limit, rel = PERMISSION_CASE
        content, status = results[cid]
        cases.append({"id": cid, "file_path": file_path, "offset": offset, "limit": limit,
                      "file": {"kind": "permission_denied", "host_path": str(root / rel)},
                      "content": content, "status": status})
    finally:
        shutil.rmtree(root, ignore_errors=True)

    doc = {
        "versions": {p: version(p) for p in ("deepagents", "langchain", "langchain-core", "langgraph")}
        | {"python": sys.version.split()[0]},
        **tool_def(),
        "cases": cases,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(cases)} cases to {args.out}")


if __name__ == "__main__":
    main()
