#!/usr/bin/env bash
# Re-capture the prompt goldens: the exact text real agent programs inject to advertise skills, for
# every test tree in tests/fixtures/prompt-trees/, kept as small machine-independent files in
# tests/fixtures/prompt-goldens/<agent>-<version>/<tree>/ (issue #4: `skillkit prompt --agent NAME`).
#
#   tests/oracles/capture_prompts.sh [OUT]              OUT defaults to tests/fixtures/prompt-goldens
#   tests/oracles/capture_prompts.sh --generate         only rewrite the generated trees (budget-60, long-desc)
#
# 1. Install the real programs (pinned: deepagents 0.7.32, skills-ref 0.1.1, @anthropic-ai/claude-code
#    2.1.332, @openai/codex 0.171.0, @google/gemini-cli 0.61.0) and export the env lines it prints:
#        CLAUDE_CODE_VERSION=2.1.332 CODEX_VERSION=0.171.0 bash /work/shared/oracles/install_oracles.sh /tmp/oracles
#    (only the selected AGENTS' programs are needed; tests/oracles/drift.sh runs this script per agent)
#        export PY=/tmp/oracles/venv-da/bin/python AGENTSKILLS_BIN=/tmp/oracles/venv-sr/bin/agentskills \
#          CLAUDE_BIN=/tmp/oracles/npm/node_modules/.bin/claude CODEX_BIN=/tmp/oracles/npm/node_modules/.bin/codex \
#          GEMINI_BIN=/tmp/oracles/npm/node_modules/.bin/gemini
#    (If those variables are unset and /tmp/oracles holds the install, they are set from it.)
# 2. Run this script. It calls the shared capture scripts unchanged (ORACLES, default
#    /work/shared/oracles: capture_{deepagents,skills_ref,claude_code,codex,gemini}.sh, the same runs as
#    capture_all.sh; see /work/shared/reference/oracles.md), writes their raw output under RAW (default
#    /tmp/skillkit-prompt-raw, wiped), and copies only the small exact outputs into OUT (the agent's
#    folder is replaced; other agents' folders are left alone). Nothing leaves the machine: the CLIs
#    talk to a local mock API. About 10 minutes on 2 cores.
#    Optional env: ONLY_TREES="minimal chars ..." (default: every tree + the `override` pair),
#    AGENTS="deepagents skills-ref claude-code codex gemini-cli" (default: all), SCRATCH (default
#    /tmp/skillkit-oracle-work: the agents' WORK folders, which appear in captured paths).
#
# Trees: each tree is a folder of skill folders. `override` is not a folder: it is the pair
# override-base (lower priority) + override-project (higher priority) captured as two sources:
#   deepagents  deepagents_prompt.py with two real-path sources (section-real.txt) and two virtual
#               sources /skills/base/ + /skills/project/ (section-virtual.txt)
#   claude-code override-base in ~/.claude/skills (user), override-project in .claude/skills (project)
#   codex       override-base in ~/.agents/skills, override-project in the repo's .agents/skills
#   gemini-cli  override-base in ~/.gemini/skills (user), override-project in .gemini/skills (project)
#   skills-ref  has no sources (not captured for `override`)
# The shared scripts accept one TREE, so the extra (user-level) source is put in place by a small
# wrapper used as *_BIN that copies override-base into $HOME/... only when HOME is the capture's
# scratch home, then execs the real CLI.
#
# Claude Code's listing budget (budget-60 only): besides the default run (listing.txt), runs with the
# env var SLASH_COMMAND_TOOL_CHAR_BUDGET=4000 and =8000 (listing-char-budget-4000.txt / -8000.txt),
# given through `--settings FILE` with {"env": {...}} because the capture script starts the CLI under
# `env -i`. budget-60 runs only the listing for the CLIs (no per-skill slash/tool/mention/activate runs).
#
# Kept per agent (all text exact, then path-normalised; JSON files are exact strings JSON-encoded):
#   deepagents-V/<tree>/    section-real.txt section-virtual.txt section-layered.txt
#                           section-missing-source.txt (+ .stderr when non-empty), metadata-real.json,
#                           agent-vs-section.txt (agent-real.txt only when it differs from section-real;
#                           budget-60: section-real.txt only)
#   skills-ref-V/<tree>/    all.txt all.rc all.stderr valid-only.txt, per folder one-F.txt/.rc/.stderr,
#                           (empty outputs are not kept: a missing .txt/.stderr next to its .rc means empty)
#                           validate-F.txt/.rc, properties-F.json/.rc (budget-60: all.* only)
#   claude-code-V/<tree>/   listing.txt (the "The following skills are available…" listing, bundled
#                           skills disabled; its last line is the built-in plugin-authoring skill),
#                           tool-Skill.json, slash-F.json (claude -p "/F some args": the user message's
#                           text blocks except the <system-reminder> one, plus rc/stdout), tool-F.json
#                           (mock calls Skill({"skill": F, "args": "some args"}): the tool_result and text
#                           blocks that come back; -p mode denies skills with allowed-tools) and
#                           tool-F-allowedTools.json (same with --allowedTools Skill)
#   codex-V/<tree>/         listing.txt (<skills_instructions> block), load-errors.txt (stderr ERROR lines),
#                           mention-F.json (codex exec "use $F some args": the input items after the prompt)
#   codex-V/tool-exec_command.json  the shell tool as offered to the model (from the all-fields run): how
#                           Codex's model reads a skill's file
#   listing-only trees      claude-code: collation, same-name, builtin-names (+ listing-char-budget-1/-700.txt:
#                           names-only and mixed listings); gemini-cli: name-order, same-name. listing.txt only.
#   gemini-cli-V/<tree>/    listing.txt (# Available Agent Skills … </available_skills>),
#                           tool-activate_skill.json, activate-N.json (functionResponse output for each
#                           listed name N)
#   (tree `empty`: codex and gemini-cli send no skills section at all; they get no-listing.txt instead)
#   <agent>-V/meta.json     version, command lines, env vars that matter, date, per-tree status
# Each run's rc is recorded; a failed or empty capture is reported in meta.json and on stderr.
#
# Path normalisation (sed, in this order, on every kept file):
#   $TREES/<tree>  -> {TREE}     the tree being captured (real path of tests/fixtures/prompt-trees/<tree>)
#   $TREES         -> {TREES}    (override runs: {TREES}/override-base, {TREES}/override-project)
#   $SCRATCH/<agent> -> {WORK}   the agent's scratch WORK folder (home/, proj/, codex-home/, skills/ inside)
#   $REPO          -> {REPO}
#   $HOME          -> {HOME}
# plus: the timestamp at the start of codex's stderr ERROR lines is removed, and meta.json writes the
# shared scripts' folder as {ORACLES}. Random ids (tool-call ids) and dates are never kept.
# Compare an implementation against a golden by substituting the same placeholders back (or with
# /work/shared/oracles/compare_text.py --map).
set -uo pipefail

