#!/usr/bin/env bash
# Capture the real agents' verdicts on the published skill libraries in ../shared/corpus and hold
# `skillkit prompt/check --agent X` against them (issue #12, item 2): for every SKILL.md, does agent X
# list it, skip it (with the line X prints) or misread it (list it with another name/description than
# its frontmatter states)?
#
#   tests/oracles/capture_verdicts.sh [OUT]       OUT defaults to /tmp/skillkit-verdicts (wiped)
#
# 1. Install the real programs (pinned: deepagents 0.7.32, skills-ref 0.1.1, @anthropic-ai/claude-code
#    2.1.332, @openai/codex 0.171.0, @google/gemini-cli 0.61.0) and export the env lines it prints:
#        CLAUDE_CODE_VERSION=2.1.332 CODEX_VERSION=0.171.0 bash /work/shared/oracles/install_oracles.sh /tmp/oracles
#    (only the selected AGENTS' programs are required; PY must have PyYAML)
#    Qwen Code 0.24.4: QWEN_BIN (tests/oracles/capture_qwen_code.sh says how to install it).
#    (If PY/AGENTSKILLS_BIN/CLAUDE_BIN/CODEX_BIN/GEMINI_BIN are unset and /tmp/oracles holds the
#    install, they are set from it.) Build the CLI once: cargo build -p skillkit-cli --release
#    (SKILLKIT overrides; target/release/skillkit, else target/debug/skillkit, is used).
# 2. Run this script. It reads ../shared/corpus and ../shared/oracles (CORPUS, ORACLES override) and
#    exits 2 saying so when either, or an oracle program, is absent. Nothing leaves the machine: the
#    CLIs talk to the shared scripts' local mock API. About 6-7 minutes on 2 cores (measured 5 min 50 s;
#    skills-ref's 1,168 `validate` runs take ~2.5 min, Codex's 33 chunk runs ~2 min, each other CLI
#    listing run 2-10 s; on a busy machine, 2026-11-28: the five 17.7 min, copilot-cli 1.5 min,
#    opencode 4.5 min, ~30-45 s per `opencode run` + `opencode debug skill`). Optional env: LIBS (default: the five libraries), AGENTS (default: deepagents skills-ref
#    claude-code codex gemini-cli cline qwen-code letta-code; also kimi-cli, mistral-vibe, copilot-cli,
#    opencode; only the selected agents' programs are needed), SCRATCH (default /tmp/skillkit-verdict-work:
#    the CLIs' WORK folders),
#    ONLY_OURS=1 (keep OUT's captures and only re-run skillkit and the comparison: ~30 s, for a new build).
#
# Trees (OUT/trees, mapping in OUT/trees/mapping.tsv): every folder holding a SKILL.md is copied flat
# into OUT/trees/<lib>/pN/<folder name> (the folder keeps its own name, so no name/folder mismatch is
# introduced). Folders of skills nested inside another skill are left out of the parent's copy and get
# their own flat entry (flag nested-in= / pruned-nested= in mapping.tsv). Two skills with the same folder
# name never share a part: pN is the first part free of that name, in byte order of the library paths
# (alirezarezvani-claude-skills needs 4 parts: its .gemini/skills holds 301 one-line placeholder files
# standing for upstream symlinks, named like the real skills). OUT/trees/nested is one small tree that
# keeps real nesting (qdrant-scaling from github-awesome-copilot, skill-tester from alirezarezvani, and a
# synthetic outer/inner + outer/a/b/c/deep) to see which agents discover a SKILL.md inside a skill.
#
# Runs per tree (listing only; raw output in OUT/raw/<agent>/<lib>/<part>/):
#   deepagents   deepagents_prompt.py --mode json TREE (loaded metadata; skip lines from stderr)
#   skills-ref   agentskills validate FOLDER, per skill (valid = "listed")
#   claude-code  capture_claude_code.sh ONLY=listing, with --settings {"env":{"SLASH_COMMAND_TOOL_CHAR_BUDGET":
#                "100000000"}} so that no skill is dropped or cut by the listing budget; plus a run with
#                the default budget (OUT/claude-code-default-budget.tsv: full / name-only / absent)
#   codex        capture_codex.sh ONLY=listing (load errors = stderr `ERROR ... failed to load skill`)
#   cline        capture_cline.sh ONLY=listing (names only, in the `skills` tool's description; CLINE_BIN,
#                npm cline@3.0.65; Cline prints nothing for a skill it drops). Only the programs of the
#                AGENTS asked for must be installed (PY: any Python with PyYAML for AGENTS=cline).
#   letta-code   Letta Code 0.32.18's local backend (LETTA_BIN; see tests/oracles/capture_letta_code.sh for the
#                install), run here as the shared capture_letta_code.sh runs it (letta --backend local
#                --no-bundled-skills -p hello against mock_llm_server_ext.py in `unshare -n`), plus
#                LETTA_DEBUG=1: its debug log names every skill it sends as `ID (PATH)`, which maps the
#                listing's ids to folders; the listing is the `<available_skills>` block of the request
#   gemini-cli   capture_gemini.sh ONLY=listing KEEP_BUNDLED=1 (the default settings disable the built-ins
#                by *name*, which would also hide a library skill called skill-creator); built-in entries
#                (location outside the skills folder) are filtered out
#   qwen-code    capture_qwen_code.sh (QWEN_BIN, Qwen Code 0.24.4) with --debug and no activation: the
#                listing names no path, so each name is tied to its folder by the debug log's
#                `Successfully parsed skill: N (project) from PATH` lines; skips are its `Failed to parse
#                skill at DIR: REASON` lines. Only the agents named in AGENTS need their programs.
#   kimi-cli     capture_kimi_cli.sh (listing only; KIMI_BIN, pip install kimi-cli==1.50.0): the `Path:` of each
#                entry of the `# Skills` section; skips = kimi.log `Skipping invalid skill at PATH: REASON`
#                (the two built-in skills, outside the skills folder, are filtered out)
#   mistral-vibe capture_mistral_vibe.sh ONLY=listing (VIBE_BIN, mistral-vibe 3.0.3): the `<path>` of each
#                `<available-skills>` entry (the bundled `vibe:*` skills filtered out); skips = stderr
#                `PATH: Failed to load: REASON`
#   copilot-cli  capture_copilot_cli.sh ONLY=listing (COPILOT_BIN, npm @github/copilot@1.0.102; see
#                tests/oracles/capture_copilot_cli.sh): the `<skill>` entries of the listing in the system
#                message plus the names of its `Additional skills available (invoke by name):` line (the
#                15,000-character budget: listed, name only). <location> is only a scope word, so each name
#                is tied to the folder whose frontmatter name it is (spaces as `-`; the folder when there is
#                none); copies of one name are told apart by the description (the listing's, or for a name
#                in the Additional line `copilot skill list`'s). Skips: `copilot skill list`'s
#                `• .github/skills/DIR/SKILL.md: REASON` lines (Copilot prints nothing in -p mode)
#   opencode     capture_opencode.sh ONLY=listing (OPENCODE_BIN, npm opencode-ai@1.18.33, and RG_DIR: a
#                folder with `rg`; see tests/oracles/capture_opencode.sh): the `<location>` (absolute
#                SKILL.md path) of each `<available_skills>` entry, the built-in customize-opencode left
#                out; skills loaded without a description (`opencode debug skill`) are not listed; skip
#                lines from its log (`failed to load skill`, `duplicate skill name`). Two folders of one
#                name: OpenCode's winner is a race between its parallel parses; skillkit marks both
#                copies `chance` and the comparison takes them as a group (see OUT/summary.md)
#   (COPILOT_BIN, OPENCODE_BIN and RG_DIR default to an install in /tmp/oracles-verdicts/npm and
#   /tmp/oracles-bin when present.)
# Verdict files OUT/<agent>.tsv, one line per skill: <lib>/<path in library>\t<listed|skipped|misread>\t<message>
#   listed   the agent lists it, with the frontmatter's name and description (up to the agent's own
#            presentation: Claude's &lt;/&gt;, joined lines...; the message says which, and which default
#            the agent filled in when the frontmatter states no name/description)
#   misread  listed, but the name or description differs from what the frontmatter states (cut, truncated,
#            other value); the message says how
#   skipped  not listed; the message is the agent's own line (paths as {SKILLS}/<folder>), or what it did
#   dropped  loaded but left out by a listing budget that no setting lifts (Copilot: the names past
#            the cap of its `Additional skills available` line, which `copilot skill list` shows loaded)
# Ours: OUT/ours/<agent>.tsv (skillkit prompt --format json decision, check --format json valid + error
# codes, per skill) and OUT/compare/<agent>.tsv (every skill: real verdict, our prompt, our check, agree?);
# OUT/summary.md: counts per agent and library, and every disagreement.
set -uo pipefail

REPO=$(cd "$(dirname "$(realpath "$0")")/../.." && pwd)
CORPUS=$(realpath -m "${CORPUS:-$REPO/../shared/corpus}")
ORACLES=$(realpath -m "${ORACLES:-$REPO/../shared/oracles}")
OUT=$(realpath -m "${1:-/tmp/skillkit-verdicts}")
SCRATCH=${SCRATCH:-/tmp/skillkit-verdict-work}
LIBS=${LIBS:-github-awesome-copilot wshobson-agents alirezarezvani-claude-skills anthropics-skills obra-superpowers}
AGENTS=${AGENTS:-deepagents skills-ref claude-code codex gemini-cli cline qwen-code letta-code}
CODEX_CHUNK=${CODEX_CHUNK:-40}

if [ ! -d "$CORPUS" ]; then
  echo "capture_verdicts.sh: the skill corpus is absent: $CORPUS (set CORPUS to a folder of libraries)" >&2; exit 2
fi
for l in $LIBS; do [ -d "$CORPUS/$l" ] || { echo "capture_verdicts.sh: library $l is absent from $CORPUS" >&2; exit 2; }; done
for f in capture_claude_code.sh capture_codex.sh capture_gemini.sh capture_cline.sh deepagents_prompt.py mock_llm_server.py extract_request.py; do
  [ -f "$ORACLES/$f" ] || { echo "capture_verdicts.sh: the oracle scripts are absent: $ORACLES/$f (set ORACLES)" >&2; exit 2; }
