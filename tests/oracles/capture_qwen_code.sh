#!/usr/bin/env bash
# Re-capture the Qwen Code prompt goldens (issue #39: `skillkit prompt --agent qwen-code`): the exact
# `<system-reminder>` text part the real `qwen "hello"` (0.24.4) puts first in its first user message,
# for the test trees in tests/fixtures/prompt-trees/, kept in
# tests/fixtures/prompt-goldens/qwen-code-<version>/<tree>/.
#
#   tests/oracles/capture_qwen_code.sh [OUT]        OUT defaults to tests/fixtures/prompt-goldens
#   tests/oracles/capture_qwen_code.sh --generate   only rewrite the generated trees (qwen-budget-at,
#                                                   qwen-budget-over)
#   BUNDLED=1 tests/oracles/capture_qwen_code.sh    Qwen Code's 16 bundled skills kept (its default,
#                                                   `skills.disabledLevels: []`): each tree goes to
#                                                   <tree>-bundled/ (default trees: BUNDLED_TREES below)
#
# 1. Install the real program (pinned 0.24.4; it asks for Node >= 22 and runs on 20) outside the
#    repository and point QWEN_BIN at it:
#        mkdir -p /tmp/oracles-qwen/npm && (cd /tmp/oracles-qwen/npm && npm init -y &&
#          npm install @qwen-code/qwen-code@0.24.4)
#        export QWEN_BIN=/tmp/oracles-qwen/npm/node_modules/.bin/qwen
#    (or `bash /work/shared/oracles/install_oracles_b.sh`, which prints QWEN_BIN.)
# 2. Run this script under the shared capture lock (captures of all agents share scratch folders):
#        flock /tmp/oracle-capture.lock tests/oracles/capture_qwen_code.sh
#    It calls the shared capture script unchanged (ORACLES, default /work/shared/oracles:
#    capture_qwen_code.sh, `--auth-type openai` against a local mock model inside `unshare -n`, bundled
#    skills switched off with `skills.disabledLevels: ["bundled"]`, `--debug`; see
#    /work/shared/reference/agents-more.md, "Qwen Code 0.24.4"), writes its raw output under RAW
#    (default /tmp/skillkit-prompt-raw-qwen, wiped) and copies the small exact pieces into OUT (the
#    agent's folder is replaced). Optional env: ONLY_TREES="minimal chars ..." (default: all below),
#    SCRATCH (default /tmp/skillkit-oracle-work: the capture's WORK is $SCRATCH/qwen-code).
#
# Trees: every single-source tree is copied into the project's `.qwen/skills`. `override` is
# override-base in the user folder `~/.qwen/skills` plus override-project in `.qwen/skills`.
# `agents-dup` is `minimal` in `.qwen/skills` plus `qwen-agents` in `.agents/skills` (both project).
#
# Kept per tree (text exact, then path-normalised):
#   listing.txt      messages[1].content[0].text of the first request: the skills `<system-reminder>`
#   skips.txt        the debug log's `Failed to parse skill at DIR: REASON` lines (timestamps cut,
#                    sorted: the files are parsed in parallel); absent when nothing was skipped
#   call-N.json      the mock calls skill({"skill": N}); {"tool_result": …}: the tool message's text
#   <agent>/tool-skill.json  the `skill` tool definition (the same on every tree)
#   <agent>/meta.json        version, command line, env, date, per-tree status
# Path normalisation: $TREES/<tree> -> {TREE}, $TREES -> {TREES}, the capture's WORK -> {WORK},
# $REPO -> {REPO}.
# What it shares with the other prompt captures (set-up, the per-tree loop, path normalisation,
# meta.json) is in tests/oracles/lib.sh.
set -uo pipefail
AGENT=qwen-code RAW_NAME=qwen
. "$(dirname "$(realpath "$0")")/lib.sh"