REPO=$(cd "$(dirname "$(realpath "$0")")/../.." && pwd)
TREES=$REPO/tests/fixtures/prompt-trees

generate() {  # deterministic generated trees
  python3 - "$TREES" <<'PYEOF'
import os, sys
root = sys.argv[1]
WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november "
         "oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu").split()
def text(seed, n, lead):
    out, i = lead, seed
    while len(out) < n:
        out += " " + WORDS[i % len(WORDS)]
        i += 7
    return (out[: n - 1].rstrip() + ".").ljust(n, ".")[:n]
def write(path, name, desc, body):
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "SKILL.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(f"---\nname: {name}\ndescription: {desc}\n---\n\n{body}\n")
for k in range(1, 61):
    name = f"budget-skill-{k:02d}"
    d = text(k, 400, f"Budget test skill number {k}. Use it when the task mentions code word {WORDS[k % 26]}.")
    write(os.path.join(root, "budget-60", name), name, d, f"Body of budget skill {k}.")
d = text(3, 1100, "A deliberately long description that runs past the 1024-character limit of the specification.")
write(os.path.join(root, "long-desc", "long-desc-skill"), "long-desc-skill", d, "Body of the long-description skill.")
PYEOF
}
if [ "${1:-}" = --generate ]; then generate; echo "generated budget-60 and long-desc in $TREES"; exit 0; fi