done
if [ -z "${CLAUDE_BIN:-}" ] && [ -x /tmp/oracles/npm/node_modules/.bin/claude ]; then
  export PY=/tmp/oracles/venv-da/bin/python AGENTSKILLS_BIN=/tmp/oracles/venv-sr/bin/agentskills \
    CLAUDE_BIN=/tmp/oracles/npm/node_modules/.bin/claude CODEX_BIN=/tmp/oracles/npm/node_modules/.bin/codex \
    GEMINI_BIN=/tmp/oracles/npm/node_modules/.bin/gemini
fi
[ -z "${CLINE_BIN:-}" ] && [ -x /tmp/oracles-a/npm/node_modules/.bin/cline ] && export CLINE_BIN=/tmp/oracles-a/npm/node_modules/.bin/cline
[ -z "${COPILOT_BIN:-}" ] && [ -x /tmp/oracles-verdicts/npm/node_modules/.bin/copilot ] && export COPILOT_BIN=/tmp/oracles-verdicts/npm/node_modules/.bin/copilot
[ -z "${OPENCODE_BIN:-}" ] && [ -x /tmp/oracles-verdicts/npm/node_modules/opencode-linux-x64/bin/opencode ] && export OPENCODE_BIN=/tmp/oracles-verdicts/npm/node_modules/opencode-linux-x64/bin/opencode
[ -n "${RG_DIR:-}" ] || [ ! -x /tmp/oracles-bin/rg ] || export RG_DIR=/tmp/oracles-bin
[ -n "${LETTA_BIN:-}" ] || [ ! -x /tmp/oracles-letta/letta/letta-code/letta.js ] || export LETTA_BIN=/tmp/oracles-letta/letta/letta-code/letta.js
[ -n "${PY:-}" ] || ! python3 -c 'import yaml' 2>/dev/null || [[ " $AGENTS " == *" deepagents "* ]] || export PY=$(command -v python3)
need=(PY)  # the programs of the selected agents (PY reads the frontmatter with PyYAML)
for a in $AGENTS; do
  case "$a" in skills-ref) need+=(AGENTSKILLS_BIN) ;; claude-code) need+=(CLAUDE_BIN) ;; codex) need+=(CODEX_BIN) ;;
    gemini-cli) need+=(GEMINI_BIN) ;; cline) need+=(CLINE_BIN) ;; qwen-code) need+=(QWEN_BIN) ;;
    letta-code) need+=(LETTA_BIN) ;; kimi-cli) need+=(KIMI_BIN) ;; mistral-vibe) need+=(VIBE_BIN) ;;
    copilot-cli) need+=(COPILOT_BIN) ;; opencode) need+=(OPENCODE_BIN) ;; esac
done
[ "${ONLY_OURS:-0}" = 1 ] && need=(PY)  # only skillkit runs again
for v in "${need[@]}"; do
  if [ -z "${!v:-}" ] || [ ! -x "${!v}" ]; then
    echo "capture_verdicts.sh: oracle program $v is absent (${!v:-unset}); install them: bash $ORACLES/install_oracles.sh /tmp/oracles" >&2; exit 2
  fi
done
if [ -z "${SKILLKIT:-}" ]; then
  for s in "$REPO/target/release/skillkit" "$REPO/target/debug/skillkit"; do [ -x "$s" ] && { SKILLKIT=$s; break; }; done
fi
if [ -z "${SKILLKIT:-}" ] || [ ! -x "$SKILLKIT" ]; then
  echo "capture_verdicts.sh: no skillkit binary (cargo build -p skillkit-cli --release, or set SKILLKIT)" >&2; exit 2
fi
"$PY" -c 'import yaml' 2>/dev/null || { echo "capture_verdicts.sh: $PY has no PyYAML (it comes with deepagents)" >&2; exit 2; }

TREES=$OUT/trees
HELP=$OUT/raw/helpers
if [ "${ONLY_OURS:-0}" = 1 ]; then
  # re-judge skillkit against the captures already in OUT (trees, raw oracle output, <agent>.tsv)
  [ -f "$OUT/frontmatter.json" ] && [ -d "$OUT/raw" ] || { echo "capture_verdicts.sh: ONLY_OURS=1 needs a finished OUT ($OUT)" >&2; exit 2; }
  rm -rf "$OUT/ours" "$OUT/compare" "$OUT/raw/ours"; mkdir -p "$OUT/ours" "$OUT/compare"
else
  rm -rf "$OUT"; mkdir -p "$OUT/trees" "$OUT/raw" "$OUT/ours" "$OUT/compare" "$SCRATCH"
fi
mkdir -p "$HELP"
log() { echo "[$(date +%T)] $*" >&2; }

# ------------------------------------------------------------------------------------- python helpers
cat > "$HELP/build_trees.py" <<'PYEOF'
# build_trees.py CORPUS TREES LIB...: flat trees + mapping.tsv (see the script's header)
import os, shutil, stat, sys

def skill_dirs(root):
    out = []
    for r, ds, fs in os.walk(root):
        ds.sort()
        if "SKILL.md" in fs:
            out.append(os.path.relpath(r, root))
    return sorted(out, key=lambda s: s.encode())

def writable(path):
    for r, ds, fs in os.walk(path):
        for n in ds + fs:
            p = os.path.join(r, n)
            if not os.path.islink(p):
                os.chmod(p, os.stat(p).st_mode | stat.S_IWUSR)
    os.chmod(path, os.stat(path).st_mode | stat.S_IWUSR)

corpus, trees, libs = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = []
for lib in libs:
    root = os.path.join(corpus, lib)
    dirs = skill_dirs(root)
    parts = []
    for d in dirs:
        base = os.path.basename(d) if d != "." else lib
        k = 0
        while k < len(parts) and base in parts[k]:
            k += 1
        if k == len(parts):
            parts.append(set())
        parts[k].add(base)
        children = [o for o in dirs if o != d and (d == "." or o.startswith(d + "/"))]
        parents = [o for o in dirs if o != d and (o == "." or d.startswith(o + "/"))]
        src = os.path.join(root, d)
        dst = os.path.join(trees, lib, f"p{k + 1}", base)
        skip = {os.path.normpath(os.path.join(root, c)) for c in children}
        shutil.copytree(src, dst, symlinks=True,
                        ignore=lambda cur, names, skip=skip: [n for n in names if os.path.normpath(os.path.join(cur, n)) in skip])
        writable(dst)
        flags = []
        if parents:
            flags.append("nested-in=" + lib + "/" + max(parents, key=len))
        if children:
            flags.append(f"pruned-nested={len(children)}")
        rows.append((os.path.relpath(dst, trees), f"{lib}/{d}", ",".join(flags)))
with open(os.path.join(trees, "mapping.tsv"), "w", encoding="utf-8") as f:
    f.write("tree_path\tlibrary_path\tflags\n")
    for r in rows:
        f.write("\t".join(r) + "\n")
print(f"{len(rows)} skills", file=sys.stderr)
PYEOF

cat > "$HELP/frontmatter.py" <<'PYEOF'
# frontmatter.py TREES > frontmatter.json: what each SKILL.md's frontmatter states (PyYAML safe_load),
# plus a line-based lenient reading for frontmatter that is not valid YAML.
import json, os, re, sys, yaml

def lenient(fm, key):
    m = re.search(r"(?m)^" + re.escape(key) + r":[ \t]*(.*?)[ \t]*\r?$", fm)
    if not m:
        return None
    v = m.group(1)
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
        v = v[1:-1]
    return v

def read(path):
    raw = open(path, "rb").read()
    text = raw.decode("utf-8", errors="replace")
    r = {"bytes": len(raw), "frontmatter": False}
    t = text[1:] if text.startswith("\ufeff") else text
    lines = t.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n") != "---":
        body = t
        r["body_first_line"] = next((l.strip() for l in body.splitlines() if l.strip()), "")
        return r
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip("\r\n") == "---"), None)
    if end is None:
        r["unclosed"] = True
        return r
    r["frontmatter"] = True
    fm = "".join(lines[1:end])
    r["lenient_name"], r["lenient_description"] = lenient(fm, "name"), lenient(fm, "description")
    try:
        data = yaml.safe_load(fm)
    except Exception as e:  # noqa: BLE001
        r["yaml_error"] = " ".join(str(e).split())[:200]
        return r
    if not isinstance(data, dict):
        r["yaml_error"] = f"frontmatter is a {type(data).__name__}, not a mapping"
        return r
    r["keys"] = sorted(map(str, data))
    for k in ("name", "description"):
        if k in data:
            v = data[k]
            r[k + "_type"] = type(v).__name__
            r[k] = v if isinstance(v, str) else (None if v is None else str(v))
    for k in ("disable-model-invocation", "user-invocable", "when_to_use"):
        if k in data:
            r[k] = data[k] if isinstance(data[k], (str, bool, int, float)) or data[k] is None else str(data[k])
    return r

trees = sys.argv[1]
out = {}
for line in open(os.path.join(trees, "mapping.tsv"), encoding="utf-8").read().splitlines()[1:]:
    tp, lp, flags = line.split("\t")
    e = read(os.path.join(trees, tp, "SKILL.md"))
    e.update(tree_path=tp, library_path=lp, flags=flags, folder=os.path.basename(tp))
    out[lp] = e
json.dump(out, sys.stdout, ensure_ascii=False, indent=1, default=str)
PYEOF

cat > "$HELP/verdicts.py" <<'PYEOF'
# verdicts.py OUT AGENT: OUT/<agent>.tsv from the raw runs and frontmatter.json
import html, json, os, re, sys

OUT, AGENT = sys.argv[1], sys.argv[2]
FM = json.load(open(os.path.join(OUT, "frontmatter.json"), encoding="utf-8"))
RAW = os.path.join(OUT, "raw", AGENT)
by_tree = {e["tree_path"]: lp for lp, e in FM.items()}
parts = sorted({os.path.dirname(e["tree_path"]) for e in FM.values()})

