#!/usr/bin/env python3
"""Generate a synthetic Agent Skills library for benchmarks.

    bench/gen_library.py N OUT [--seed S] [--force]

Writes N skills into OUT (OUT/<name>/SKILL.md plus optional scripts/, references/ and assets/)
and OUT/MANIFEST.json with counts. The output depends only on N and the seed (and the
generator's version): the same arguments give byte-identical files.

About 3% of the skills carry one deliberate problem each, so a checker has work to do:

    colon          an unquoted `: ` in the description (not valid YAML)
    name-mismatch  `name` differs from the folder name
    unknown-key    an extra `version: 1.0` key
    missing-file   the body links a file under references/ that does not exist

Every other skill is meant to be clean under the agentskills.io specification. The problem
skills are listed in the manifest.

Python 3 standard library only. One skill is built in memory at a time, so memory stays
small whatever N is. The library is written to a temporary folder next to OUT and renamed
into place at the end, so OUT is either complete (with its manifest) or absent. An existing
OUT is replaced only with --force, and only if it is empty or holds a MANIFEST.json written
by this generator.

All text comes from the word lists and sentence templates below.
"""

import argparse
import json
import os
import random
import shutil
import sys
import time

GENERATOR = "skill-studio-bench-gen"
VERSION = 2

# --------------------------------------------------------------------------------------------
# Word lists. (base form, third person) for verbs; (slug, plural phrase) for nouns.

VERBS = [
    ("analyze", "Analyzes"), ("archive", "Archives"), ("audit", "Audits"), ("build", "Builds"),
    ("bundle", "Bundles"), ("classify", "Classifies"), ("clean", "Cleans"),
    ("compare", "Compares"), ("convert", "Converts"), ("deduplicate", "Deduplicates"),
    ("diff", "Diffs"), ("draft", "Drafts"), ("estimate", "Estimates"), ("extract", "Extracts"),
    ("format", "Formats"), ("generate", "Generates"), ("index", "Indexes"), ("lint", "Lints"),
    ("merge", "Merges"), ("migrate", "Migrates"), ("monitor", "Monitors"),
    ("normalize", "Normalizes"), ("parse", "Parses"), ("plan", "Plans"), ("profile", "Profiles"),
    ("refactor", "Refactors"), ("render", "Renders"), ("review", "Reviews"),
    ("sanitize", "Sanitizes"), ("schedule", "Schedules"), ("score", "Scores"),
    ("split", "Splits"), ("summarize", "Summarizes"), ("sync", "Syncs"), ("tag", "Tags"),
    ("test", "Tests"), ("translate", "Translates"), ("triage", "Triages"),
    ("validate", "Validates"), ("visualize", "Visualizes"),
]

NOUNS = [
    ("alert", "alerts"), ("api-spec", "API specifications"), ("backup", "backups"),
    ("benchmark", "benchmarks"), ("budget", "budgets"), ("calendar", "calendar events"),
    ("certificate", "TLS certificates"), ("changelog", "changelogs"),
    ("commit-message", "commit messages"), ("component", "UI components"),
    ("config", "configuration files"), ("contract", "contracts"), ("cron-job", "cron jobs"),
    ("csv-file", "CSV files"), ("dashboard", "dashboards"), ("dataset", "datasets"),
    ("dependency", "dependencies"), ("diagram", "diagrams"), ("dockerfile", "Dockerfiles"),
    ("docstring", "docstrings"), ("email", "emails"), ("endpoint", "HTTP endpoints"),
    ("font", "font files"), ("helm-chart", "Helm charts"), ("icon", "icon sets"),
    ("image", "images"), ("incident", "incident reports"), ("invoice", "invoices"),
    ("license-header", "license headers"), ("log", "log files"),
    ("manifest", "Kubernetes manifests"), ("meeting-note", "meeting notes"),
    ("metric", "metrics"), ("migration", "database migrations"), ("notebook", "notebooks"),
    ("package", "packages"), ("pdf-form", "PDF forms"), ("pipeline", "CI pipelines"),
    ("prompt", "prompts"), ("readme", "READMEs"), ("receipt", "receipts"),
    ("release-note", "release notes"), ("schema", "database schemas"),
    ("screenshot", "screenshots"), ("secret", "secrets"), ("slide-deck", "slide decks"),
    ("spreadsheet", "spreadsheets"), ("sql-query", "SQL queries"),
    ("stylesheet", "stylesheets"), ("subtitle", "subtitle files"),
    ("survey", "survey responses"), ("terraform-module", "Terraform modules"),
    ("test-suite", "test suites"), ("ticket", "support tickets"), ("timesheet", "timesheets"),
    ("trace", "traces"), ("transcript", "transcripts"), ("translation", "translation files"),
    ("type-hint", "type hints"), ("webhook", "webhooks"), ("workflow", "workflows"),
]