OUT=$(realpath -m "${1:-$REPO/tests/fixtures/prompt-goldens}")
ORACLES=${ORACLES:-/work/shared/oracles}
RAW=${RAW:-/tmp/skillkit-prompt-raw}
SCRATCH=${SCRATCH:-/tmp/skillkit-oracle-work}
if [ -z "${CLAUDE_BIN:-}" ] && [ -x /tmp/oracles/npm/node_modules/.bin/claude ]; then
  export PY=/tmp/oracles/venv-da/bin/python AGENTSKILLS_BIN=/tmp/oracles/venv-sr/bin/agentskills \
    CLAUDE_BIN=/tmp/oracles/npm/node_modules/.bin/claude CODEX_BIN=/tmp/oracles/npm/node_modules/.bin/codex \
    GEMINI_BIN=/tmp/oracles/npm/node_modules/.bin/gemini
fi
ALL_TREES="all-fields minimal override-base override-project override empty invalid chars long-desc blocks crlf unicode claude-fields budget-60 tolerated"
TREES_SEL=${ONLY_TREES:-$ALL_TREES}
AGENTS=${AGENTS:-deepagents skills-ref claude-code codex gemini-cli}
# Listing-only trees, captured for one agent each (the listing run only, only listing.txt kept, plus the
# budget runs named below): with the default ONLY_TREES every agent gets its own; with ONLY_TREES an
# agent gets the ones named there.
declare -A EXTRA_TREES=([claude-code]="collation same-name builtin-names" [gemini-cli]="name-order same-name")
is_extra() { [[ " ${EXTRA_TREES[*]} " == *" $1 "* ]]; }
agent_trees() {  # agent: the trees it captures, in order
  local a=$1 t
  for t in $TREES_SEL; do
    if is_extra "$t" && [[ " ${EXTRA_TREES[$a]:-} " != *" $t "* ]]; then continue; fi
    echo "$t"
  done
  [ -n "${ONLY_TREES:-}" ] || echo ${EXTRA_TREES[$a]:-}
}
# Only the selected agents' programs are required (tests/oracles/drift.sh runs one agent at a time).
for a in $AGENTS; do
  case "$a" in
    deepagents) : "${PY:?set PY (see the header)}" ;; skills-ref) : "${AGENTSKILLS_BIN:?}" ;;
    claude-code) : "${CLAUDE_BIN:?}" ;; codex) : "${CODEX_BIN:?}" ;; gemini-cli) : "${GEMINI_BIN:?}" ;;
    *) echo "capture_prompts.sh: unknown agent $a" >&2; exit 2 ;;
  esac
done
DATE=$(date -u +%FT%TZ)
rm -rf "$RAW"; mkdir -p "$RAW" "$SCRATCH" "$OUT"
FAILS=$RAW/failures.txt; : > "$FAILS"

fail() { echo "FAIL $*" | tee -a "$FAILS" >&2; }

norm() {  # norm TREE_PATH WORK_PATH < in > out
  local h=(); [ "${#HOME}" -gt 1 ] && h=(-e "s#$HOME/#{HOME}/#g")
  sed -e "s#$1#{TREE}#g" -e "s#$TREES#{TREES}#g" -e "s#$2#{WORK}#g" -e "s#$REPO#{REPO}#g" "${h[@]}"
}
keep() {  # keep SRC DEST TREE_PATH WORK_PATH: copy one file, normalised
  [ -f "$1" ] || { fail "missing $1"; return 1; }
  mkdir -p "$(dirname "$2")"; norm "$3" "$4" < "$1" > "$2"
}

