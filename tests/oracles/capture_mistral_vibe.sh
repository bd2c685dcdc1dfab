#!/usr/bin/env bash
# Re-capture the Mistral Vibe prompt goldens (issue #39: `skillkit prompt --agent mistral-vibe`): the exact
# `<available-skills>` block the real `vibe -p hello` puts near the end of its system prompt, for the test
# trees in tests/fixtures/prompt-trees/, kept in tests/fixtures/prompt-goldens/mistral-vibe-<version>/<tree>/.
#
#   tests/oracles/capture_mistral_vibe.sh [OUT]        OUT defaults to tests/fixtures/prompt-goldens
#
# 1. Install the real program (pinned 3.0.3, Python >= 3.12) outside the repository and point VIBE_BIN at
#    it. mistral-vibe 3.0.3 pins certifi==2026.10.19, gone from the registry: install its wheel with
#    --no-deps and its Requires-Dist list with certifi==2026.10.19.post1, as
#    /work/shared/oracles/install_oracles_b.sh does (it prints VIBE_BIN).
# 2. Run this script under the shared capture lock (captures of all agents share scratch folders):
#        flock /tmp/oracle-capture.lock tests/oracles/capture_mistral_vibe.sh
#    It calls the shared capture script unchanged (ORACLES, default /work/shared/oracles:
#    capture_mistral_vibe.sh, `vibe -p hello --trust --auto-approve --output text` against a local mock
#    model inside `unshare -n`; see /work/shared/reference/agents-more.md, "Mistral Vibe 3.0.3"), writes
#    its raw output under RAW (default /tmp/skillkit-prompt-raw-vibe, wiped) and copies the small exact
#    pieces into OUT (the agent's folder is replaced). Optional env: ONLY_TREES="minimal chars ..."
#    (default: all below), SCRATCH (default /tmp/skillkit-oracle-work: the capture's WORK is
#    $SCRATCH/mistral-vibe).
#
# Trees: every single-source tree is copied into the project's `.vibe/skills` (cwd $WORK/proj, trusted).
# `override` is override-base in the user folder `~/.vibe/skills` plus override-project in `.vibe/skills`.
# Vibe lists skills in discovery order (each folder's `readdir` order): the copies are on the same file
# system as the fixtures, so the order of the same names matches theirs.
#
# Kept per tree (text exact, then path-normalised):
#   listing.txt      the system prompt's `<available-skills>` block, from `<available-skills>` to
#                    `</available-skills>` (the bundled plugin's four `vibe:*` skills included)
#   section.txt      the `## Available Skills` instructions, up to the next `\n\n#` heading
#   skipped.txt      the skills Vibe skipped: stderr's `PATH: Failed to load: REASON` lines (a reason may span
#                    lines: continuation lines are kept, indented by two spaces)
#   tool-skill.json  the `skill` tool as offered
#   call-N.json      the mock calls skill({"name": N}): {"tool_result": the tool message}
#   <agent>/meta.json version, command line, env, date, per-tree status
# Path normalisation: the capture's WORK -> {WORK}, $TREES -> {TREES}, $REPO -> {REPO}.
# What it shares with the other prompt captures (set-up, the per-tree loop, path normalisation,
# meta.json) is in tests/oracles/lib.sh.
set -uo pipefail
AGENT=mistral-vibe RAW_NAME=vibe NORM_TREE=0
. "$(dirname "$(realpath "$0")")/lib.sh"
: "${VIBE_BIN:?set VIBE_BIN (see the header)}"
ALL_TREES="$COMMON_TREES copilot-escape copilot-invalid copilot-limits kimi-edge"
# Trees whose first listed skill is also activated through the `skill` tool.
CALL_TREES="minimal all-fields invalid override tolerated"
VERSION=$("$VIBE_BIN" --version 2>/dev/null | grep -Eo '[0-9]+\.[0-9]+\.[0-9]+' | head -1)
capture_start "${1:-}"

PICK_PY=$(cat <<'PYEOF'
if kind == "listing":
    body = reqs[0]
    m0 = body["messages"][0]
    assert m0["role"] == "system", m0["role"]
    s = text(m0["content"])
    a = s.index("<available-skills>\n")
    b = s.index("</available-skills>", a) + len("</available-skills>")
    open(os.path.join(out, "listing.txt"), "w", encoding="utf-8").write(s[a:b])
    a = s.index("## Available Skills\n")
    b = s.index("\n\n#", a + 5)
    open(os.path.join(out, "section.txt"), "w", encoding="utf-8").write(s[a:b])
    tool = [t["function"] for t in body["tools"] if t["function"]["name"] == "skill"][0]
    json.dump(tool, open(os.path.join(out, "tool-skill.json"), "w", encoding="utf-8"), ensure_ascii=False, indent=2)
    lines, cur = [], None
    for l in open(os.path.join(d, "stderr.txt"), encoding="utf-8", errors="replace").read().split("\n"):
        m = re.match(r"^(/.*?/SKILL\.md): Failed to load: (.*)$", l)
        if m:
            cur = [m.group(1) + ": " + m.group(2)]
            lines.append(cur)
        elif cur is not None and l and not l.startswith("/"):
            cur.append(l)
        else:
            cur = None
    with open(os.path.join(out, "skipped.txt"), "w", encoding="utf-8") as f:
        for e in lines:
            f.write(e[0] + "\n" + "".join("  " + x + "\n" for x in e[1:]))
else:
    name = sys.argv[4]
    msgs = reqs[-1]["messages"]
    k = max(i for i, m in enumerate(msgs) if m["role"] == "tool")
    json.dump({"tool_result": text(msgs[k]["content"])}, open(os.path.join(out, f"call-{name}.json"), "w", encoding="utf-8"), ensure_ascii=False, indent=2)
PYEOF
)

capture_tree() {
  local n=0 d a
  [[ " $CALL_TREES " == *" $t "* ]] && n=1
  env VIBE_BIN="$VIBE_BIN" WORK="$WORK" ACTIVATE_N=$n USER_TREE="$user" \
    "$ORACLES/capture_mistral_vibe.sh" "$src" "$raw" > "$raw.log" 2>&1 || fail "$t: capture rc=$?"
  [ "$(cat "$raw/listing/rc.txt" 2>/dev/null)" = 0 ] || fail "$t: listing rc=$(cat "$raw/listing/rc.txt" 2>/dev/null)"
  pick listing "$raw/listing" "$dst" || fail "$t: listing not extracted"
  for d in "$raw"/activate-*/; do
    [ -d "$d" ] || continue
    a=$(basename "$d"); a=${a#activate-}
    pick call "$d" "$dst" "$a" || fail "$t: call $a not extracted"
  done
}
capture_each_tree

capture_finish \
  command "{ORACLES}/capture_mistral_vibe.sh TREE OUT (vibe -p hello --trust --auto-approve --output text)" \
  env "env -i HOME={WORK}/home MOCK_API_KEY=dummy (mock on 127.0.0.1, unshare -n); ~/.vibe/config.toml: provider mock (openai style), telemetry/updates/connectors/MCP off, disabled_skills = [vibe, skill-creator]; cwd {WORK}/proj; skills in {WORK}/proj/.vibe/skills (override-base: {WORK}/home/.vibe/skills)" \
  oracles "{ORACLES}"