DOMAINS = [
    ("android", "Android"), ("aws", "AWS"), ("excel", "Excel"), ("figma", "Figma"),
    ("finance", "finance"), ("gcp", "GCP"), ("github", "GitHub"), ("gitlab", "GitLab"),
    ("go", "Go"), ("graphql", "GraphQL"), ("hr", "HR"), ("ios", "iOS"), ("jira", "Jira"),
    ("kafka", "Kafka"), ("k8s", "Kubernetes"), ("latex", "LaTeX"), ("legal", "legal"),
    ("markdown", "Markdown"), ("notion", "Notion"), ("openapi", "OpenAPI"),
    ("postgres", "PostgreSQL"), ("python", "Python"), ("redis", "Redis"), ("rust", "Rust"),
    ("s3", "S3"), ("sales", "sales"), ("slack", "Slack"), ("sqlite", "SQLite"),
    ("stripe", "Stripe"), ("web", "web"),
]

PURPOSES = [
    "into a consistent layout",
    "and writes a short summary of what changed",
    "with a checklist of the mistakes reviewers catch most often",
    "so they can be compared side by side",
    "and flags entries that look inconsistent",
    "following the team's house style",
    "into plain Markdown that renders anywhere",
    "and records every decision in a log",
    "without touching files outside the working folder",
    "and proposes fixes the user can accept one at a time",
    "using a small script instead of ad hoc shell commands",
    "and reports totals, outliers and missing values",
    "while keeping the original files untouched",
    "in batches small enough to review",
    "and produces a ready-to-share report",
]

TRIGGERS = [
    "the user asks to {verb} {nouns}",
    "the user mentions {nouns} from {domain}",
    "a pull request touches {nouns}",
    "someone pastes {nouns} into the chat",
    "a task involves cleaning up old {nouns}",
    "the user wants a quick overview of {nouns}",
    "{nouns} need to be checked before a release",
    "the user asks why {nouns} look wrong",
    "a teammate shares a folder of {nouns}",
    "the conversation turns to {domain} {nouns}",
    "a deadline requires {nouns} to be ready today",
    "the user asks for a second opinion on {nouns}",
]

LICENSES = [
    "MIT", "Apache-2.0", "BSD-3-Clause", "MPL-2.0", "ISC",
    "Proprietary. LICENSE.txt has complete terms",
    "Complete terms in LICENSE.txt",
]

COMPATIBILITY = [
    "Requires Python 3.10 or later",
    "Requires git and a POSIX shell",
    "Needs network access to fetch remote files",
    "Designed for Claude Code; works in any agent that runs Python scripts",
    "Requires Node.js 20 or later and npm",
    "Requires jq and curl on the PATH",
    "Works offline; needs Python 3.9+ with the standard library only",
    "Requires Docker for the optional container checks",
]

TOOLS = ["Bash", "Read", "Write", "Edit", "Grep", "Glob", "WebFetch", "Bash(git:*)",
         "Bash(python3:*)", "Bash(jq:*)"]