# Python helper: pull the small exact pieces out of a mock request log (JSON, strings exact).
pick() {  # pick KIND RUNDIR > json
  python3 - "$@" <<'PYEOF'
import json, os, sys
kind, d = sys.argv[1], sys.argv[2]
reqs = []
if os.path.exists(os.path.join(d, "requests.jsonl")):
    for line in open(os.path.join(d, "requests.jsonl"), encoding="utf-8"):
        e = json.loads(line)
        if e.get("method") == "POST" and isinstance(e.get("body"), dict):
            reqs.append(e["body"])
rd = lambda f: open(os.path.join(d, f), encoding="utf-8", errors="replace").read() if os.path.exists(os.path.join(d, f)) else None
out = {"rc": int((rd("rc.txt") or "-1").strip()), "requests": len(reqs), "stdout": rd("stdout.txt")}
def texts(content):
    if isinstance(content, str):
        return [content]
    return [c.get("text") for c in content if c.get("type") == "text"]
if kind == "claude-slash":
    if reqs:
        out["blocks"] = [t for t in texts(reqs[-1]["messages"][0]["content"]) if not t.startswith("<system-reminder>")]
elif kind == "claude-tool":
    if len(reqs) >= 2:
        last = reqs[-1]["messages"][-1]["content"]
        for c in last:
            if c.get("type") == "tool_result":
                out["tool_result"] = c.get("content"); out["is_error"] = bool(c.get("is_error", False))
        out["blocks"] = [c["text"] for c in last if c.get("type") == "text"]
elif kind == "codex-mention":
    if reqs:
        inp = reqs[-1]["input"]
        i = max(k for k, it in enumerate(inp) if it.get("role") == "user" and any(
            c.get("text", "").startswith("use $") for c in it.get("content", [])))
        out["prompt_item_index"] = i
        out["items_after_prompt"] = [{"role": it.get("role"), "texts": [c.get("text") for c in it.get("content", [])]}
                                     for it in inp[i + 1:]]
elif kind == "codex-exec-tool":
    out = next((t for r in reqs for t in r.get("tools", []) if t.get("name") == "exec_command"), None)
elif kind == "gemini-activate":
    if len(reqs) >= 2:
        for part in reqs[-1]["contents"][-1]["parts"]:
            fr = part.get("functionResponse")
            if fr:
                out["function_response"] = fr.get("response")
json.dump(out, sys.stdout, ensure_ascii=False, indent=2)
sys.stdout.write("\n")
PYEOF
}

# Wrapper CLI for the `override` pair: puts override-base at the user level inside the scratch HOME.
make_wrapper() {  # make_wrapper REAL_BIN USER_SKILLS_REL WORK > path
  local w="$RAW/wrap-$(basename "$1")"
  cat > "$w" <<EOF
#!/bin/sh
case "\$HOME" in
  "$3"/*) if [ ! -e "\$HOME/$2" ]; then mkdir -p "\$HOME/$2" && cp -r "$TREES/override-base/." "\$HOME/$2/"; fi ;;
esac
exec "$1" "\$@"
EOF
  chmod +x "$w"; echo "$w"
}

tree_src() { [ "$1" = override ] && echo "$TREES/override-project" || echo "$TREES/$1"; }

# ---------------------------------------------------------------------------------------------- agents
cap_deepagents() {  # tree
  local t=$1 raw=$RAW/deepagents/$1 work=$SCRATCH/deepagents dst=${GOLD[deepagents]}/$1 f
  if [ "$t" = override ]; then
    mkdir -p "$raw"; rm -rf "$work"; mkdir -p "$work/skills"
    cp -r "$TREES/override-base" "$work/skills/base"; cp -r "$TREES/override-project" "$work/skills/project"
    "$PY" "$ORACLES/deepagents_prompt.py" "$TREES/override-base" "$TREES/override-project" > "$raw/section-real.txt" 2> "$raw/section-real.stderr"
    "$PY" "$ORACLES/deepagents_prompt.py" --root "$work" /skills/base/ /skills/project/ > "$raw/section-virtual.txt" 2> "$raw/section-virtual.stderr"
    "$PY" "$ORACLES/deepagents_prompt.py" --mode json "$TREES/override-base" "$TREES/override-project" > "$raw/metadata-real.json" 2> /dev/null
    for f in section-real.txt section-virtual.txt metadata-real.json; do keep "$raw/$f" "$dst/$f" "$TREES/override" "$work"; done
  else
    WORK=$work "$ORACLES/capture_deepagents.sh" "$TREES/$t" "$raw" > "$raw.log" 2>&1 || fail "deepagents $t: capture rc=$?"
    local files="section-real.txt section-virtual.txt section-layered.txt section-missing-source.txt metadata-real.json agent-vs-section.txt"
    [ "$t" = budget-60 ] && files="section-real.txt agent-vs-section.txt"
    for f in $files; do
      keep "$raw/$f" "$dst/$f" "$TREES/$t" "$work"
    done
    cmp -s "$raw/agent-real.txt" "$raw/section-real.txt" || keep "$raw/agent-real.txt" "$dst/agent-real.txt" "$TREES/$t" "$work"
  fi
  local tp=$TREES/$t
  for f in "$raw"/*.stderr; do [ -s "$f" ] && keep "$f" "$dst/$(basename "$f")" "$tp" "$work"; done
  return 0
}

cap_skills_ref() {
  local t=$1 raw=$RAW/skills-ref/$1 dst=${GOLD[skills-ref]}/$1 f
  [ "$t" = override ] && return 0
  "$ORACLES/capture_skills_ref.sh" "$TREES/$t" "$raw" > "$raw.log" 2>&1 || fail "skills-ref $t: capture rc=$?"
  for f in "$raw"/*; do
    case "$(basename "$f")" in
      version.txt) continue ;;
      all.*|valid-only.txt) ;;
      *) [ "$t" = budget-60 ] && continue ;;
    esac
    [ -s "$f" ] || continue   # empty stdout/stderr: not kept (the .rc file says what happened)
    [ "$t" = budget-60 ] && [ "$(basename "$f")" = valid-only.txt ] && cmp -s "$f" "$raw/all.txt" && continue
    keep "$f" "$dst/$(basename "$f")" "$TREES/$t" "$SCRATCH/skills-ref"
  done
}

claude_keep() {  # rawdir dst tree work [suffix]
  local raw=$1 dst=$2 tp=$3 work=$4 sfx=${5:-} d n
  for d in "$raw"/*/; do
    [ -d "$d" ] || continue; n=$(basename "$d")
    case "$n" in
      listing)
        keep "$d/main.skills-listing.txt" "$dst/listing$sfx.txt" "$tp" "$work"
        [ -z "$sfx" ] && keep "$d/main.tool-Skill.json" "$dst/tool-Skill.json" "$tp" "$work"
        [ "$(cat "$d/rc.txt")" = 0 ] || fail "claude-code $n$sfx rc=$(cat "$d/rc.txt")" ;;
      slash-*) pick claude-slash "$d" | norm "$tp" "$work" > "$dst/$n$sfx.json" ;;
      tool-*) pick claude-tool "$d" | norm "$tp" "$work" > "$dst/$n$sfx.json" ;;
    esac
  done
}