generate() {  # deterministic generated trees: the entries block at exactly 8000 UTF-16 units, and at 8001
  python3 - "$TREES" <<'PYEOF'
import json, os, shutil, sys
root = sys.argv[1]
WORDS = ("amber basil cedar dune ember fjord grove heath inlet juniper kelp loam moss nectar "
         "orchard pine quartz reed sage thyme umber vale willow yarrow zinnia").split()
def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&apos;")
def entry(name, desc, wtu):
    d = esc(desc) + (f" \u2014 {esc(wtu)}" if wtu else "") + " (project)"
    return f"<skill>\n<name>\n{esc(name)}\n</name>\n<description>\n{d}\n</description>\n<location>\nproject\n</location>\n</skill>"
def units(s):
    return len(s.encode("utf-16-le")) // 2
def words(seed, n):
    out, i = "", seed
    while len(out) < n:
        out += " " + WORDS[i % len(WORDS)]
        i += 3
    return out[1:n]
def make(tree, target):
    shutil.rmtree(os.path.join(root, tree), ignore_errors=True)
    skills = []
    for k in range(1, 21):
        name = f"qb-{k:02d}"
        first = f"  Budget line one of {name} & co.  " if k % 5 == 0 else f"Budget line one of {name}."
        desc = first + "\n" + words(k, 240) + "\nthird line."
        wtu = f"When the task names {name}." if k % 4 == 0 else None
        skills.append([name, desc, wtu])
    skills[0][1] = skills[0][1] + " \U0001F600"  # one astral character: 2 UTF-16 units, 1 code point
    block = lambda: "\n".join(entry(*s) for s in skills)
    pad = target - units(block())
    assert pad >= 0, pad
    skills[-1][1] += "x" * pad
    assert units(block()) == target
    for name, desc, wtu in skills:
        d = os.path.join(root, tree, name)
        os.makedirs(d)
        fm = f"name: {name}\ndescription: {json.dumps(desc, ensure_ascii=False)}\n"
        if wtu:
            fm += f"when_to_use: {wtu}\n"
        with open(os.path.join(d, "SKILL.md"), "w", encoding="utf-8", newline="\n") as f:
            f.write(f"---\n{fm}---\n\nBody of {name}.\n")
make("qwen-budget-at", 8000)
make("qwen-budget-over", 8001)
PYEOF
}
if [ "${1:-}" = --generate ]; then generate && echo "generated qwen-budget-at and qwen-budget-over in $TREES"; exit 0; fi

: "${QWEN_BIN:?set QWEN_BIN (see the header)}"
BUNDLED=${BUNDLED:-0}
ALL_TREES="$COMMON_TREES qwen-edge qwen-budget-at qwen-budget-over agents-dup"
# With bundled skills on: a small tree, the generated budget trees (the bundled entries count
# against the 8,000 units), user skills named as bundled ones, and nothing at all.
BUNDLED_TREES="minimal qwen-budget-at qwen-budget-over bundled-names empty"
[ "$BUNDLED" = 1 ] && ALL_TREES=$BUNDLED_TREES
[ "$BUNDLED" = 1 ] && SUFFIX=-bundled
# Trees whose first listed skill is activated; qwen-edge also calls hidden, conditional and unknown names.
CALL_TREES="minimal all-fields invalid qwen-edge override same-name"
VERSION=$("$QWEN_BIN" --version 2>/dev/null | tail -1 | tr -d '[:space:]')
capture_start "${1:-}"