TEAMS = ["platform", "data-eng", "docs", "finance-ops", "growth", "infra", "mobile",
         "security", "support", "web-core"]

CATEGORIES = ["development", "documents", "data", "operations", "productivity", "quality",
              "security", "writing"]

ADJECTIVES = ["stale", "duplicated", "malformed", "oversized", "unlabelled", "inconsistent",
              "outdated", "partial", "unsorted", "ambiguous"]

FIELDS = ["id", "title", "owner", "status", "created", "updated", "amount", "currency",
          "region", "priority", "source", "version", "path", "count", "notes", "tags"]

SENTENCES = [
    "Read the input once before changing anything, and note which {nouns} look {adj}.",
    "Keep the original {nouns} untouched and write results to a new folder.",
    "Prefer the script over hand-written commands: it handles the edge cases listed below.",
    "Ask the user before deleting or renaming any {noun} that is not clearly {adj}.",
    "When the input is large, process it in batches of {num} and report progress.",
    "If {a_noun} cannot be parsed, skip it, record the reason and continue.",
    "Summarize the result in a short table the user can scan in a few seconds.",
    "Check the output against the examples below before reporting success.",
    "Most problems with {nouns} come from {adj} fields; look there first.",
    "Do not guess missing values; mark them clearly so a person can fill them in.",
    "The {domain} conventions differ slightly, so confirm which ones the user follows.",
    "Quote file paths in every command, since {nouns} often have spaces in their names.",
    "Stop and ask when more than {num} {nouns} would change at once.",
    "Record every command you ran so the user can repeat the work later.",
    "Treat warnings from the script as advice and errors as blockers.",
    "Leave a short note at the top of each changed {noun} explaining the change.",
    "Use the same field order as the source so diffs stay small.",
    "Dates are written as YYYY-MM-DD and amounts keep two decimals.",
    "Sort the output by {field} so repeated runs give the same result.",
    "{A_noun} with no {field} is usually {adj}; list those separately.",
]

BULLETS = [
    "{nouns} that are {adj} or missing a {field}",
    "a folder of {nouns} exported from {domain}",
    "a single {noun} pasted into the conversation",
    "requests to {verb} {nouns} before a release",
    "questions about why {a_noun} was rejected",
    "reports that compare this week's {nouns} with last week's",
    "the `{field}` column is empty for more than a few rows",
    "the same {noun} appears twice with different `{field}` values",
    "the user wants a dry run first",
    "the output must follow the {domain} naming rules",
    "exit code 0 means every {noun} passed; 1 means some need attention",
    "the script never writes outside the output folder",
]

STEP_TEXT = [
    "Collect the {nouns} the user mentioned and list their paths.",
    "Confirm the output folder with the user; default to `./out`.",
    "Check that every {noun} has a value for `{field}` before going further.",
    "Sort the results by `{field}` and drop exact duplicates.",
    "Compare the new {nouns} with the previous run and note the differences.",
    "Show the user the summary table and ask which items to fix.",
    "Apply the accepted fixes, one {noun} at a time.",
    "Re-run the checks and confirm nothing new broke.",
    "Write a short report listing what changed and what was skipped.",
    "Archive the inputs with today's date in the folder name.",
]

LANG_EXT = {"python": "py", "bash": "sh"}

SCRIPT_NAMES = ["extract", "validate", "report", "convert", "normalize", "summarize", "check",
                "render", "fetch", "split", "merge", "score"]
REFERENCE_NAMES = ["guide", "api", "troubleshooting", "glossary", "schema", "examples",
                   "conventions", "faq", "checklist", "style"]
ASSET_FILES = [("template", "md"), ("example", "json"), ("sample", "csv"), ("config", "yaml"),
               ("report-template", "html"), ("style", "css")]

PROBLEMS = ["colon", "name-mismatch", "unknown-key", "missing-file"]


# --------------------------------------------------------------------------------------------
# Helpers


