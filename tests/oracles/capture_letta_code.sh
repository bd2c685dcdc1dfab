#!/usr/bin/env bash
# Re-capture the Letta Code prompt goldens (issue #39: `skillkit prompt --agent letta-code`): the exact
# `<available_skills>` block the real Letta Code 0.32.18 appends to its system prompt with its LOCAL
# backend, for the test trees in tests/fixtures/prompt-trees/, kept in
# tests/fixtures/prompt-goldens/letta-code-<version>/<tree>/.
#
#   tests/oracles/capture_letta_code.sh [OUT]         OUT defaults to tests/fixtures/prompt-goldens
#   BUNDLED=1 tests/oracles/capture_letta_code.sh     Letta Code's 20 bundled skills kept (its default:
#                                                     no --no-bundled-skills); each tree goes to
#                                                     <tree>-bundled/ (default trees: BUNDLED_TREES)
#
# 1. Install the real program (pinned 0.32.18) outside the repository and point LETTA_BIN at it. The
#    package names two dependencies the registry lacks; letta.js is a self-contained bundle, so it is
#    unpacked from `npm pack` and given only the four packages it loads:
#        mkdir -p /tmp/oracles-letta/dl /tmp/oracles-letta/letta/letta-code && cd /tmp/oracles-letta/dl
#        npm pack @letta-ai/letta-code@0.32.18
#        tar xzf letta-ai-letta-code-0.32.18.tgz -C ../letta/letta-code --strip-components=1
#        cd ../letta && npm init -y && npm install --ignore-scripts ws@8 ajv ajv-formats node-pty@1
#        ln -sfn ../node_modules letta-code/node_modules
#        export LETTA_BIN=/tmp/oracles-letta/letta/letta-code/letta.js
#    (or `bash /work/shared/oracles/install_oracles_b.sh`, which prints LETTA_BIN.)
# 2. Run this script under the shared capture lock (captures of all agents share scratch folders):
#        flock /tmp/oracle-capture.lock tests/oracles/capture_letta_code.sh
#    It calls the shared capture script unchanged (ORACLES, default /work/shared/oracles:
#    capture_letta_code.sh: `letta --backend local -m lmstudio/mock-model --new-agent
#    --no-bundled-skills -p hello` with LETTA_LOCAL_BACKEND_EXPERIMENTAL=1 and LMSTUDIO_BASE_URL the
#    local mock, inside `unshare -n`; see /work/shared/reference/agents-more.md, "Letta Code"), writes
#    its raw output under RAW (default /tmp/skillkit-prompt-raw-letta, wiped) and copies the small
#    exact pieces into OUT (the agent's folder is replaced). About 2 minutes.
#    Optional env: ONLY_TREES="minimal chars ..." (default: all below), SCRATCH (default
#    /tmp/skillkit-oracle-work: the capture's WORK is $SCRATCH/letta-code).
#
# Trees: every single-source tree is copied into the project's `.agents/skills`.
#   override   override-base in the global folder `~/.letta/skills`, override-project in `.agents/skills`
#   letta-dup  letta-dup-user in `~/.letta/skills`, letta-dup-legacy in the legacy project folder
#              `.skills`, letta-dup-project in `.agents/skills`
#   scopes     the tree `minimal` alone in each folder (listing-<scope>.txt: project, project-legacy, user)
#   bundled-names-user  (BUNDLED=1) bundled-names in the global folder `~/.letta/skills`, no project skill
#   letta-nested  tests/fixtures/letta-discovery (kept out of prompt-trees: nested, hidden and lower-case
#              `skill.md` skills that other agents' profiles do not model)
#
# Kept per tree (text exact, then path-normalised):
#   listing.txt      the block at the end of the system message (`messages[0]`), from `<available_skills>`
#                    to its end (the script checks that the message is `PROMPT.trimEnd() + "\n\n" + block`);
#                    with no skill listed there is no block and no-listing.txt (empty) is kept instead
#   call-N.json      the mock calls Skill({"skill": N}); {"skill": N, "tool_result": …, "after": […]}: the
#                    tool message and the message texts that follow it (the injected <skill_content>);
#                    characters other than letters, digits, `._-` are `_` in the file name
#   tool-Skill.json  (top level) the `Skill` tool definition offered to the model
#   meta.json        (top level) version, command line, env, date, per-tree status
# Path normalisation: $TREES/<tree> -> {TREE}, $TREES -> {TREES}, the capture's WORK -> {WORK},
# $REPO -> {REPO}.
# What it shares with the other prompt captures (set-up, the per-tree loop, path normalisation,
# meta.json) is in tests/oracles/lib.sh.
set -uo pipefail
AGENT=letta-code RAW_NAME=letta
. "$(dirname "$(realpath "$0")")/lib.sh"
export LETTA_BIN=${LETTA_BIN:-/tmp/oracles-letta/letta/letta-code/letta.js}
[ -x "$LETTA_BIN" ] || { echo "no Letta Code at $LETTA_BIN (see the header)" >&2; exit 2; }
ALL_TREES="$COMMON_TREES letta-parse letta-nested letta-dup scopes"
BUNDLED=${BUNDLED:-0}
# With bundled skills on: a small tree, user skills named as bundled ones (in the project, and in
# the global folder), and nothing at all.
BUNDLED_TREES="minimal bundled-names bundled-names-user empty"
[ "$BUNDLED" = 1 ] && ALL_TREES=$BUNDLED_TREES
[ "$BUNDLED" = 1 ] && SUFFIX=-bundled
# Skills the mock activates, per tree (one per line; the default is none).
calls() {
  case "$1" in
    minimal) printf '%s\n' hello-note no-such-skill ;;
    all-fields) printf '%s\n' report-builder ;;
    crlf) printf '%s\n' crlf-skill ;;
    claude-fields) printf '%s\n' manual-only with-when ;;
    override) printf '%s\n' lint-helper ;;
    letta-parse) printf '%s\n' custom-id no-fm dmi-upper id-field-name ;;
    letta-nested) printf '%s\n' outer outer/inner lower hidden-dir ;;
    letta-dup) printf '%s\n' dup-skill legacy-vs-user ;;
    bundled-names|bundled-names-user) [ "$BUNDLED" = 1 ] && printf '%s\n' browser-use ;;
  esac
}
VERSION=$(cd /tmp && env -i PATH="$PATH" HOME=/tmp "$LETTA_BIN" --version 2>/dev/null | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -1)
[ -n "$VERSION" ] || { echo "cannot read the version of $LETTA_BIN" >&2; exit 2; }
capture_start "${1:-}"