cap_claude_code() {
  local t=$1 raw=$RAW/claude-code/$1 work=$SCRATCH/claude-code dst=${GOLD[claude-code]}/$1 bin=$CLAUDE_BIN src tools
  src=$(tree_src "$t"); mkdir -p "$dst"
  [ "$t" = override ] && bin=$(make_wrapper "$CLAUDE_BIN" .claude/skills "$work")
  local only=() extra=() listing_only=0
  [[ " ${EXTRA_TREES[claude-code]} " == *" $t "* ]] && listing_only=1
  case "$t" in
    budget-60) only=(ONLY=listing) ;;
    empty) only=(ONLY=listing) ;;
    override) extra=(EXTRA_SLASH=base-only) ;;
    *) [ "$listing_only" = 1 ] && only=(ONLY=listing) ;;
  esac
  env "${only[@]}" "${extra[@]}" WORK=$work CLAUDE_BIN=$bin "$ORACLES/capture_claude_code.sh" "$src" "$raw/default" > "$raw.log" 2>&1 \
    || fail "claude-code $t: capture rc=$?"
  claude_keep "$raw/default" "$dst" "$src" "$work"
  if [ "$listing_only" = 1 ]; then
    rm -f "$dst/tool-Skill.json"
    # builtin-names: the names-only listing (budget 1: every entry loses its description) and a
    # mixed one (budget 700: the first entries keep theirs)
    if [ "$t" = builtin-names ]; then
      for b in 1 700; do
        printf '{"env": {"SLASH_COMMAND_TOOL_CHAR_BUDGET": "%s"}}\n' "$b" > "$RAW/claude-budget-$b.json"
        ONLY=listing WORK=$work CLAUDE_ARGS="--settings $RAW/claude-budget-$b.json" \
          "$ORACLES/capture_claude_code.sh" "$src" "$raw/budget-$b" >> "$raw.log" 2>&1 || fail "claude-code $t budget $b: rc=$?"
        claude_keep "$raw/budget-$b" "$dst" "$src" "$work" "-char-budget-$b"
      done
    fi
  elif [ "$t" = budget-60 ]; then
    for b in 4000 8000; do
      printf '{"env": {"SLASH_COMMAND_TOOL_CHAR_BUDGET": "%s"}}\n' "$b" > "$RAW/claude-budget-$b.json"
      ONLY=listing WORK=$work CLAUDE_ARGS="--settings $RAW/claude-budget-$b.json" \
        "$ORACLES/capture_claude_code.sh" "$src" "$raw/budget-$b" >> "$raw.log" 2>&1 || fail "claude-code $t budget $b: rc=$?"
      claude_keep "$raw/budget-$b" "$dst" "$src" "$work" "-char-budget-$b"
    done
  elif [ "$t" != empty ]; then
    tools=$(for s in "$src"/*/; do printf 'tool-%s ' "$(basename "$s")"; done)
    ONLY="$tools" CLAUDE_ARGS="--allowedTools Skill" WORK=$work CLAUDE_BIN=$bin \
      "$ORACLES/capture_claude_code.sh" "$src" "$raw/allowedTools" >> "$raw.log" 2>&1 || fail "claude-code $t allowedTools: rc=$?"
    claude_keep "$raw/allowedTools" "$dst" "$src" "$work" "-allowedTools"
  fi
}

cap_codex() {
  local t=$1 raw=$RAW/codex/$1 work=$SCRATCH/codex dst=${GOLD[codex]}/$1 bin=$CODEX_BIN src d n
  src=$(tree_src "$t"); mkdir -p "$dst"
  [ "$t" = override ] && bin=$(make_wrapper "$CODEX_BIN" .agents/skills "$work")
  local only=(); case "$t" in budget-60|empty) only=(ONLY=listing) ;; esac
  env "${only[@]}" WORK=$work CODEX_BIN=$bin "$ORACLES/capture_codex.sh" "$src" "$raw" > "$raw.log" 2>&1 || fail "codex $t: capture rc=$?"
  if [ -f "$raw/listing/main.skills-listing.txt" ]; then
    keep "$raw/listing/main.skills-listing.txt" "$dst/listing.txt" "$src" "$work"
  elif grep -q -e '<skills_instructions>' -e '## Skills' "$raw/listing/main.blocks.txt" 2>/dev/null; then
    fail "codex $t: listing not extracted"
  else
    printf 'no <skills_instructions> block in the request\n' > "$dst/no-listing.txt"
  fi
  [ "$(cat "$raw/listing/rc.txt")" = 0 ] || fail "codex $t listing rc=$(cat "$raw/listing/rc.txt")"
  # The shell tool the model reads a skill with (once, from all-fields: the same in every run)
  [ "$t" = all-fields ] && { pick codex-exec-tool "$raw/listing" | norm "$src" "$work" > "${GOLD[codex]}/tool-exec_command.json"; }
  # stderr ERROR lines with the leading timestamp removed (the only non-deterministic part)
  grep -a 'ERROR' "$raw/listing/stderr.txt" | sed -E 's/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z +//' | norm "$src" "$work" > "$dst/load-errors.txt"
  [ -s "$dst/load-errors.txt" ] || rm -f "$dst/load-errors.txt"
  for d in "$raw"/mention-*/; do
    [ -d "$d" ] || continue; n=$(basename "$d")
    pick codex-mention "$d" | norm "$src" "$work" > "$dst/$n.json"
  done
}