class Ctx:
    """What one skill's text is about."""

    def __init__(self, rng, verb, noun, domain):
        self.rng = rng
        self.verb, self.verb3 = verb
        self.noun_slug, self.nouns = noun
        self.noun = self.nouns[:-1] if self.nouns.endswith("s") else self.nouns
        if self.nouns.endswith("ies"):
            self.noun = self.nouns[:-3] + "y"
        self.domain = domain[1] if domain else rng.choice(DOMAINS)[1]

    def fill(self, template):
        r = self.rng
        a_noun = ("an " if self.noun[0] in "aeiouAEIOU" else "a ") + self.noun
        return template.format(
            verb=self.verb, nouns=self.nouns, noun=self.noun, domain=self.domain,
            a_noun=a_noun, A_noun=a_noun[0].upper() + a_noun[1:],
            adj=r.choice(ADJECTIVES), field=r.choice(FIELDS), num=r.choice([10, 20, 25, 50, 100]),
        )


def cap(text):
    return text[:1].upper() + text[1:]


def title_of(name):
    return " ".join(w.capitalize() for w in name.split("-"))


def make_description(ctx, rng):
    """`Does X. Use when Y.` between 80 and 400 characters."""
    for _ in range(50):
        does = f"{ctx.verb3} {ctx.nouns}"
        if rng.random() < 0.5:
            does += f" from {ctx.domain}"
        does += " " + rng.choice(PURPOSES)
        k = rng.choice([1, 1, 2, 2, 3, 4])
        triggers = [ctx.fill(t) for t in rng.sample(TRIGGERS, k)]
        if k == 1:
            when = triggers[0]
        else:
            when = ", ".join(triggers[:-1]) + " or " + triggers[-1]
        desc = f"{does}. Use when {when}."
        if 80 <= len(desc) <= 400:
            return desc
    return desc[:396].rstrip() + "."


def paragraph(ctx, rng, n):
    return " ".join(ctx.fill(s) for s in rng.sample(SENTENCES, n))


def wrap(text, width=100):
    out, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        out.append(line)
    return out


def table(ctx, rng):
    kind = rng.randrange(3)
    if kind == 0:
        heading = "Options"
        lines = ["| Option | Default | Meaning |", "|---|---|---|"]
        for f in rng.sample(FIELDS, rng.randint(3, 7)):
            default = rng.choice(["`none`", "`auto`", "`10`", "`false`", "`./out`", "`utf-8`"])
            lines.append(f"| `--{f}` | {default} | {ctx.fill('Filters {nouns} by ' + f)} |")
    elif kind == 1:
        heading = "Fields"
        lines = ["| Field | Required | Example |", "|---|---|---|"]
        for f in rng.sample(FIELDS, rng.randint(3, 8)):
            lines.append(f"| `{f}` | {rng.choice(['yes', 'no'])} | `{f}-{rng.randint(1, 999)}` |")
    else:
        heading = "Common problems"
        lines = ["| Symptom | Likely cause | Fix |", "|---|---|---|"]
        for _ in range(rng.randint(2, 6)):
            adj = rng.choice(ADJECTIVES)
            f = rng.choice(FIELDS)
            lines.append(f"| {cap(ctx.noun)} is {adj} | `{f}` not set | "
                         f"Set `{f}` and re-run |")
    return heading, lines