def one_line(s):
    return " ".join(str(s).replace("\t", " ").split())

def rd(p):
    return open(p, encoding="utf-8", errors="replace").read() if os.path.exists(p) else ""

def ws(s):
    return " ".join((s or "").split())

def stated(e):
    """(name, description) the frontmatter states; lenient reading when YAML fails."""
    if "yaml_error" in e:
        return e.get("lenient_name"), e.get("lenient_description")
    return e.get("name"), e.get("description")

def compare(e, lname, ldesc, agent):
    """-> (verdict, notes) for a listed skill."""
    notes, mis = [], []
    name, desc = stated(e)
    if "yaml_error" in e:
        notes.append("frontmatter is not valid YAML (" + e["yaml_error"][:120] + "); read leniently")
    if not e.get("frontmatter"):
        notes.append("no frontmatter" + (" (unclosed ---)" if e.get("unclosed") else ""))
    # name
    if lname is not None:
        if name is None or name == "":
            notes.append(f"no name in frontmatter: listed as {lname!r}")
        elif lname != name:
            if ws(lname) == ws(name):
                notes.append("name whitespace normalised")
            else:
                mis.append(f"name {name!r} listed as {lname!r}")
        elif name != e["folder"]:
            notes.append(f"name {name!r} differs from folder {e['folder']!r}")
    # description
    if ldesc is not None:
        d = desc
        if d is None or (d == "" and agent == "claude-code"):
            notes.append(("empty" if d == "" else "no") + f" description in frontmatter: listed with {ldesc[:80]!r}")
        elif ldesc == d:
            pass
        else:
            l2 = html.unescape(ldesc) if agent == "claude-code" else ldesc
            if l2 != ldesc and ws(l2) == ws(d):
                notes.append("description: <, > escaped as &lt; &gt;" + ("" if l2 == d else ", lines joined"))
            elif l2.strip() == d.strip():
                notes.append("description: leading/trailing whitespace stripped")
            elif ws(l2) == ws(d):
                notes.append("description: lines joined" if "\n" in d.strip() and "\n" not in l2.strip() else "description: whitespace normalised")
            elif ldesc.endswith("...") and ws(d).startswith(ws(ldesc[:-3])):
                mis.append(f"description cut to {len(ldesc) - 3} chars + '...' (frontmatter: {len(d)} chars)")
            elif d.startswith(ldesc) or ws(d).startswith(ws(ldesc)):
                mis.append(f"description cut to {len(ldesc)} chars (frontmatter: {len(d)} chars)")
            else:
                i = next((k for k, (a, b) in enumerate(zip(ws(l2), ws(d))) if a != b), min(len(ws(l2)), len(ws(d))))
                mis.append(f"description differs at char {i}: listed {ws(l2)[max(0, i - 20):i + 40]!r} vs frontmatter {ws(d)[max(0, i - 20):i + 40]!r}")
    return ("misread" if mis else "listed"), mis + notes

rows = {}
extra = []

def sk_rel(msg, base):
    return msg.replace(base + "/", "{SKILLS}/").replace(base, "{SKILLS}")