# pick KIND RUNDIR OUTDIR [NAME]
PICK_PY=$(cat <<'PYEOF'
if kind == "listing":
    body = reqs[0]
    m1 = body["messages"][1]
    assert m1["role"] == "user", m1["role"]
    part = m1["content"][0]["text"]
    assert part.startswith("<system-reminder>\n") and ("<available_skills>" in part or "No skills" in part), part[:200]
    open(os.path.join(out, "listing.txt"), "w", encoding="utf-8").write(part)
    tool = [t["function"] for t in body.get("tools", []) if t["function"]["name"] == "skill"][0]
    json.dump(tool, open(os.path.join(out, "tool-skill.json"), "w", encoding="utf-8"), ensure_ascii=False, indent=2)
    skips = []
    p = os.path.join(d, "debug-skills.txt")
    if os.path.exists(p):
        for l in open(p, encoding="utf-8"):
            m = re.search(r"\[SKILL_MANAGER\] (Failed to parse skill at .*)$", l.rstrip("\n"))
            if m:
                skips.append(m.group(1))
    if skips:
        open(os.path.join(out, "skips.txt"), "w", encoding="utf-8").write("".join(s + "\n" for s in sorted(skips)))
else:
    name = sys.argv[4]
    body = reqs[-1]
    msgs = body["messages"]
    k = max(i for i, m in enumerate(msgs) if m["role"] == "tool")
    res = {"tool_result": text(msgs[k]["content"])}
    json.dump(res, open(os.path.join(out, f"call-{name}.json"), "w", encoding="utf-8"), ensure_ascii=False, indent=2)
PYEOF
)

tree_sources() {
  [ "$1" = agents-dup ] && src=$TREES/minimal
}

capture_tree() {
  local act_n=0 act="" extra="" d n
  [ "$t" = agents-dup ] && extra="$TREES/qwen-agents@proj/.agents/skills"
  if [[ " $CALL_TREES " == *" $t "* ]]; then act_n=1; fi
  [ "$BUNDLED" = 1 ] && act_n=0 && [ "$t" = bundled-names ] && act=simplify
  [ "$t" = qwen-edge ] && act=$'when-used\nhidden\nconditional\nspaced-name\nno-such-skill\nbom\nempty-body'
  if [ -n "$act" ]; then
    env QWEN_BIN="$QWEN_BIN" WORK="$WORK" QWEN_ARGS=--debug USER_TREE="$user" EXTRA_COPY="$extra" ACTIVATE="$act" KEEP_BUNDLED="$BUNDLED" \
      "$ORACLES/capture_qwen_code.sh" "$src" "$raw" > "$raw.log" 2>&1 || fail "$t: capture rc=$?"
  else
    env QWEN_BIN="$QWEN_BIN" WORK="$WORK" QWEN_ARGS=--debug USER_TREE="$user" EXTRA_COPY="$extra" ACTIVATE_N=$act_n KEEP_BUNDLED="$BUNDLED" \
      "$ORACLES/capture_qwen_code.sh" "$src" "$raw" > "$raw.log" 2>&1 || fail "$t: capture rc=$?"
  fi
  [ "$(cat "$raw/listing/rc.txt" 2>/dev/null)" = 0 ] || fail "$t: listing rc=$(cat "$raw/listing/rc.txt" 2>/dev/null)"
  pick listing "$raw/listing" "$dst" || fail "$t: listing not extracted"
  for d in "$raw"/activate-*/; do
    [ -d "$d" ] || continue
    n=$(basename "$d"); n=${n#activate-}
    pick call "$d" "$dst" "$n" || fail "$t: call $n not extracted"
  done
  mv "$dst/tool-skill.json" "$DST/tool-skill.json" 2>/dev/null
}
capture_each_tree

capture_finish \
  command "{ORACLES}/capture_qwen_code.sh TREE OUT (qwen --auth-type openai -m qwen3-coder-plus --approval-mode yolo --debug hello)" \
  env "env -i HOME={WORK}/home LANG=C.UTF-8 OPENAI_API_KEY=dummy OPENAI_BASE_URL=http://127.0.0.1:18080/v1 (mock, unshare -n); ~/.qwen/settings.json skills.disabledLevels = [bundled] (<tree>-bundled: [], the bundled skills on: BUNDLED=1), managed auto-memory off; skills in {WORK}/proj/.qwen/skills (override-base: {WORK}/home/.qwen/skills; agents-dup: qwen-agents in {WORK}/proj/.agents/skills)" \
  oracles "{ORACLES}" \
  bundled_skills "off (skills.disabledLevels = [\"bundled\"]) in every tree but the <tree>-bundled ones, captured with the default (on); a test of an off tree passes --agent-setting 'skills.disabledLevels=[\"bundled\"]'"