def code_block(ctx, rng, scripts):
    kind = rng.randrange(4)
    if kind == 0 and scripts:
        s = rng.choice(scripts)
        runner = "python3" if s.endswith(".py") else "bash"
        lines = ["```bash", f"{runner} {s} --input ./in --output ./out"]
        if rng.random() < 0.5:
            lines.append(f"{runner} {s} --dry-run --limit {rng.choice([10, 50, 100])} ./in")
        lines.append("```")
    elif kind == 1:
        fs = rng.sample(FIELDS, 3)
        lines = ["```json", "{"]
        lines += [f'  "{f}": "{f}-{rng.randint(1, 99)}",' for f in fs[:-1]]
        lines += [f'  "{fs[-1]}": {rng.randint(1, 500)}', "}", "```"]
    elif kind == 2:
        fs = rng.sample(FIELDS, 3)
        lines = ["```python", f"def keep(row):",
                 f"    return row.get(\"{fs[0]}\") and not row.get(\"{fs[1]}\", \"\").startswith(\"tmp\")",
                 "", f"rows = [r for r in rows if keep(r)]",
                 f"rows.sort(key=lambda r: r[\"{fs[2]}\"])", "```"]
    else:
        f = rng.choice(FIELDS)
        lines = ["```yaml", f"{ctx.noun_slug.replace('-', '_')}:", f"  sort_by: {f}",
                 f"  batch_size: {rng.choice([10, 20, 50])}", f"  dry_run: true", "```"]
    return lines


# --------------------------------------------------------------------------------------------
# Resource files


def script_text(ctx, rng, fname):
    if fname.endswith(".sh"):
        lines = ["#!/usr/bin/env bash", f"# {cap(ctx.fill('{verb} {nouns}'))} in a folder.",
                 "set -euo pipefail", "", 'in="${1:?usage: $0 INPUT_DIR [OUTPUT_DIR]}"',
                 'out="${2:-./out}"', 'mkdir -p "$out"', "count=0"]
        lines += ['for f in "$in"/*; do', '  [ -f "$f" ] || continue']
        for _ in range(rng.randint(1, 6)):
            f = rng.choice(FIELDS)
            lines.append(f'  grep -q "{f}" "$f" || echo "missing {f}: $f" >&2')
        lines += ['  cp "$f" "$out/"', "  count=$((count + 1))", "done",
                  'echo "processed $count file(s) into $out"']
        return lines
    fs = rng.sample(FIELDS, rng.randint(2, 5))
    lines = ["#!/usr/bin/env python3",
             f'"""{cap(ctx.fill("{verb} {nouns}"))}: reads CSV rows, writes JSON."""',
             "", "import argparse", "import csv", "import json", "import sys", "",
             f"REQUIRED = {json.dumps(fs)}", "", "", "def check(row):",
             "    return [f for f in REQUIRED if not row.get(f)]", "", "",
             "def main():", "    p = argparse.ArgumentParser(description=__doc__)",
             '    p.add_argument("input")', '    p.add_argument("--output", default="-")',
             '    p.add_argument("--dry-run", action="store_true")',
             '    p.add_argument("--limit", type=int, default=0)', "    args = p.parse_args()",
             "    rows, problems = [], 0", "    with open(args.input, newline=\"\") as fh:",
             "        for i, row in enumerate(csv.DictReader(fh)):",
             "            if args.limit and i >= args.limit:", "                break",
             "            missing = check(row)", "            if missing:",
             "                problems += 1",
             '                print(f"row {i + 1}: missing {missing}", file=sys.stderr)',
             "            rows.append(row)"]
    for _ in range(rng.randint(0, 8)):
        f = rng.choice(fs)
        lines.append(f'    rows.sort(key=lambda r: r.get("{f}", ""))')
    lines += ["    if not args.dry_run:",
              '        out = sys.stdout if args.output == "-" else open(args.output, "w")',
              "        json.dump(rows, out, indent=2)", "    return 1 if problems else 0", "",
              "", 'if __name__ == "__main__":', "    sys.exit(main())"]
    return lines


def reference_text(ctx, rng, name):
    target = rng.randint(20, 200)
    lines = [f"# {cap(name)}: {ctx.nouns}", ""]
    lines += wrap(paragraph(ctx, rng, rng.randint(2, 4)))
    section = 0
    while len(lines) < target:
        section += 1
        lines += ["", f"## {section}. {cap(ctx.fill(rng.choice(['{adj} {nouns}', 'The `{field}` field', 'Working with {domain}', 'Edge cases', 'Limits'])))}", ""]
        k = rng.randrange(3)
        if k == 0:
            lines += wrap(paragraph(ctx, rng, rng.randint(2, 5)))
        elif k == 1:
            lines += ["- " + ctx.fill(b) for b in rng.sample(BULLETS, rng.randint(2, 6))]
        else:
            lines += table(ctx, rng)[1]
    return lines[:max(target, 20)]