for part in parts:
    rawp = os.path.join(RAW, part)
    tree_abs = os.path.join(OUT, "trees", part)
    members = {os.path.basename(tp): lp for tp, lp in by_tree.items() if os.path.dirname(tp) == part}
    if AGENT == "deepagents":
        data = json.loads(rd(os.path.join(rawp, "metadata.json")) or "{}")
        err = rd(os.path.join(rawp, "stderr.txt")).splitlines()
        listed = {}
        for m in data.get("skills_metadata", []):
            folder = os.path.basename(os.path.dirname(m["path"]))
            listed[folder] = m
        for f, lp in members.items():
            e = FM[lp]
            p = os.path.join(tree_abs, f, "SKILL.md")
            lines = [sk_rel(l.split(": ", 1)[1] if l.startswith("WARNING ") else l, tree_abs) for l in err if p in l]
            if f in listed:
                v, notes = compare(e, listed[f]["name"], listed[f]["description"], AGENT)
                rows[lp] = (v, "; ".join(notes + lines))
            else:
                rows[lp] = ("skipped", " | ".join(lines) or "not loaded, no message")
    elif AGENT == "skills-ref":
        for f, lp in members.items():
            rc = rd(os.path.join(rawp, f"validate-{f}.rc")).strip()
            txt = one_line(sk_rel(rd(os.path.join(rawp, f"validate-{f}.txt")), tree_abs))
            rows[lp] = ("listed" if rc == "0" else "skipped", txt)
    elif AGENT == "claude-code":
        lst = rd(os.path.join(rawp, "listing", "main.skills-listing.txt"))
        base = rd(os.path.join(rawp, "skills_dir.txt")).strip()
        entries, cur = {}, None
        for line in lst.splitlines()[2:]:
            m = re.match(r"^- (\S+?)(?: \((.*?)\))?(?:: (.*))?$", line)
            if m and (m.group(1) in members or m.group(1) == "plugin-authoring" or m.group(1) not in entries):
                cur = m.group(1)
                entries[cur] = [m.group(2), m.group(3)]
            elif cur is not None:
                entries[cur][1] = (entries[cur][1] or "") + "\n" + line
        for k in list(entries):
            if k not in members:
                if k != "plugin-authoring":
                    extra.append(f"{part}: listed entry not a folder of the tree: {k}")
                del entries[k]
        for f, lp in members.items():
            e = FM[lp]
            if f in entries:
                pname, desc = entries[f]
                lname = pname if pname is not None else f
                if desc is None:
                    rows[lp] = ("misread", "listed by name only (no description)")
                    continue
                v, notes = compare(e, lname, desc, AGENT)
                if pname is not None:
                    notes.append(f"listed as `{f} ({pname})`")
                rows[lp] = (v, "; ".join(notes))
            else:
                why = "not in the listing (Claude Code prints nothing)"
                if e.get("disable-model-invocation") in (True, "true"):
                    why += "; frontmatter has disable-model-invocation: true (hidden from the listing, /slash still works)"
                rows[lp] = ("skipped", why)
    elif AGENT == "codex":
        base = rd(os.path.join(rawp, "skills_dir.txt")).strip()
        listed, err = {}, []
        chunks = sorted(c for c in os.listdir(rawp) if re.fullmatch(r"c\d+", c)) if os.path.isdir(rawp) else []
        for c in chunks or ["."]:
            lst = rd(os.path.join(rawp, c, "listing", "main.skills-listing.txt"))
            err += rd(os.path.join(rawp, c, "listing", "stderr.txt")).splitlines()
            sect = lst.split("### Available skills\n", 1)[-1].split("\n### How to use skills", 1)[0]
            for line in sect.splitlines():
                m = re.match(r"^- (.*?): (.*?) ?\(file: r0/(.*)/SKILL\.md\)$", line)
                if not m:
                    extra.append(f"{part}/{c}: unparsed codex line {line[:100]!r}"); continue
                name, desc, rel = m.groups()
                listed.setdefault(rel, []).append((name, desc))
        for l in err:
            if "Exceeded skills context budget" in l:
                extra.append(f"{part}: {l}")
        for rel in listed:
            if rel not in members:
                extra.append(f"{part}: codex lists a SKILL.md not at the top of the tree: {rel} -> {listed[rel]}")
        for f, lp in members.items():
            e = FM[lp]
            p = base + "/" + f + "/SKILL.md"
            lines = [sk_rel(re.sub(r"^\S+Z\s+", "", l), base) for l in err if "ERROR" in l and p in l]
            if f in listed:
                name, desc = listed[f][0]
                v, notes = compare(e, name, desc, AGENT)
                if len(listed[f]) > 1:
                    notes.append(f"listed {len(listed[f])} times")
                rows[lp] = (v, "; ".join(notes + lines))
            else:
                rows[lp] = ("skipped", " | ".join(lines) or "not listed, no stderr line")
    elif AGENT == "letta-code":
        base = rd(os.path.join(rawp, "skills_dir.txt")).strip()
        body = {}
        for line in rd(os.path.join(rawp, "listing", "requests.jsonl")).splitlines():
            r = json.loads(line)
            if r.get("method") == "POST" and isinstance(r.get("body"), dict) and r["body"].get("messages"):
                body = r["body"]
                break
        m0 = (body.get("messages") or [{}])[0].get("content", "")
        m0 = m0 if isinstance(m0, str) else "".join(p.get("text", "") for p in m0)
        k = m0.rfind("\n\n<available_skills>\n")
        lines = {}  # id -> first line of the description, from the block at the end of the system prompt
        if k >= 0:
            for l in m0[k + len("\n\n<available_skills>\n"):].split("\n")[:-1]:
                mm = re.match(r"^- `(.*?)`(?:: (.*))?$", l)
                if mm:
                    lines[mm.group(1)] = mm.group(2) or ""
        dbg = [l for l in rd(os.path.join(rawp, "listing", "debug.log")).splitlines() if "sendMessageStream: client_skills (" in l]
        sent = dbg[-1].split(") ", 1)[1] if dbg else ""
        listed = {}
        for mm in re.finditer(r"(?:^|, )(.*?) \(" + re.escape(base) + r"/([^()]*)/(SKILL\.md|skill\.md)\)(?=, |$)", sent, re.I):
            listed.setdefault(mm.group(2), []).append(mm.group(1))
        if not dbg:
            extra.append(f"{part}: no client_skills line in the debug log (rc {rd(os.path.join(rawp, 'listing', 'rc.txt')).strip()})")
        for rel in listed:
            if rel not in members:
                extra.append(f"{part}: letta lists a SKILL.md not at the top of the tree: {rel} -> {listed[rel]}")
        for f, lp in members.items():
            e = FM[lp]
            if f in listed:
                sid = listed[f][0]
                if sid not in lines:
                    extra.append(f"{part}: {sid} sent but not in the block")
                v, notes = compare(e, sid, lines.get(sid), AGENT)
                if lines.get(sid) is not None and "\n" in (stated(e)[1] or "").strip():
                    notes.append("only the first line of the description is shown")
                rows[lp] = (v, "; ".join(notes))
            else:
                dmi = str(e.get("disable-model-invocation", "")).lower() == "true"
                rows[lp] = ("skipped", "not listed, no message" + (" (disable-model-invocation: true)" if dmi else ""))
    elif AGENT == "gemini-cli":
        lst = rd(os.path.join(rawp, "listing", "main.skills-listing.txt"))
        base = rd(os.path.join(rawp, "skills_dir.txt")).strip()
        err = rd(os.path.join(rawp, "listing", "stderr.txt")).splitlines()
        listed = {}
        for m in re.finditer(r"<skill>\n    <name>(.*?)</name>\n    <description>(.*?)</description>\n    <location>(.*?)</location>\n  </skill>", lst, re.S):
            name, desc, loc = m.groups()
            if not loc.startswith(base + "/"):
                continue  # built-in skill
            rel = os.path.dirname(loc[len(base) + 1:])
            listed.setdefault(rel, []).append((name, desc))
        for rel in listed:
            if rel not in members:
                extra.append(f"{part}: gemini lists a SKILL.md not at the top of the tree: {rel} -> {listed[rel]}")
        for f, lp in members.items():
            e = FM[lp]
            p = base + "/" + f + "/"
            lines = [sk_rel(l, base) for l in err if p in l]
            if f in listed:
                name, desc = listed[f][0]
                v, notes = compare(e, name, desc, AGENT)
                rows[lp] = (v, "; ".join(notes + lines))
            else:
                rows[lp] = ("skipped", " | ".join(lines) or "not listed, no stderr line")
    elif AGENT == "qwen-code":
        lst = rd(os.path.join(rawp, "listing", "main.skills-listing.txt"))
        base = rd(os.path.join(rawp, "skills_dir.txt")).strip()
        dbg = rd(os.path.join(rawp, "listing", "debug-skills.txt")).splitlines()
        listed = {}
        for m in re.finditer(r"<skill>\n<name>\n(.*?)\n</name>\n<description>\n(.*?) \((project|user)\)\n</description>", lst, re.S):
            listed[html.unescape(m.group(1))] = html.unescape(m.group(2))
        parsed, skips = {}, {}
        for l in dbg:
            m = re.search(r"Successfully parsed skill: (.*) \(project\) from " + re.escape(base) + r"/(.*)/SKILL\.md$", l)
            if m:
                parsed.setdefault(m.group(2), m.group(1))
            m = re.search(r"Failed to parse skill at " + re.escape(base) + r"/(.*?): (.*)$", l)
            if m:
                skips[m.group(1)] = m.group(2)
        winner = {}
        for f in sorted(parsed, key=lambda s: s.encode()):
            winner.setdefault(parsed[f], f)
        for f, lp in members.items():
            e = FM[lp]
            n = parsed.get(f)
            if n is not None and n in listed and winner.get(n) == f:
                desc = listed[n]
                w = e.get("when_to_use")
                if isinstance(w, str) and w and desc.endswith(" \u2014 " + w):
                    desc = desc[: -len(" \u2014 " + w)]
                v, notes = compare(e, n, desc, AGENT)
                if len([g for g in parsed.values() if g == n]) > 1:
                    notes.append("its name is shared by another folder of the tree: the first in byte order is taken as the winner (not observable in the listing)")
                rows[lp] = (v, "; ".join(notes))
            elif f in skips:
                rows[lp] = ("skipped", skips[f])
            elif n is not None and n not in listed:
                rows[lp] = ("skipped", f"parsed as {n!r} but not listed" + (" (disable-model-invocation)" if e.get("disable-model-invocation") in (True, "true") else ""))
            elif n is not None:
                rows[lp] = ("skipped", f"duplicate name {n!r}: {winner.get(n)} is listed")
            else:
                rows[lp] = ("skipped", "not parsed, no debug line")

    elif AGENT == "cline":
        desc = rd(os.path.join(rawp, "listing", "main.skills-listing.txt"))
        names = desc[len("Available skills: "):].rstrip(".").split(", ") if desc.startswith("Available skills: ") else []
        left = list(names)
        for f, lp in members.items():
            e = FM[lp]
            cands = [v.strip() for v in (e.get("name"), e.get("lenient_name")) if isinstance(v, str) and v.strip()] + [f]
            cands += [c.lower() for c in cands if ":" in c]
            hit = next((c for c in cands if c in left), None)
            if hit is not None:
                left.remove(hit)
                v, notes = compare(e, hit, None, AGENT)
                rows[lp] = (v, "; ".join(notes + ["names only, no description"]))
            else:
                rows[lp] = ("skipped", "not in the listing (Cline prints nothing)")
        for n in left:
            extra.append(f"{part}: cline lists a name no folder of the tree explains: {n}")

    elif AGENT == "kimi-cli":
        lst = rd(os.path.join(rawp, "listing", "main.skills-listing.txt"))
        base = rd(os.path.join(rawp, "skills_dir.txt")).strip()
        log = rd(os.path.join(rawp, "listing", "kimi.log"))
        listed = {}
        ents = list(re.finditer(r"(?m)^- (.*)\n  - Path: (.*)\n  - Description: ", lst))
        for k, m in enumerate(ents):
            end = ents[k + 1].start() - 1 if k + 1 < len(ents) else len(lst)
            desc = re.sub(r"\n\n### [A-Za-z-]+$", "", lst[m.end():end].rstrip("\n") if k + 1 < len(ents) else lst[m.end():])
            loc = m.group(2)
            if not loc.startswith(base + "/"):
                continue  # built-in skill
            listed.setdefault(os.path.dirname(loc[len(base) + 1:]), []).append((m.group(1), desc))
        skips = re.findall(r"Skipping invalid skill at (\S+/SKILL\.md): (.*)", log)
        for rel in listed:
            if rel not in members:
                extra.append(f"{part}: kimi lists a SKILL.md not at the top of the tree: {rel} -> {listed[rel]}")
        for f, lp in members.items():
            e = FM[lp]
            p = base + "/" + f + "/SKILL.md"
            lines = [sk_rel(f"{q}: {r}", base) for q, r in skips if q == p]
            if f in listed:
                name, desc = listed[f][0]
                v, notes = compare(e, name, desc, AGENT)
                rows[lp] = (v, "; ".join(notes + lines))
            else:
                rows[lp] = ("skipped", " | ".join(lines) or "not listed, no log line")

    elif AGENT == "mistral-vibe":
        lst = rd(os.path.join(rawp, "listing", "main.skills-listing.txt"))
        base = rd(os.path.join(rawp, "skills_dir.txt")).strip()
        err = rd(os.path.join(rawp, "listing", "stderr.txt"))
        listed = {}
        for m in re.finditer(r"  <skill>\n    <name>(.*?)</name>\n    <description>(.*?)</description>\n    <path>(.*?)</path>\n  </skill>", lst, re.S):
            name, desc, loc = (html.unescape(x) for x in m.groups())
            if not loc.startswith(base + "/"):
                continue  # the bundled plugin's skills
            listed.setdefault(os.path.dirname(loc[len(base) + 1:]), []).append((name, desc))
        fails = re.findall(r"(?m)^(/.*?/SKILL\.md): Failed to load: (.*)$", err)
        for rel in listed:
            if rel not in members:
                extra.append(f"{part}: vibe lists a SKILL.md not at the top of the tree: {rel} -> {listed[rel]}")
        for f, lp in members.items():
            e = FM[lp]
            p = base + "/" + f + "/SKILL.md"
            lines = [sk_rel(f"{q}: {r}", base) for q, r in fails if q == p]
            if f in listed:
                name, desc = listed[f][0]
                v, notes = compare(e, name, desc, AGENT)
                rows[lp] = (v, "; ".join(notes + lines))
            else:
                why = " | ".join(lines) or "not listed, no stderr line"
                if not lines and e.get("disable-model-invocation") in (True, "true"):
                    why += "; frontmatter has disable-model-invocation: true"
                rows[lp] = ("skipped", why)

    elif AGENT == "copilot-cli":
        # The listing names no folder (<location> is the scope word): each listed name is tied to
        # the folder whose frontmatter name (spaces as `-`; the folder when there is none) it is;
        # two folders of one name are told apart by the description, in the listing or, for a name
        # in the "Additional skills available" line, in `copilot skill list`.
        lst = rd(os.path.join(rawp, "listing", "main.skills-listing.txt"))
        sl = rd(os.path.join(rawp, "skill-list.txt"))
        full = {}
        for m in re.finditer(r"<skill>\n  <name>(.*?)</name>\n  <description>(.*?)</description>\n  <location>(.*?)</location>\n</skill>\n", lst, re.S):
            if m.group(3) == "project":
                full.setdefault(html.unescape(m.group(1)), html.unescape(m.group(2)))
        m = re.search(r"(?m)^Additional skills available \(invoke by name\): (.*)$", lst)
        more_line = m.group(1) if m else ""
        capped = re.search(r"\.\.\. and (\d+) more$", more_line)  # the line's own cap (about 5,000 characters)
        if capped:
            more_line = more_line[: capped.start()]
        more = more_line.split(", ") if more_line else []
        proj = sl.split("Project skills:\n", 1)[1].split("\n\n", 1)[0] if "Project skills:\n" in sl else ""
        in_list = {}
        for l in proj.splitlines():
            mm = re.match(r"^  (\S+?)(?: \(disabled\))? - (.*)$", l) or re.match(r"^  (\S+?)(?: \(disabled\))?$", l)
            if mm:
                in_list[mm.group(1)] = mm.group(2) if mm.lastindex and mm.lastindex >= 2 else ""
        fails = dict(re.findall(r"(?m)^  \u2022 \.github/skills/(.*?)/SKILL\.md: (.*)$", sl))
        if not lst and not sl:
            extra.append(f"{part}: no listing and no skill list (rc {rd(os.path.join(rawp, 'listing', 'rc.txt')).strip()})")
        def cname(e):
            n, _ = stated(e)
            return n.replace(" ", "-") if isinstance(n, str) and n.strip() else e["folder"]
        by_name = {}
        for f, lp in members.items():
            by_name.setdefault(cname(FM[lp]), []).append(f)
        def pick(n, desc):
            c = by_name.get(n, [])
            if len(c) > 1 and desc is not None:
                same = [f for f in c if ws(stated(FM[members[f]])[1]) == ws(desc)]
                if len(same) == 1:
                    return same[0]
            return c[0] if len(c) == 1 else None
        where = {}
        for n, d in full.items():
            f = pick(n, d)
            if f is None:
                extra.append(f"{part}: copilot lists {n!r}, which no single folder of the tree explains")
            else:
                where[f] = (n, d)
        for n in more:
            f = pick(n, in_list.get(n))
            if f is None:
                extra.append(f"{part}: copilot names {n!r} (Additional line), which no single folder of the tree explains")
            else:
                where[f] = (n, None)
        for f, lp in members.items():
            e = FM[lp]
            sname = stated(e)[0]
            if f in where:
                n, d = where[f]
                v, notes = compare(e, sname if isinstance(sname, str) and sname.replace(" ", "-") == n else n, d, AGENT)
                if isinstance(sname, str) and " " in sname and sname.replace(" ", "-") == n:
                    notes.append("spaces in the name written as `-`")
                if d is None:
                    notes.append("name only, in the `Additional skills available` line (over the 15,000-character budget)")
                rows[lp] = (v, "; ".join(notes))
            elif f in fails:
                rows[lp] = ("skipped", "{SKILLS}/" + f + "/SKILL.md: " + fails[f])
            else:
                n = cname(e)
                hidden = str(e.get("disable-model-invocation")).lower() == "true"
                if n in in_list and len(by_name.get(n, [])) == 1 and capped and not hidden:
                    # loaded, but past the Additional line's cap: left out by the budget
                    rows[lp] = ("dropped", f"loaded (`copilot skill list`) but not named: past the cap of the Additional line (`... and {capped.group(1)} more`)")
                    continue
                if n in in_list and len(by_name.get(n, [])) == 1:
                    why = f"loaded (`copilot skill list`) but not in the listing" + ("; frontmatter has disable-model-invocation: true" if hidden else "")
                elif len(by_name.get(n, [])) > 1:
                    why = f"duplicate name {n!r}: {next((g for g in by_name[n] if g in where), '?')} is listed (no message)"
                else:
                    why = "not listed, no message"
                rows[lp] = ("skipped", why)

    elif AGENT == "opencode":
        lst = rd(os.path.join(rawp, "listing", "main.skills-listing.txt"))
        base = rd(os.path.join(rawp, "skills_dir.txt")).strip()
        logs = rd(os.path.join(rawp, "listing", "stderr.txt")).splitlines() + rd(os.path.join(rawp, "debug-skill.txt")).splitlines()
        dbg = rd(os.path.join(rawp, "debug-skill.txt"))
        loaded = {}
        try:
            i = dbg.find("\n[")
            arr, _ = json.JSONDecoder().raw_decode(dbg[0 if dbg.startswith("[") else i + 1:])
            for s in arr:
                loc = s.get("location") or ""
                if loc.startswith(base + "/"):
                    loaded[os.path.dirname(loc[len(base) + 1:])] = s
        except Exception as ex:  # noqa: BLE001
            extra.append(f"{part}: `opencode debug skill` unreadable ({ex})")
        listed = {}
        for m in re.finditer(r"  <skill>\n    <name>(.*?)</name>\n    <description>(.*?)</description>\n    <location>(.*?)</location>\n  </skill>", lst, re.S):
            name, desc, loc = m.group(1), m.group(2), html.unescape(m.group(3))
            if not loc.startswith(base + "/"):
                continue  # the built-in customize-opencode
            listed.setdefault(os.path.dirname(loc[len(base) + 1:]), []).append((name, desc))
        if not lst:
            extra.append(f"{part}: no listing (rc {rd(os.path.join(rawp, 'listing', 'rc.txt')).strip()})")
        for rel in listed:
            if rel not in members:
                extra.append(f"{part}: opencode lists a SKILL.md not at the top of the tree: {rel} -> {listed[rel]}")
        dups = {}
        for l in logs:
            mm = re.search(r'message="duplicate skill name" name=(.*?) existing=(\S+) duplicate=(\S+)', l)
            if mm:
                dups.setdefault(mm.group(1), set()).update((mm.group(2), mm.group(3)))
        for f, lp in members.items():
            e = FM[lp]
            p = base + "/" + f + "/SKILL.md"
            if f in listed:
                name, desc = listed[f][0]
                v, notes = compare(e, name, desc, AGENT)
                if any(p in g for g in dups.values()):
                    notes.append("its name is shared by another folder: OpenCode's winner is a race (this run listed this copy)")
                rows[lp] = (v, "; ".join(notes))
            else:
                lines = [sk_rel(re.sub(r"^(INFO|WARN|ERROR|DEBUG)?\s*\S*Z\s+", "", l), base) for l in logs if p in l and "duplicate skill name" not in l]
                n = next((k for k, g in dups.items() if p in g), None)
                if n is not None:
                    w = next((g for g, v in listed.items() for nm, _ in v if nm == n), "?")
                    why = f"duplicate name {n!r}: {w} is listed (the winner of OpenCode's parallel parses is a race)"
                elif f in loaded:
                    why = "loaded (`opencode debug skill`) but not listed" + ("; no description" if loaded[f].get("description") is None else "")
                else:
                    why = "not loaded"
                rows[lp] = ("skipped", "; ".join([why] + lines[:2]))