cap_gemini() {
  local t=$1 raw=$RAW/gemini-cli/$1 work=$SCRATCH/gemini-cli dst=${GOLD[gemini-cli]}/$1 bin=$GEMINI_BIN src d n
  src=$(tree_src "$t"); mkdir -p "$dst"
  [ "$t" = override ] && bin=$(make_wrapper "$GEMINI_BIN" .gemini/skills "$work")
  local only=() listing_only=0
  [[ " ${EXTRA_TREES[gemini-cli]} " == *" $t "* ]] && listing_only=1
  { [ "$t" = budget-60 ] || [ "$listing_only" = 1 ]; } && only=(ONLY=listing)
  env "${only[@]}" WORK=$work GEMINI_BIN=$bin "$ORACLES/capture_gemini.sh" "$src" "$raw" > "$raw.log" 2>&1 || fail "gemini-cli $t: capture rc=$?"
  [ "$(cat "$raw/listing/rc.txt")" = 0 ] || fail "gemini-cli $t listing rc=$(cat "$raw/listing/rc.txt")"
  if [ -f "$raw/listing/main.skills-listing.txt" ]; then
    keep "$raw/listing/main.skills-listing.txt" "$dst/listing.txt" "$src" "$work"
    keep "$raw/listing/main.tool-activate_skill.json" "$dst/tool-activate_skill.json" "$src" "$work"
  else
    # no skills: the section is absent; keep the proof (no "Available Agent Skills" in any block)
    if grep -q 'Available Agent Skills' "$raw/listing/main.blocks.txt" 2>/dev/null; then fail "gemini-cli $t: listing not extracted"
    else printf 'no "# Available Agent Skills" section in the request (the activate_skill tool is still offered)\n' > "$dst/no-listing.txt"; fi
    [ -f "$raw/listing/main.tool-activate_skill.json" ] && keep "$raw/listing/main.tool-activate_skill.json" "$dst/tool-activate_skill.json" "$src" "$work"
  fi
  grep -a -i 'skill' "$raw/listing/stderr.txt" | norm "$src" "$work" > "$dst/listing.stderr.txt"
  [ -s "$dst/listing.stderr.txt" ] || rm -f "$dst/listing.stderr.txt"
  [ "$listing_only" = 1 ] && find "$dst" -type f ! -name listing.txt -delete
  for d in "$raw"/activate-*/; do
    [ -d "$d" ] || continue; n=$(basename "$d")
    pick gemini-activate "$d" | norm "$src" "$work" > "$dst/$n.json"
  done
}