def asset_text(ctx, rng, base, ext):
    fs = rng.sample(FIELDS, rng.randint(3, 6))
    if ext == "json":
        return json.dumps({f: f"<{f}>" for f in fs}, indent=2).split("\n")
    if ext == "csv":
        rows = [",".join(fs)]
        for i in range(rng.randint(3, 20)):
            rows.append(",".join(f"{f}-{i + 1}" for f in fs))
        return rows
    if ext == "yaml":
        return [f"{f}: {f}-default" for f in fs]
    if ext == "html":
        return ["<!doctype html>", "<html>", "<head><meta charset=\"utf-8\">",
                f"<title>{cap(ctx.nouns)} report</title></head>", "<body>",
                f"<h1>{cap(ctx.nouns)}</h1>", "<table>"] + \
               [f"  <tr><th>{f}</th><td>{{{{ {f} }}}}</td></tr>" for f in fs] + \
               ["</table>", "</body>", "</html>"]
    if ext == "css":
        return ["body { font-family: sans-serif; margin: 2rem; }",
                "table { border-collapse: collapse; }",
                "th, td { border: 1px solid #ccc; padding: 4px 8px; }"]
    lines = [f"# {cap(ctx.noun)}: {{{{ title }}}}", ""]
    for f in fs:
        lines += [f"## {cap(f)}", "", f"{{{{ {f} }}}}", ""]
    return lines


# --------------------------------------------------------------------------------------------
# One skill