# The pieces of one run folder, exact (JSON strings exact).
# pick KIND RUNDIR OUTDIR [OUTFILE] [NAME]
PICK_PY=$(cat <<'PYEOF'
if kind == "listing":
    body = reqs[0]
    m0 = body["messages"][0]
    assert m0["role"] == "system", m0["role"]
    s = text(m0["content"])
    k = s.rfind("\n\n<available_skills>\n")
    # the user message never holds the skills
    assert all("<available_skills>" not in text(m["content"]) for m in body["messages"][1:]), "skills outside the system message"
    if k >= 0:
        block = s[k + 2:]
        assert block.endswith("\n</available_skills>"), "the block is not the end of the system message"
        assert s[:k] == s[:k].rstrip(), "the prompt before the block is not trimEnd()ed"
        open(os.path.join(out, sys.argv[4]), "w", encoding="utf-8").write(block)
        tool = [t["function"] for t in body["tools"] if t["function"]["name"] == "Skill"][0]
        json.dump(tool, open(os.path.join(out, "tool-Skill.json"), "w", encoding="utf-8"), ensure_ascii=False, indent=2)
    else:
        assert "<available_skills>" not in s
        open(os.path.join(out, "no-" + sys.argv[4]), "w").close()
else:
    name = sys.argv[5]
    body = reqs[-1]
    msgs = body["messages"]
    k = max(i for i, m in enumerate(msgs) if m["role"] == "tool")
    call = msgs[k - 1]["tool_calls"][0]["function"]
    assert call["name"] == "Skill" and json.loads(call["arguments"]) == {"skill": name}, call
    res = {"skill": name, "tool_result": text(msgs[k]["content"]), "after": [{"role": m["role"], "text": text(m["content"])} for m in msgs[k + 1:]]}
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)
    json.dump(res, open(os.path.join(out, f"call-{safe}.json"), "w", encoding="utf-8"), ensure_ascii=False, indent=2)