with open(os.path.join(OUT, f"{AGENT}.tsv"), "w", encoding="utf-8") as f:
    for lp in sorted(rows, key=lambda s: s.encode()):
        v, msg = rows[lp]
        f.write(f"{lp}\t{v}\t{one_line(msg)}\n")
if extra:
    open(os.path.join(OUT, f"{AGENT}.extra.txt"), "w", encoding="utf-8").write("\n".join(extra) + "\n")
elif os.path.exists(os.path.join(OUT, f"{AGENT}.extra.txt")):
    os.remove(os.path.join(OUT, f"{AGENT}.extra.txt"))
c = {}
for v, _ in rows.values():
    c[v] = c.get(v, 0) + 1
print(AGENT, c, file=sys.stderr)
PYEOF

cat > "$HELP/ours.py" <<'PYEOF'
# ours.py OUT AGENT: OUT/ours/<agent>.tsv and OUT/compare/<agent>.tsv from skillkit's JSON
import json, os, sys
OUT, AGENT = sys.argv[1], sys.argv[2]
LISTED = ("full", "truncated", "name-only")  # prompt decisions that put the skill in the listing
FM = json.load(open(os.path.join(OUT, "frontmatter.json"), encoding="utf-8"))
by_tree = {e["tree_path"]: lp for lp, e in FM.items()}
ours = {}
# Skills whose outcome our prompt marks as chance (OpenCode's duplicate-name race): (part, folder)
# -> name. Each is compared as its group (the folders of its part with that name): the group
# agrees when the real agent and skillkit each list exactly one of its copies, whichever it is.
chance = {}
for part in sorted({os.path.dirname(t) for t in by_tree}):
    d = os.path.join(OUT, "raw", "ours", AGENT, part)
    tree_abs = os.path.join(OUT, "trees", part)
    prompt = {}
    if os.path.exists(os.path.join(d, "prompt.json")):
        try:
            pj = json.load(open(os.path.join(d, "prompt.json"), encoding="utf-8"))
            for s in pj.get("skills", []):
                folder = os.path.basename(os.path.dirname(s["path"]))
                prompt[folder] = s.get("decision", "?") + (f" ({' '.join(s['reason'].split())})" if s.get("reason") else "")
                if s.get("chance"):
                    chance[(part, folder)] = s.get("name")
        except Exception as e:  # noqa: BLE001
            prompt["__error__"] = str(e)
    check = {}
    cj = json.load(open(os.path.join(d, "check.json"), encoding="utf-8"))
    # A skill the verdict at the end of the report names as skipped (the earlier of two of one
    # name, when the agent keeps the later: reported before the later was read) is not listed.
    dropped = {os.path.basename(f["path"].rstrip("/")): f.get("reason", "") for f in (cj.get("agent_verdict") or {}).get("skipped", [])}
    for s in cj.get("skills", []):
        p = s["path"]
        folder = os.path.basename(os.path.dirname(p)) if p.endswith("SKILL.md") else os.path.basename(p)
        errs = sorted({x["code"] for x in s.get("diagnostics", []) if x.get("severity") == "error"})
        warns = sorted({x["code"] for x in s.get("diagnostics", []) if x.get("severity") == "warning"})
        msgs = [x["code"] + ": " + " ".join(x["message"].split()) for x in s.get("diagnostics", []) if x.get("severity") == "error"]
        valid = s.get("valid")
        if valid and folder in dropped:
            valid = False
            msgs.append("verdict: skipped: " + " ".join(dropped[folder].split()))
        check[folder] = (valid, errs, warns, msgs)
    for tp, lp in by_tree.items():
        if os.path.dirname(tp) != part:
            continue
        f = os.path.basename(tp)
        ours[lp] = (prompt.get(f, "absent" if AGENT != "skills-ref" else "-"), check.get(f, (None, [], [], ["not reported by check"])))
real = {}
for line in open(os.path.join(OUT, f"{AGENT}.tsv"), encoding="utf-8"):
    lp, v, msg = line.rstrip("\n").split("\t", 2)
    real[lp] = (v, msg)