def make_skill(rng, name, parts, problem, taken):
    """Returns (files, line counts) where files is a list of (relative path, text)."""
    verb, noun, domain = parts
    ctx = Ctx(rng, verb, noun, domain)

    scripts, references, assets = [], [], []
    if rng.random() < 0.60:
        for base in rng.sample(SCRIPT_NAMES, rng.randint(1, 3)):
            ext = "py" if rng.random() < 0.7 else "sh"
            scripts.append(f"scripts/{base}.{ext}")
    if rng.random() < 0.50:
        for base in rng.sample(REFERENCE_NAMES, rng.randint(1, 3)):
            references.append(f"references/{base}.md")
    if rng.random() < 0.30:
        for base, ext in rng.sample(ASSET_FILES, rng.randint(1, 2)):
            assets.append(f"assets/{base}.{ext}")

    # Frontmatter
    fm_name = name
    if problem == "name-mismatch":
        # A name no folder has and no other skill uses, so only SK205 fires.
        while fm_name in taken:
            fm_name = name.split("-")[0] + "-" + rng.choice([n for n, _ in NOUNS if n not in name])
            if fm_name in taken:
                fm_name += "-" + rng.choice(["old", "v2", "legacy", "draft", "new"])
        taken.add(fm_name)
    desc = make_description(ctx, rng)
    if problem == "colon":
        desc = desc.replace(". Use when ", ". Use when: ", 1)
    fm = ["---", f"name: {fm_name}"]
    if problem != "colon" and rng.random() < 0.12:
        fm.append(f'description: "{desc}"')
    else:
        fm.append(f"description: {desc}")
    if rng.random() < 0.45:
        fm.append(f"license: {rng.choice(LICENSES)}")
    if rng.random() < 0.25:
        fm.append(f"compatibility: {rng.choice(COMPATIBILITY)}")
    if rng.random() < 0.35:
        fm.append("metadata:")
        fm.append(f'  author: "{rng.choice(TEAMS)}"')
        fm.append(f'  version: "{rng.randint(0, 3)}.{rng.randint(0, 12)}.{rng.randint(0, 9)}"')
        if rng.random() < 0.5:
            fm.append(f'  category: "{rng.choice(CATEGORIES)}"')
    if rng.random() < 0.30:
        fm.append(f"allowed-tools: {' '.join(rng.sample(TOOLS, rng.randint(1, 4)))}")
    if problem == "unknown-key":
        fm.append("version: 1.0")
    fm.append("---")

    # Body: required sections, then optional ones until the target length.
    target = int(rng.triangular(30, 300, 90))
    body = [f"# {title_of(name)}", ""]
    body += wrap(paragraph(ctx, rng, rng.randint(1, 3)))
    body += ["", "## When to use", ""]
    body += ["- " + ctx.fill(b) for b in rng.sample(BULLETS, rng.randint(2, 4))]
    body += ["", "## Steps", ""]
    steps = [ctx.fill(s) for s in rng.sample(STEP_TEXT, rng.randint(3, 6))]
    for s in scripts:
        runner = "python3" if s.endswith(".py") else "bash"
        steps.insert(rng.randint(1, len(steps)), f"Run `{runner} {s} INPUT` and read its summary.")
    body += [f"{i}. {s}" for i, s in enumerate(steps, 1)]
    links = list(references)
    if problem == "missing-file":
        links.append("references/" + rng.choice(["advanced", "migration-notes", "limits"]) + ".md")
    if links or assets:
        body += ["", "## Resources", ""]
        for r in links:
            label = r.split("/")[1][:-3].replace("-", " ")
            body.append(f"- [{label}]({r}): " + ctx.fill(rng.choice(
                ["details on {adj} {nouns}", "the full list of fields", "worked examples",
                 "what to do when the script fails", "the {domain} conventions"])))
        for a in assets:
            body.append(f"- `{a}`: " + rng.choice(
                ["the starting point for new output", "an example input",
                 "the layout the report must follow", "default settings"]))

    optional = ["example", "table", "notes", "checklist", "troubleshoot", "code"]
    while len(body) < target:
        kind = rng.choice(optional)
        if kind == "example":
            sec = ["", "## Example", ""] + wrap(paragraph(ctx, rng, rng.randint(1, 2))) + [""] + \
                code_block(ctx, rng, scripts)
        elif kind == "table":
            heading, rows = table(ctx, rng)
            sec = ["", "## " + heading, ""] + rows
        elif kind == "notes":
            sec = ["", "## " + ctx.fill(rng.choice(["Notes on {nouns}", "Working with {domain}", "Edge cases"])), ""]
            sec += wrap(paragraph(ctx, rng, rng.randint(2, 5)))
        elif kind == "checklist":
            sec = ["", "## Checklist", ""] + ["- [ ] " + ctx.fill(s).rstrip(".") for s in
                                              rng.sample(STEP_TEXT, rng.randint(3, 7))]
        elif kind == "troubleshoot":
            sec = ["", "## Troubleshooting", ""]
            for _ in range(rng.randint(2, 4)):
                sec += wrap(f"**{ctx.fill('The `{field}` of {a_noun} is {adj}')}.** " +
                            ctx.fill(rng.choice(SENTENCES))) + [""]
            sec.pop()
        else:
            sec = [""] + code_block(ctx, rng, scripts)
        if len(body) + len(sec) > 300:
            break
        body += sec

    skill_md = "\n".join(fm + [""] + body) + "\n"
    files = [("SKILL.md", skill_md)]
    for s in scripts:
        files.append((s, "\n".join(script_text(ctx, rng, s)) + "\n"))
    for r in references:
        files.append((r, "\n".join(reference_text(ctx, rng, r.split("/")[1][:-3])) + "\n"))
    for a in assets:
        base, ext = a.split("/")[1].rsplit(".", 1)
        files.append((a, "\n".join(asset_text(ctx, rng, base, ext)) + "\n"))
    return files, len(body), {"scripts": len(scripts), "references": len(references),
                              "assets": len(assets)}