PYEOF
)

tree_sources() {
  case "$1" in
    scopes) src=$TREES/minimal ;;
    letta-dup) src=$TREES/letta-dup-project; user=$TREES/letta-dup-user ;;
    letta-nested) src=$REPO/tests/fixtures/letta-discovery ;;
    bundled-names-user) src=$TREES/empty; user=$TREES/bundled-names ;;
  esac
}

capture_tree() {
  local s extra="" n
  if [ "$t" = scopes ]; then
    for s in project project-legacy user; do
      env LETTA_BIN="$LETTA_BIN" WORK="$WORK" SCOPE=$s ONLY=listing ACTIVATE= \
        "$ORACLES/capture_letta_code.sh" "$TREES/minimal" "$raw/$s" > "$raw.$s.log" 2>&1 || fail "$t: $s capture rc=$?"
      pick listing "$raw/$s/listing" "$dst" "listing-$s.txt" || fail "$t: $s listing not extracted"
    done
    rm -f "$dst/tool-Skill.json"
    return
  fi
  [ "$t" = letta-dup ] && extra="$TREES/letta-dup-legacy@proj/.skills"
  env LETTA_BIN="$LETTA_BIN" WORK="$WORK" USER_TREE="$user" EXTRA_COPY="$extra" ACTIVATE="$(calls "$t")" KEEP_BUNDLED="$BUNDLED" \
    "$ORACLES/capture_letta_code.sh" "$src" "$raw" > "$raw.log" 2>&1 || fail "$t: capture rc=$?"
  [ "$(cat "$raw/listing/rc.txt" 2>/dev/null)" = 0 ] || fail "$t: listing rc=$(cat "$raw/listing/rc.txt" 2>/dev/null)"
  pick listing "$raw/listing" "$dst" listing.txt || fail "$t: listing not extracted"
  [ -f "$dst/tool-Skill.json" ] && mv "$dst/tool-Skill.json" "$DST/tool-Skill.json"
  while IFS= read -r n; do
    [ -n "$n" ] || continue
    pick call "$raw/activate-${n// /_}" "$dst" - "$n" || fail "$t: call $n not extracted"
  done < <(calls "$t")
}
capture_each_tree

capture_finish \
  command "{ORACLES}/capture_letta_code.sh TREE OUT (letta --backend local -m lmstudio/mock-model --new-agent --no-bundled-skills -p hello)" \
  env "env -i HOME={WORK}/home LETTA_LOCAL_BACKEND_EXPERIMENTAL=1 LMSTUDIO_BASE_URL=<mock on 127.0.0.1, unshare -n> LETTA_CODE_TELEM=0 DO_NOT_TRACK=1; cwd {WORK}/proj; skills in {WORK}/proj/.agents/skills (override-base, letta-dup-user: {WORK}/home/.letta/skills; letta-dup-legacy: {WORK}/proj/.skills)" \
  capture_script "tests/oracles/capture_letta_code.sh" \
  bundled_skills "off (--no-bundled-skills) in every tree but the <tree>-bundled ones (BUNDLED=1: no flag, the default, bundled skills on); a test of an off tree passes --agent-setting noBundledSkills=true"