with open(os.path.join(OUT, "ours", f"{AGENT}.tsv"), "w", encoding="utf-8") as fo, \
     open(os.path.join(OUT, "compare", f"{AGENT}.tsv"), "w", encoding="utf-8") as fc:
    fc.write("path\treal\tour_prompt\tour_check\tcheck_errors\tcheck_warnings\tagree_prompt\tagree_check\treal_message\tcheck_error_messages\n")
    for lp in sorted(ours, key=lambda s: s.encode()):
        pd, (valid, errs, warns, msgs) = ours[lp]
        fo.write(f"{lp}\t{pd}\t{'valid' if valid else 'invalid'}\t{','.join(errs)}\t{','.join(warns)}\n")
        rv, rmsg = real.get(lp, ("?", ""))
        real_listed = rv in ("listed", "misread", "dropped")  # dropped: loaded, left out by the budget
        p_listed = pd.split(" ")[0] in LISTED
        ap = "-" if AGENT == "skills-ref" else ("yes" if real_listed == p_listed else "NO")
        if rv == "dropped":
            ap = "yes" if pd.split(" ")[0] == "dropped" else "NO"
        ac = "yes" if real_listed == bool(valid) else "NO"
        key = (os.path.dirname(FM[lp]["tree_path"]), FM[lp]["folder"])
        if key in chance:
            group = [l for l in ours if (os.path.dirname(FM[l]["tree_path"]), FM[l]["folder"]) in chance
                     and os.path.dirname(FM[l]["tree_path"]) == key[0] and chance[(key[0], FM[l]["folder"])] == chance[key]]
            n_real = sum(1 for l in group if real.get(l, ("?",))[0] in ("listed", "misread", "dropped"))
            n_prompt = sum(1 for l in group if ours[l][0].split(" ")[0] in LISTED)
            n_check = sum(1 for l in group if ours[l][1][0])
            ap = "chance" if n_real == 1 and n_prompt == 1 else "NO"
            ac = "chance" if n_real == 1 and n_check == 1 else "NO"
        fc.write(f"{lp}\t{rv}\t{pd}\t{'valid' if valid else 'invalid'}\t{','.join(errs)}\t{','.join(warns)}\t{ap}\t{ac}\t{rmsg}\t{' | '.join(msgs)}\n")
PYEOF

# ------------------------------------------------------------------------------------------ trees
PARTS=$(cd "$TREES" 2>/dev/null && for l in $LIBS; do ls -d "$l"/p* 2>/dev/null; done)
if [ "${ONLY_OURS:-0}" = 1 ] && [ -z "$PARTS" ]; then
  echo "capture_verdicts.sh: OUT holds no trees of LIBS ($LIBS): set LIBS (and CORPUS) as in the run that made OUT" >&2; exit 2
fi
if [ "${ONLY_OURS:-0}" != 1 ]; then
log "trees: $LIBS"
python3 "$HELP/build_trees.py" "$CORPUS" "$TREES" $LIBS || { echo "tree build failed" >&2; exit 1; }
# the nesting test tree: real nesting from two libraries (when present) + a synthetic outer/inner
NT=$TREES/nested; mkdir -p "$NT"
[ -d "$CORPUS/github-awesome-copilot/skills/qdrant-scaling" ] && cp -r "$CORPUS/github-awesome-copilot/skills/qdrant-scaling" "$NT/"
[ -d "$CORPUS/alirezarezvani-claude-skills/engineering/skills/skill-tester" ] && cp -r "$CORPUS/alirezarezvani-claude-skills/engineering/skills/skill-tester" "$NT/"
for p in outer outer/inner outer/a/b/c/deep; do
  n=$(basename "$p"); mkdir -p "$NT/$p"
  printf -- '---\nname: %s\ndescription: Nesting probe %s.\n---\n\nBody of %s.\n' "$n" "$p" "$n" > "$NT/$p/SKILL.md"
done
chmod -R u+w "$NT"
"$PY" "$HELP/frontmatter.py" "$TREES" > "$OUT/frontmatter.json"
PARTS=$(cd "$TREES" && for l in $LIBS; do ls -d "$l"/p*; done)

# ------------------------------------------------------------------------------------------ oracles
BUDGET=$OUT/raw/claude-budget.json
printf '{"env": {"SLASH_COMMAND_TOOL_CHAR_BUDGET": "100000000"}}\n' > "$BUDGET"