def pick_names(rng, n):
    """n distinct kebab-case names with the parts they were built from."""
    seen = set()
    out = []
    for i in range(n):
        for attempt in range(30):
            verb, noun = rng.choice(VERBS), rng.choice(NOUNS)
            r = rng.random()
            if r < 0.35:
                domain, name = None, f"{verb[0]}-{noun[0]}"
            elif r < 0.7:
                domain = rng.choice(DOMAINS)
                name = f"{domain[0]}-{noun[0]}-{verb[0]}" if rng.random() < 0.3 else \
                    f"{verb[0]}-{domain[0]}-{noun[0]}"
            else:
                domain = rng.choice(DOMAINS)
                name = f"{verb[0]}-{noun[0]}-for-{domain[0]}"
            if name not in seen:
                break
        else:
            name = f"{name}-{i}"
        seen.add(name)
        out.append((name, (verb, noun, domain)))
    return out


def is_generated(out):
    try:
        with open(os.path.join(out, "MANIFEST.json")) as fh:
            return json.load(fh).get("generator") == GENERATOR
    except (OSError, ValueError):
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("n", type=int, metavar="N", help="number of skills")
    ap.add_argument("out", metavar="OUT", help="output folder (created)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--force", action="store_true",
                    help="replace OUT if it is empty or a library written by this script")
    args = ap.parse_args()
    if args.n < 1:
        ap.error("N must be at least 1")

    out = os.path.normpath(args.out)
    if os.path.exists(out):
        if not os.path.isdir(out):
            ap.error(f"{out} exists and is not a folder")
        if os.listdir(out) and not (args.force and is_generated(out)):
            ap.error(f"{out} is not empty (use --force to replace a library written by this script)")
    tmp = f"{out}.tmp-{os.getpid()}"
    os.makedirs(tmp)

    start = time.monotonic()
    rng = random.Random(args.seed)
    counts = {"skills": 0, "files": 0, "skill_md": 0, "scripts": 0, "references": 0,
              "assets": 0, "bytes": 0, "skill_md_bytes": 0, "body_lines": 0,
              "skills_with_scripts": 0, "skills_with_references": 0, "skills_with_assets": 0}
    problems = {p: [] for p in PROBLEMS}
    try:
        names = pick_names(rng, args.n)
        taken = {name for name, _ in names}
        for name, parts in names:
            problem = rng.choice(PROBLEMS) if rng.random() < 0.03 else None
            files, body_lines, res = make_skill(rng, name, parts, problem, taken)
            if problem:
                problems[problem].append(name)
            made = set()
            for rel, text in files:
                path = os.path.join(tmp, name, rel)
                d = os.path.dirname(path)
                if d not in made:
                    os.makedirs(d, exist_ok=True)
                    made.add(d)
                data = text.encode("utf-8")
                with open(path, "wb") as fh:
                    fh.write(data)
                if rel.startswith("scripts/"):
                    os.chmod(path, 0o755)
                counts["files"] += 1
                counts["bytes"] += len(data)
                if rel == "SKILL.md":
                    counts["skill_md"] += 1
                    counts["skill_md_bytes"] += len(data)
            counts["skills"] += 1
            counts["body_lines"] += body_lines
            for k, v in res.items():
                counts[k] += v
                counts[f"skills_with_{k}"] += v > 0

        manifest = {
            "generator": GENERATOR,
            "generator_version": VERSION,
            "n": args.n,
            "seed": args.seed,
            "counts": counts,
            "problems": {p: len(v) for p, v in problems.items()},
            "problem_skills": problems,
        }
        with open(os.path.join(tmp, "MANIFEST.json"), "w") as fh:
            json.dump(manifest, fh, indent=2, sort_keys=True)
            fh.write("\n")
        if os.path.exists(out):
            shutil.rmtree(out)
        os.rename(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise

    secs = time.monotonic() - start
    print(f"wrote {counts['skills']} skills, {counts['files']} files, "
          f"{counts['bytes'] / 1e6:.1f} MB to {out} in {secs:.1f} s "
          f"({sum(len(v) for v in problems.values())} with deliberate problems)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