# ------------------------------------------------------------------------------------------------ main
declare -A VER
for a in $AGENTS; do
  case "$a" in
    deepagents) VER[$a]=$("$PY" "$ORACLES/deepagents_prompt.py" --version | awk '{print $2}') ;;
    skills-ref) VER[$a]=$("$AGENTSKILLS_BIN" --version | awk '{print $NF}') ;;
    claude-code) VER[$a]=$("$CLAUDE_BIN" --version | awk '{print $1}') ;;
    codex) VER[$a]=$("$CODEX_BIN" --version | awk '{print $NF}') ;;
    gemini-cli) VER[$a]=$("$GEMINI_BIN" --version | tail -1) ;;
  esac
  [ -n "${VER[$a]}" ] || { echo "capture_prompts.sh: cannot read the version of $a" >&2; exit 2; }
done
declare -A GOLD
for a in $AGENTS; do
  GOLD[$a]=$RAW/gold/$a-${VER[$a]}; mkdir -p "${GOLD[$a]}"
done

run_agent() {  # agent: every selected tree, in sequence
  local a=$1 t
  for t in $(agent_trees "$a"); do
    echo "[$a] $t" >&2
    case "$a" in
      deepagents) cap_deepagents "$t" ;; skills-ref) cap_skills_ref "$t" ;;
      claude-code) cap_claude_code "$t" ;; codex) cap_codex "$t" ;; gemini-cli) cap_gemini "$t" ;;
    esac
  done
}

for a in $AGENTS; do mkdir -p "$RAW/$a"; done
# The CLIs are independent (own scratch folders, own mock ports): run them side by side.
pids=()
for a in $AGENTS; do run_agent "$a" > "$RAW/$a.run.log" 2>&1 & pids+=($!); done
for p in "${pids[@]}"; do wait "$p"; done