run_cli() {  # agent part/tree-path rawdir
  local a=$1 t=$TREES/$2 raw=$3 w=$SCRATCH/$1
  mkdir -p "$raw"
  case "$a" in
    claude-code)
      ONLY=listing WORK=$w CLAUDE_ARGS="--settings $BUDGET" "$ORACLES/capture_claude_code.sh" "$t" "$raw" > "$raw/capture.log" 2>&1
      echo "$w/proj/.claude/skills" > "$raw/skills_dir.txt"
      ONLY=listing WORK=$w "$ORACLES/capture_claude_code.sh" "$t" "$raw/default-budget" > "$raw/default-budget.log" 2>&1 ;;
    codex)
      # Codex's skills budget (2% of the model's context window, capped at the model's 272k; stderr
      # "Exceeded skills context budget...") drops descriptions and skills of a large tree, and no
      # setting raises it past the cap: the verdict runs take CODEX_CHUNK folders at a time.
      local folders=() i=0 c
      mapfile -t folders < <(cd "$t" && ls -d */ | sed 's#/$##' | LC_ALL=C sort)
      while [ $i -lt ${#folders[@]} ]; do
        c=$(printf 'c%02d' $((i / CODEX_CHUNK + 1)))
        rm -rf "$OUT/raw/chunk"; mkdir -p "$OUT/raw/chunk"
        for f in "${folders[@]:$i:$CODEX_CHUNK}"; do cp -al "$t/$f" "$OUT/raw/chunk/$f"; done
        ONLY=listing WORK=$w "$ORACLES/capture_codex.sh" "$OUT/raw/chunk" "$raw/$c" > "$raw/$c.log" 2>&1
        grep -a -q 'Exceeded skills context budget' "$raw/$c/listing/stderr.txt" && log "WARN codex $2 $c: over the skills budget even in a chunk of $CODEX_CHUNK"
        i=$((i + CODEX_CHUNK))
      done
      rm -rf "$OUT/raw/chunk"
      echo "$w/proj/.agents/skills" > "$raw/skills_dir.txt"
      ONLY=listing WORK=$w "$ORACLES/capture_codex.sh" "$t" "$raw/default-budget" > "$raw/default-budget.log" 2>&1 ;;
    cline)
      ONLY=listing TOOL_RUNS=0 WORK=$w "$ORACLES/capture_cline.sh" "$t" "$raw" > "$raw/capture.log" 2>&1
      echo "$w/proj/.cline/skills" > "$raw/skills_dir.txt" ;;
    kimi-cli)
      SLASH="" ONLY=listing WORK=$w "$ORACLES/capture_kimi_cli.sh" "$t" "$raw" > "$raw/capture.log" 2>&1
      echo "$w/proj/.kimi/skills" > "$raw/skills_dir.txt" ;;
    mistral-vibe)
      ACTIVATE="" ONLY=listing WORK=$w "$ORACLES/capture_mistral_vibe.sh" "$t" "$raw" > "$raw/capture.log" 2>&1
      echo "$w/proj/.vibe/skills" > "$raw/skills_dir.txt" ;;
    gemini-cli)
      KEEP_BUNDLED=1 ONLY=listing WORK=$w "$ORACLES/capture_gemini.sh" "$t" "$raw" > "$raw/capture.log" 2>&1
      echo "$w/proj/.gemini/skills" > "$raw/skills_dir.txt" ;;
    qwen-code)
      ACTIVATE="" QWEN_ARGS=--debug WORK=$w "$ORACLES/capture_qwen_code.sh" "$t" "$raw" > "$raw/capture.log" 2>&1
      echo "$w/proj/.qwen/skills" > "$raw/skills_dir.txt" ;;
    copilot-cli)
      # no chunks: Copilot's 15,000-character budget only moves entries into the "Additional
      # skills available" line, which still lists them (name only)
      ONLY=listing TOOL_RUNS=0 TIMEOUT=300 WORK=$w "$ORACLES/capture_copilot_cli.sh" "$t" "$raw" > "$raw/capture.log" 2>&1
      echo "$w/proj/.github/skills" > "$raw/skills_dir.txt" ;;
    opencode)
      ONLY=listing TOOL_RUNS=0 TIMEOUT=300 WORK=$w "$ORACLES/capture_opencode.sh" "$t" "$raw" > "$raw/capture.log" 2>&1
      echo "$w/proj/.opencode/skills" > "$raw/skills_dir.txt" ;;
    deepagents)
      "$PY" "$ORACLES/deepagents_prompt.py" --mode json "$t" > "$raw/metadata.json" 2> "$raw/stderr.txt" ;;
    letta-code)
      rm -rf "$w"; mkdir -p "$w/home" "$w/proj/.agents/skills" "$raw/listing"; cp -r "$t"/. "$w/proj/.agents/skills"/
      echo "$w/proj/.agents/skills" > "$raw/skills_dir.txt"
      (cd "$w/proj" && env -i PATH="$PATH" HOME="$w/home" TERM=dumb LANG=C.UTF-8 LETTA_LOCAL_BACKEND_EXPERIMENTAL=1 \
        LMSTUDIO_BASE_URL=http://127.0.0.1:18080/v1 LETTA_CODE_TELEM=0 DO_NOT_TRACK=1 LETTA_DISABLE_LSP_DOWNLOAD=1 \
        LETTA_DEBUG=1 LETTA_DEBUG_FILE="$raw/listing/debug.log" _D="$raw/listing" _BIN="$LETTA_BIN" _MOCK="$ORACLES/mock_llm_server_ext.py" \
        unshare -n bash -c '
          ip link set lo up; python3 "$_MOCK" --log "$_D/requests.jsonl" --port 18080 --models mock-model & mp=$!
          for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/18080) 2>/dev/null && break; sleep 0.1; done
          timeout 300 "$_BIN" --backend local -m lmstudio/mock-model --new-agent --no-bundled-skills -p hello \
            < /dev/null > "$_D/stdout.txt" 2> "$_D/stderr.txt"
          rc=$?; kill $mp; wait $mp 2>/dev/null; exit $rc')
      echo $? > "$raw/listing/rc.txt" ;;
    skills-ref)
      local d f
      for d in "$t"/*/; do
        f=$(basename "$d")
        "$AGENTSKILLS_BIN" validate "$d" > "$raw/validate-$f.txt" 2>&1; echo $? > "$raw/validate-$f.rc"
      done ;;
  esac
  [ -f "$raw/listing/rc.txt" ] && [ "$(cat "$raw/listing/rc.txt")" != 0 ] && log "WARN $a $2: listing rc=$(cat "$raw/listing/rc.txt")"
  return 0
}

for a in $AGENTS; do
  for p in $PARTS nested; do
    log "$a $p"
    run_cli "$a" "$p" "$OUT/raw/$a/$p"
  done
  "$PY" "$HELP/verdicts.py" "$OUT" "$a"
done
fi  # ONLY_OURS

# ------------------------------------------------------------------------------------------ ours
log "ours: $SKILLKIT"
"$SKILLKIT" --version > "$OUT/ours/version.txt" 2>&1
for a in $AGENTS; do
  sa=$a; [ "$a" = skills-ref ] && sa=agentskills
  for p in $PARTS nested; do
    d=$OUT/raw/ours/$a/$p; mkdir -p "$d"
    # prompt.json: with the budget lifted as in the verdict runs; prompt-default-budget.json: as shipped
    budget=(); [ "$a" = claude-code ] && budget=(--char-budget 100000000); [ "$a" = codex ] && budget=(--context-window 1000000000)
    if [ "$a" != skills-ref ]; then
      "$SKILLKIT" prompt --agent "$sa" --format json "${budget[@]}" --source "$TREES/$p" > "$d/prompt.json" 2> "$d/prompt.stderr"
      case "$a" in claude-code|codex) "$SKILLKIT" prompt --agent "$sa" --format json --source "$TREES/$p" > "$d/prompt-default-budget.json" 2>/dev/null ;; esac
    fi
    "$SKILLKIT" check --agent "$sa" --format json "$TREES/$p" > "$d/check.json" 2> "$d/check.stderr"
  done
  "$PY" "$HELP/ours.py" "$OUT" "$a"
done

# nested tree: which SKILL.md files each agent lists (relative to the tree)
python3 - "$OUT" $AGENTS > "$OUT/nested.txt" <<'PYEOF'
import json, os, re, sys
OUT, agents = sys.argv[1], sys.argv[2:]
T = os.path.join(OUT, "trees", "nested")
all_md = sorted(os.path.relpath(os.path.join(r, "SKILL.md"), T) for r, d, f in os.walk(T) if "SKILL.md" in f)
print("SKILL.md files in the nested tree:", *all_md, sep="\n  ")
for a in agents:
    raw = os.path.join(OUT, "raw", a, "nested")
    rd = lambda p: open(p, encoding="utf-8", errors="replace").read() if os.path.exists(p) else ""
    got = []
    if a == "deepagents":
        for m in json.loads(rd(os.path.join(raw, "metadata.json")) or "{}").get("skills_metadata", []):
            got.append(os.path.relpath(m["path"], T) + f"  (name {m['name']})")
    elif a == "skills-ref":
        got = [f"{f[9:-3]}/SKILL.md (validate rc 0)" for f in sorted(os.listdir(raw)) if f.endswith(".rc") and rd(os.path.join(raw, f)).strip() == "0"]
    else:
        if a == "codex":
            raw = os.path.join(raw, "c01")  # the nested tree has fewer than CODEX_CHUNK top folders
        lst = rd(os.path.join(raw, "listing", "main.skills-listing.txt"))
        if a == "codex":
            got = [f"{m.group(2)}/SKILL.md  (name {m.group(1)})" for m in re.finditer(r"(?m)^- (.*?): .* \(file: r0/(.*)/SKILL\.md\)$", lst)]
            err = [re.sub(r"^\S+Z\s+", "", l) for l in rd(os.path.join(raw, "listing", "stderr.txt")).splitlines() if "ERROR" in l]
            got += ["stderr: " + l for l in err]
        elif a == "gemini-cli":
            base = rd(os.path.join(raw, "skills_dir.txt")).strip()
            got = [os.path.relpath(loc, base) + f"  (name {n})" for n, loc in re.findall(r"<name>(.*?)</name>\n\s*<description>.*?</description>\n\s*<location>(.*?)</location>", lst, re.S) if loc.startswith(base)]
        elif a == "cline":
            got = [f"{n}  (name only)" for n in lst[len("Available skills: "):].rstrip(".").split(", ")] if lst.startswith("Available skills: ") else []
        elif a == "letta-code":
            base = rd(os.path.join(raw, "skills_dir.txt")).strip()
            dbg = [l for l in rd(os.path.join(raw, "listing", "debug.log")).splitlines() if "sendMessageStream: client_skills (" in l]
            got = [f"{os.path.relpath(m.group(2), base)}  (id {m.group(1)})" for m in re.finditer(r"(?:^|, )(.*?) \((" + re.escape(base) + r"/[^()]*)\)(?=, |$)", dbg[-1].split(") ", 1)[1] if dbg else "")]
        elif a == "mistral-vibe":
            base = rd(os.path.join(raw, "skills_dir.txt")).strip()
            got = [os.path.relpath(loc, base) for loc in re.findall(r"<path>(.*?)</path>", lst) if loc.startswith(base)]
        elif a == "kimi-cli":
            base = rd(os.path.join(raw, "skills_dir.txt")).strip()
            got = [os.path.relpath(loc, base) for loc in re.findall(r"(?m)^  - Path: (.*)$", lst) if loc.startswith(base)]
        elif a == "opencode":
            base = rd(os.path.join(raw, "skills_dir.txt")).strip()
            got = [os.path.relpath(loc, base) for loc in re.findall(r"<location>(.*?)</location>", lst) if loc.startswith(base)]
        elif a == "copilot-cli":
            got = [f"{n}  (name; <location> is a scope word)" for n in re.findall(r"<name>(.*?)</name>", lst)]
        elif a == "claude-code":
            got = [l for l in lst.splitlines()[2:] if l.startswith("- ") and not l.startswith("- plugin-authoring")]
            got = [re.sub(r":.*", "", l) for l in got]
    print(f"\n{a}: {len(got)}")
    for g in got:
        print("  " + g)
    # skillkit on the same tree: what `check --agent` reports and what `prompt --agent` lists
    od = os.path.join(OUT, "raw", "ours", a, "nested")
    try:
        cj = json.load(open(os.path.join(od, "check.json"), encoding="utf-8"))
        print(f"  ours, check: {len(cj.get('skills', []))} skills reported:", *[os.path.relpath(s['path'], T) + (' valid' if s.get('valid') else ' invalid') for s in cj.get("skills", [])], sep="\n    ")
    except Exception as e:  # noqa: BLE001
        print(f"  ours, check: unreadable ({e})")
    if a != "skills-ref":
        try:
            pj = json.load(open(os.path.join(od, "prompt.json"), encoding="utf-8"))
            print(f"  ours, prompt:", *[os.path.relpath(s['path'], T) + ' ' + s['decision'] for s in pj.get("skills", []) if s.get("path")], sep="\n    ")
        except Exception as e:  # noqa: BLE001
            print(f"  ours, prompt: unreadable ({e})")
PYEOF

# Claude Code and Codex under their default listing budgets: what the agent did with each skill (full,
# truncated, name-only, absent) next to our prompt's decision without a budget override
python3 - "$OUT" $AGENTS <<'PYEOF'
import json, os, re, sys
OUT, agents = sys.argv[1], sys.argv[2:]
FM = json.load(open(os.path.join(OUT, "frontmatter.json"), encoding="utf-8"))
rd = lambda p: open(p, encoding="utf-8", errors="replace").read() if os.path.exists(p) else ""
ws = lambda s: " ".join((s or "").split())
for a in ("claude-code", "codex"):
    if a not in agents:
        continue
    rows, warn = [], set()
    for lp, e in FM.items():
        part, f = os.path.dirname(e["tree_path"]), e["folder"]
        raw = os.path.join(OUT, "raw", a, part, "default-budget", "listing")
        lst = rd(os.path.join(raw, "main.skills-listing.txt"))
        for l in rd(os.path.join(raw, "stderr.txt")).splitlines():
            if "budget" in l:
                warn.add(f"{part}: {l.strip()}")
        if a == "claude-code":
            m = re.search(r"(?m)^- " + re.escape(f) + r"(?: \([^)]*\))?(?:: (.*))?$", lst)
            desc = None if not m else (m.group(1) or "")
        else:
            m = re.search(r"(?m)^- .*?: (.*?) ?\(file: r0/" + re.escape(f) + r"/SKILL\.md\)$", lst)
            desc = None if not m else m.group(1)
        fd = ws(e.get("description") or e.get("lenient_description") or "")
        if desc is None: st = "absent"
        elif desc == "": st = "name-only"
        elif ws(desc.replace("&lt;", "<").replace("&gt;", ">")) == fd or not fd: st = "full"
        else: st = f"truncated({len(desc)})"
        try:
            pj = json.load(open(os.path.join(OUT, "raw", "ours", a, part, "prompt-default-budget.json"), encoding="utf-8"))
            s = next((s for s in pj["skills"] if os.path.basename(os.path.dirname(s["path"])) == f), None)
            ours = "absent" if s is None else s["decision"]
            if s is not None and s["decision"] == "truncated" and "cut to 0 of" in s.get("reason", ""):
                ours = "truncated-to-0"  # Codex: the line keeps `name: (file: ...)`, i.e. name only
        except Exception:  # noqa: BLE001
            ours = "?"
        same = {"absent": ("absent", "invalid", "dropped", "hidden", "shadowed"), "name-only": ("name-only", "truncated-to-0"), "full": ("full",)}.get(st.split("(")[0], ("truncated",))
        rows.append(f"{lp}\t{st}\t{ours}\t{'yes' if ours in same else 'NO'}")
    with open(os.path.join(OUT, f"{a}-default-budget.tsv"), "w", encoding="utf-8") as fo:
        fo.write("path\treal (default budget)\tour prompt (default budget)\tagree\n")
        fo.write("\n".join(sorted(rows)) + "\n")
        for w in sorted(warn):
            fo.write(f"# {w}\n")
PYEOF

# Listing order: the real agent's order of the library's skills vs our prompt's (OUT/order.md)
python3 - "$OUT" $AGENTS > "$OUT/order.md" <<'PYEOF'
import html, json, os, re, sys
OUT, agents = sys.argv[1], sys.argv[2:]
FM = json.load(open(os.path.join(OUT, "frontmatter.json"), encoding="utf-8"))
rd = lambda p: open(p, encoding="utf-8", errors="replace").read() if os.path.exists(p) else ""
parts = sorted({os.path.dirname(e["tree_path"]) for e in FM.values()})
print("# Listing order, real agent vs skillkit prompt (same budget as the real run)\n")
for a in agents:
    if a == "skills-ref":
        continue
    for part in parts:
        members = {e["folder"] for e in FM.values() if os.path.dirname(e["tree_path"]) == part}
        raw = os.path.join(OUT, "raw", a, part)
        ours_f = "prompt.json"
        if a == "claude-code":
            real = [m.group(1) for m in re.finditer(r"(?m)^- (\S+?)(?: \(.*?\))?(?::|$)", rd(os.path.join(raw, "listing", "main.skills-listing.txt"))) if m.group(1) in members]
        elif a == "codex":
            real = [m.group(1) for m in re.finditer(r"\(file: r0/(.*?)/SKILL\.md\)$", rd(os.path.join(raw, "default-budget", "listing", "main.skills-listing.txt")), re.M)]
            ours_f = "prompt-default-budget.json"
        elif a == "gemini-cli":
            base = rd(os.path.join(raw, "skills_dir.txt")).strip()
            real = [os.path.basename(os.path.dirname(l)) for l in re.findall(r"<location>(.*?)</location>", rd(os.path.join(raw, "listing", "main.skills-listing.txt"))) if l.startswith(base + "/")]
        elif a == "mistral-vibe":
            base = rd(os.path.join(raw, "skills_dir.txt")).strip()
            real = [os.path.basename(os.path.dirname(l)) for l in re.findall(r"<path>(.*?)</path>", rd(os.path.join(raw, "listing", "main.skills-listing.txt"))) if l.startswith(base + "/")]
        elif a == "kimi-cli":
            base = rd(os.path.join(raw, "skills_dir.txt")).strip()
            real = [os.path.basename(os.path.dirname(l)) for l in re.findall(r"(?m)^  - Path: (.*)$", rd(os.path.join(raw, "listing", "main.skills-listing.txt"))) if l.startswith(base + "/")]
        elif a == "deepagents":
            real = [os.path.basename(os.path.dirname(m["path"])) for m in json.loads(rd(os.path.join(raw, "metadata.json")) or "{}").get("skills_metadata", [])]
        elif a == "cline":
            desc = rd(os.path.join(raw, "listing", "main.skills-listing.txt"))
            names = desc[len("Available skills: "):].rstrip(".").split(", ") if desc.startswith("Available skills: ") else []
            by_name = {}
            for e in FM.values():
                if os.path.dirname(e["tree_path"]) == part:
                    for v in (e.get("name"), e.get("lenient_name"), e["folder"]):
                        if isinstance(v, str) and v.strip():
                            by_name.setdefault(v.strip(), e["folder"]); by_name.setdefault(v.strip().lower(), e["folder"])
            real = [by_name.get(n, "?" + n) for n in names]
        elif a == "qwen-code":  # names in listing order, tied to folders by the debug log (first in byte order)
            base = rd(os.path.join(raw, "skills_dir.txt")).strip()
            folder = {}
            for f, n in sorted(((m.group(2), m.group(1)) for m in re.finditer(r"Successfully parsed skill: (.*) \(project\) from " + re.escape(base) + r"/(.*)/SKILL\.md$", rd(os.path.join(raw, "listing", "debug-skills.txt")), re.M)), key=lambda x: x[0].encode()):
                folder.setdefault(n, f)
            import html
            real = [folder.get(html.unescape(n), "?") for n in re.findall(r"<skill>\n<name>\n(.*?)\n</name>", rd(os.path.join(raw, "listing", "main.skills-listing.txt")))]
        elif a == "opencode":
            base = rd(os.path.join(raw, "skills_dir.txt")).strip()
            real = [os.path.basename(os.path.dirname(html.unescape(l))) for l in re.findall(r"<location>(.*?)</location>", rd(os.path.join(raw, "listing", "main.skills-listing.txt"))) if html.unescape(l).startswith(base + "/")]
        elif a == "copilot-cli":  # names (entries, then the Additional line) tied to folders as in the verdicts
            lst = rd(os.path.join(raw, "listing", "main.skills-listing.txt"))
            names = [html.unescape(n) for n, loc in re.findall(r"<skill>\n  <name>(.*?)</name>\n.*?<location>(.*?)</location>", lst, re.S) if loc == "project"]
            m = re.search(r"(?m)^Additional skills available \(invoke by name\): (.*)$", lst)
            if m:
                names += re.sub(r"\.\.\. and \d+ more$", "", m.group(1)).split(", ")
            folder = {}
            for e in FM.values():
                if os.path.dirname(e["tree_path"]) == part and e.get("frontmatter") and "yaml_error" not in e:  # Copilot loads no other
                    n = e.get("name")
                    folder.setdefault(n.replace(" ", "-") if isinstance(n, str) and n.strip() else e["folder"], e["folder"])
            real = [folder.get(n, "?" + n) for n in names]
        elif a == "letta-code":
            # the block's ids in order, each mapped to its folder by the debug log's `ID (PATH)` list
            base = rd(os.path.join(raw, "skills_dir.txt")).strip()
            dbg = [l for l in rd(os.path.join(raw, "listing", "debug.log")).splitlines() if "sendMessageStream: client_skills (" in l]
            folder = {}
            for m in re.finditer(r"(?:^|, )(.*?) \(" + re.escape(base) + r"/([^()]*)/(?:SKILL|skill)\.md\)(?=, |$)", dbg[-1].split(") ", 1)[1] if dbg else ""):
                folder.setdefault(m.group(1), m.group(2))
            body = next((json.loads(l)["body"] for l in rd(os.path.join(raw, "listing", "requests.jsonl")).splitlines() if '"messages"' in l), {})
            m0 = (body.get("messages") or [{}])[0].get("content", "")
            m0 = m0 if isinstance(m0, str) else "".join(p.get("text", "") for p in m0)
            ids = re.findall(r"(?m)^- `(.*?)`", m0[m0.rfind("<available_skills>"):]) if "<available_skills>" in m0 else []
            real = [folder[i] for i in ids if folder.get(i) in members]
        else:
            real = []
        try:
            pj = json.load(open(os.path.join(OUT, "raw", "ours", a, part, ours_f), encoding="utf-8"))
            ours = [os.path.basename(os.path.dirname(x["path"])) for x in sorted((x for x in pj["skills"] if x.get("range") and x["path"]), key=lambda x: x["range"]["start"])]
        except Exception:  # noqa: BLE001
            ours = []
        if real == ours:
            print(f"- {a} {part}: same order ({len(real)} skills)")
        else:
            i = next((k for k, (x, y) in enumerate(zip(real, ours)) if x != y), min(len(real), len(ours)))
            moved = sum(1 for k in range(min(len(real), len(ours))) if real[k] != ours[k])
            print(f"- {a} {part}: DIFFERENT order ({len(real)} real, {len(ours)} ours, {moved} positions differ); first at {i}: real {real[i:i + 4]} ours {ours[i:i + 4]}")
PYEOF

# ------------------------------------------------------------------------------------------ summary
python3 - "$OUT" $AGENTS > "$OUT/summary.md" <<'PYEOF'
import collections, os, sys
OUT, agents = sys.argv[1], sys.argv[2:]
print("# Real agents vs skillkit on ../shared/corpus\n")
print("Counts per agent and library: real listed / misread / skipped | our prompt lists | our check valid | disagreements (prompt, check)\n")
print("Skills whose outcome depends on chance (OpenCode's duplicate-name race) are compared as their group of copies of one name:")
print("the group agrees when the agent and skillkit each list exactly one copy (column `by chance`; not a disagreement).\n")
print("`dropped`: loaded by the agent but left out by its listing budget (Copilot: past the cap of its `Additional skills")
print("available` line); it agrees with our prompt's `dropped` and with check's `valid`.\n")
print("| agent | library | skills | listed | misread | dropped | skipped | our prompt lists | our check valid | by chance | prompt≠real | check≠real |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
dis = {}
for a in agents:
    p = os.path.join(OUT, "compare", f"{a}.tsv")
    if not os.path.exists(p):
        continue
    rows = [l.rstrip("\n").split("\t") for l in open(p, encoding="utf-8")][1:]
    by = collections.defaultdict(list)
    for r in rows:
        by[r[0].split("/")[0]].append(r)
    for lib, rs in sorted(by.items()):
        c = collections.Counter(r[1] for r in rs)
        pl = sum(1 for r in rs if r[2].split(" ")[0] in ("full", "truncated", "name-only"))
        cv = sum(1 for r in rs if r[3] == "valid")
        print(f"| {a} | {lib} | {len(rs)} | {c['listed']} | {c['misread']} | {c['dropped']} | {c['skipped']} | {pl if a != 'skills-ref' else '-'} | {cv} | {sum(1 for r in rs if r[6] == 'chance' or r[7] == 'chance')} | {sum(1 for r in rs if r[6] == 'NO')} | {sum(1 for r in rs if r[7] == 'NO')} |")
    dis[a] = [r for r in rows if r[6] == "NO" or r[7] == "NO"]
for a, rs in dis.items():
    print(f"\n## {a}: {len(rs)} disagreements\n")
    for r in rs:
        print(f"- `{r[0]}`: real **{r[1]}** ({r[8][:300]}); our prompt `{r[2]}`; our check **{r[3]}** {r[4]} {('— ' + r[9][:300]) if r[9] else ''}")
PYEOF
log "done: $OUT (summary.md, order.md, <agent>.tsv, compare/, nested.txt)"