write_meta() {  # agent
  local a=$1 cmd env
  case "$a" in
    deepagents) cmd="$ORACLES/capture_deepagents.sh TREE OUT (deepagents_prompt.py: SkillsMiddleware(backend=FilesystemBackend) section; override: deepagents_prompt.py {TREES}/override-base {TREES}/override-project and --root {WORK} /skills/base/ /skills/project/)"; env="PY WORK" ;;
    skills-ref) cmd="$ORACLES/capture_skills_ref.sh TREE OUT (agentskills to-prompt / validate / read-properties)"; env="AGENTSKILLS_BIN" ;;
    claude-code) cmd="$ORACLES/capture_claude_code.sh TREE OUT (claude -p 'hello' | '/F some args'; mock answers Skill({skill: F, args: 'some args'}); second pass CLAUDE_ARGS='--allowedTools Skill'; budget-60: ONLY=listing, plus CLAUDE_ARGS='--settings FILE' with {\"env\": {\"SLASH_COMMAND_TOOL_CHAR_BUDGET\": \"4000\"|\"8000\"}})"
      env="env -i HOME={WORK}/home ANTHROPIC_BASE_URL=http://127.0.0.1:PORT ANTHROPIC_API_KEY=dummy DISABLE_TELEMETRY=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 DISABLE_ERROR_REPORTING=1 DISABLE_BUG_COMMAND=1 CLAUDE_CODE_DISABLE_BUNDLED_SKILLS=1; cwd {WORK}/proj; skills in {WORK}/proj/.claude/skills (override-base: {WORK}/home/.claude/skills)" ;;
    codex) cmd="$ORACLES/capture_codex.sh TREE OUT (codex exec --skip-git-repo-check 'hello' | 'use \$F some args')"
      env="env -i HOME={WORK}/home CODEX_HOME={WORK}/codex-home MOCK_API_KEY=dummy; config.toml model=gpt-5.5, mock provider wire_api=responses, [skills.bundled] enabled=false; skills in {WORK}/proj/.agents/skills (git repo; override-base: {WORK}/home/.agents/skills)" ;;
    gemini-cli) cmd="$ORACLES/capture_gemini.sh TREE OUT (gemini -m gemini-3.1-pro-preview --approval-mode yolo -p 'hello'; mock answers activate_skill({name: N}))"
      env="env -i HOME={WORK}/home GEMINI_API_KEY=dummy GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:PORT GEMINI_CLI_TRUST_WORKSPACE=true; settings.json auth gemini-api-key, telemetry off, skills.disabled=[skill-creator, antigravity-support]; skills in {WORK}/proj/.gemini/skills (override-base: {WORK}/home/.gemini/skills)" ;;
  esac
  cmd=${cmd//$ORACLES/\{ORACLES\}}
  python3 - "$a" "${VER[$a]}" "$cmd" "$env" "$DATE" "${GOLD[$a]}" "$FAILS" "$(agent_trees "$a" | tr '\n' ' ')" <<'PYEOF'
import json, os, sys
a, ver, cmd, env, date, gold, fails, trees = sys.argv[1:9]
failed = [l.strip() for l in open(fails, encoding="utf-8") if l.startswith(f"FAIL {a} ")]
status = {}
for t in trees.split():
    d = os.path.join(gold, t)
    files = sorted(os.listdir(d)) if os.path.isdir(d) else []
    bad = [l for l in failed if l.startswith(f"FAIL {a} {t}:") or l.startswith(f"FAIL {a} {t} ")]
    if a == "skills-ref" and t == "override":
        status[t] = "not applicable (no sources)"; continue
    status[t] = {"files": len(files), "errors": bad} if bad or not files else len(files)
meta = {"agent": a, "version": ver, "captured": date, "command": cmd, "env": env,
        "capture_script": "tests/oracles/capture_prompts.sh",
        "path_placeholders": {"{TREE}": "tests/fixtures/prompt-trees/<tree> (real path)",
                              "{TREES}": "tests/fixtures/prompt-trees (real path)",
                              "{WORK}": "the agent's scratch WORK folder ($SCRATCH/<agent>)",
                              "{REPO}": "repository root", "{HOME}": "$HOME of the capturing user",
                              "{ORACLES}": "the shared oracle scripts (/work/shared/oracles)"},
        "trees": status}
json.dump(meta, open(os.path.join(gold, "meta.json"), "w", encoding="utf-8"), indent=2)
open(os.path.join(gold, "meta.json"), "a").write("\n")
PYEOF
}

for a in $AGENTS; do
  write_meta "$a"
  # empty goldens are a failure (an intentionally empty capture, e.g. all.txt of a failing run, is kept)
  find "${GOLD[$a]}" -type f -empty -printf 'note: empty golden %P\n' >&2
  dest=$OUT/$(basename "${GOLD[$a]}")
  if [ "$TREES_SEL" = "$ALL_TREES" ]; then rm -rf "$dest"; fi
  mkdir -p "$dest"; cp -r "${GOLD[$a]}"/. "$dest"/
done
[ -f "$OUT/.gitattributes" ] || printf '* -text\n' > "$OUT/.gitattributes"
echo "goldens: $OUT ($(du -sh "$OUT" | cut -f1)); raw: $RAW"
if [ -s "$FAILS" ]; then echo "failures:" >&2; cat "$FAILS" >&2; exit 1; fi
