#!/usr/bin/env bash
# Re-capture the GitHub Copilot CLI prompt goldens (issue #39: `skillkit prompt --agent copilot-cli`):
# the exact `<skill>` section the real `copilot -p` puts in its system message, for the test trees in
# tests/fixtures/prompt-trees/, kept in tests/fixtures/prompt-goldens/copilot-cli-<version>/<tree>/.
#
#   tests/oracles/capture_copilot_cli.sh [OUT]        OUT defaults to tests/fixtures/prompt-goldens
#   tests/oracles/capture_copilot_cli.sh --generate   only rewrite the generated trees (copilot-budget,
#                                                     copilot-limits, copilot-more, copilot-dup-order)
#
# 1. Install the real program (pinned 1.0.102) outside the repository and point COPILOT_BIN at it:
#        mkdir -p /tmp/copilot-npm && (cd /tmp/copilot-npm && npm install @github/copilot@1.0.102)
#        export COPILOT_BIN=/tmp/copilot-npm/node_modules/.bin/copilot
#    (or `bash /work/shared/oracles/install_oracles_a.sh`, which prints COPILOT_BIN.)
# 2. Run this script under the shared capture lock (captures of all agents share scratch folders):
#        flock /tmp/oracle-capture.lock tests/oracles/capture_copilot_cli.sh
#    It calls the shared capture script unchanged (ORACLES, default /work/shared/oracles:
#    capture_copilot_cli.sh, BYOK offline mode against a local mock model inside `unshare -rn`; see
#    /work/shared/reference/agents-more.md section 1), writes its raw output under RAW (default
#    /tmp/skillkit-prompt-raw-copilot, wiped) and copies the small exact pieces into OUT (the
#    agent's folder is replaced). Optional env: ONLY_TREES="minimal chars ..." (default: all below),
#    SCRATCH (default /tmp/skillkit-oracle-work: the capture's WORK is $SCRATCH/copilot-cli).
#
# Trees: every single-source tree is copied into the project's `.github/skills`. `override` is
# override-base in the user folder `~/.copilot/skills` plus override-project in `.github/skills`.
#
# Kept per tree (text exact, then path-normalised):
#   listing.txt      the bytes between `</fetch_copilot_cli_documentation>\n` and `<sql>` in the
#                    system message (`messages[0]`): the `<skill>\n<available_skills>…</skill>\n`
#                    section; with no skill the section is absent and no-listing.txt (empty) is kept
#                    instead, plus tools.json (the names of the tools offered: no `skill`)
#   skill-list.txt   `copilot skill list` (the only place naming skipped skills and why)
#   tool-skill.json  the `skill` tool definition offered to the model (trees with a listing)
#   call-N.json      the mock calls skill({"skill": N}); {"tool_result": …, "after": […]}: the tool
#                    message and the message texts that follow it (the injected <skill-context>)
#   <agent>/meta.json version, command line, env, date, per-tree status
# Path normalisation: $TREES/<tree> -> {TREE}, $TREES -> {TREES}, the capture's WORK -> {WORK},
# $REPO -> {REPO}.
# What it shares with the other prompt captures (set-up, the per-tree loop, path normalisation,
# meta.json) is in tests/oracles/lib.sh.
set -uo pipefail
AGENT=copilot-cli RAW_NAME=copilot
. "$(dirname "$(realpath "$0")")/lib.sh"

generate() {  # deterministic generated trees
  python3 - "$TREES" <<'PYEOF'
import os, shutil, sys
root = sys.argv[1]
WORDS = ("amber basil cedar dune ember fjord grove heath inlet juniper kelp loam moss nectar "
         "orchard pine quartz reed sage thyme umber vale willow yarrow zinnia").split()
def text(seed, n, lead):
    out, i = lead, seed
    while len(out) < n:
        out += " " + WORDS[i % len(WORDS)]
        i += 5
    return (out[: n - 1].rstrip() + ".").ljust(n, ".")[:n]
def write(path, name, desc, body):
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "SKILL.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(f"---\nname: {name}\ndescription: {desc}\n---\n\n{body}\n")
for t in ("copilot-budget", "copilot-limits", "copilot-more", "copilot-dup-order"):
    shutil.rmtree(os.path.join(root, t), ignore_errors=True)
# 30 skills of 480-character descriptions (some with `&`, which counts escaped) overflow the
# 15,000-character budget; `zz-tiny` sorts last and would fit alone, but follows the first overflow.
for k in range(1, 31):
    name = f"cb-{k:02d}"
    lead = f"Budget skill {k} & friends." if k % 4 == 0 else f"Budget skill {k}."
    write(os.path.join(root, "copilot-budget", name), name, text(k, 480, lead), f"Body of budget skill {k}.")
write(os.path.join(root, "copilot-budget", "zz-tiny"), "zz-tiny", "Tiny.", "Body of the tiny skill.")
lim = os.path.join(root, "copilot-limits")
write(os.path.join(lim, "desc-1024"), "desc-1024", text(2, 1024, "Exactly 1024 characters."), "Body.")
write(os.path.join(lim, "desc-1025"), "desc-1025", text(3, 1025, "Exactly 1025 characters."), "Body.")
n64 = "n" + "-".join(["long"] * 13)[:62] + "x"
n65 = n64 + "y"
write(os.path.join(lim, "name-64"), n64, "A name of exactly 64 characters.", "Body.")
write(os.path.join(lim, "name-65"), n65, "A name of 65 characters.", "Body.")
assert len(n64) == 64 and len(n65) == 65
# The cap of the "Additional skills available" line: 15 entries of exactly 1,000 characters fill
# the budget; then `cm-NNN` names, whose line (lead-in + names joined by ", ") reaches exactly
# 5,000 characters at the last of them, and five `cx-*` names that no longer fit (`... and 5 more`).
more = os.path.join(root, "copilot-more")
def entry(n, d):
    return f"<skill>\n  <name>{n}</name>\n  <description>{d}</description>\n  <location>project</location>\n</skill>\n"
for k in range(1, 16):
    n = f"ca-{k:02d}"
    d = text(k, 1000 - len(entry(n, "")), f"Filler {k}.")
    assert len(entry(n, d)) == 1000
    write(os.path.join(more, n), n, d, f"Body of filler {k}.")
line, names, i = len("Additional skills available (invoke by name): "), [], 0
while line < 5000:
    sep = 2 if names else 0
    left = 5000 - line - sep
    ln = left if left <= 64 else (left - 12 if left < 74 else 60)
    i += 1
    n = f"cm-{i:03d}-" + "m" * (ln - 7)
    assert len(n) == ln, (n, ln)
    names.append(n)
    line += sep + ln
assert line == 5000
for n in names + [f"cx-{j}" for j in range(1, 6)]:
    write(os.path.join(more, n), n, "Named or counted.", "Body.")
# Which of two folders of one name wins: the first by the SKILL.md path's bytes (`k-1/` < `k.2/`
# < `k/` < `k0/` < `k_3/`; `m-z/` < `m/`), whatever order the file system lists them in.
dup = os.path.join(root, "copilot-dup-order")
for f in ("k", "k-1", "k.2", "k_3", "k0", "m", "m-z"):
    name = "other" if f.startswith("m") else "shared"
    write(os.path.join(dup, f), name, f"Copy in {f}.", f"Body of {f}.")
PYEOF
}
if [ "${1:-}" = --generate ]; then generate; echo "generated copilot-budget, copilot-limits, copilot-more and copilot-dup-order in $TREES"; exit 0; fi

: "${COPILOT_BIN:?set COPILOT_BIN (see the header)}"
ALL_TREES="$COMMON_TREES copilot-escape copilot-invalid copilot-budget copilot-limits copilot-more copilot-dup-order"
# Trees whose first listed skill is also activated (and, for copilot-invalid, a hidden and an unknown one).
CALL_TREES="minimal all-fields invalid copilot-invalid override"
VERSION=$("$COPILOT_BIN" --version | head -1 | sed 's/^GitHub Copilot CLI //; s/\.$//')
capture_start "${1:-}"

# The pieces of one run folder, exact (JSON strings exact).
PICK_PY=$(cat <<'PYEOF'
if kind == "listing":
    body = reqs[0]
    m0 = body["messages"][0]
    assert m0["role"] == "system", m0["role"]
    s = text(m0["content"])
    a = s.index("</fetch_copilot_cli_documentation>\n") + len("</fetch_copilot_cli_documentation>\n")
    b = s.index("<sql>", a)
    tools = [t["function"]["name"] for t in body.get("tools", [])]
    if s[a:b]:
        open(os.path.join(out, "listing.txt"), "w", encoding="utf-8").write(s[a:b])
        tool = [t["function"] for t in body["tools"] if t["function"]["name"] == "skill"][0]
        json.dump(tool, open(os.path.join(out, "tool-skill.json"), "w", encoding="utf-8"), ensure_ascii=False, indent=2)
    else:
        open(os.path.join(out, "no-listing.txt"), "w").close()
        json.dump(tools, open(os.path.join(out, "tools.json"), "w"), indent=2)
else:
    name = sys.argv[4]
    body = reqs[-1]
    msgs = body["messages"]
    k = max(i for i, m in enumerate(msgs) if m["role"] == "tool")
    res = {"tool_result": text(msgs[k]["content"]), "after": [{"role": m["role"], "text": text(m["content"])} for m in msgs[k + 1:]]}
    json.dump(res, open(os.path.join(out, f"call-{name}.json"), "w", encoding="utf-8"), ensure_ascii=False, indent=2)
PYEOF
)

capture_tree() {
  local extra="" tool_runs=0 extra_tool="" d n
  [ "$t" = override ] && extra="user:$user"
  if [[ " $CALL_TREES " == *" $t "* ]]; then tool_runs=1; fi
  [ "$t" = copilot-invalid ] && extra_tool="hidden no-such-skill"
  env COPILOT_BIN="$COPILOT_BIN" WORK="$WORK" TOOL_RUNS=$tool_runs EXTRA_TOOL="$extra_tool" EXTRA_TREES="$extra" \
    "$ORACLES/capture_copilot_cli.sh" "$src" "$raw" > "$raw.log" 2>&1 || fail "$t: capture rc=$?"
  [ "$(cat "$raw/listing/rc.txt" 2>/dev/null)" = 0 ] || fail "$t: listing rc=$(cat "$raw/listing/rc.txt" 2>/dev/null)"
  pick listing "$raw/listing" "$dst" || fail "$t: listing not extracted"
  norm "$src" < "$raw/skill-list.txt" > "$dst/skill-list.txt"
  for d in "$raw"/tool-*/; do
    [ -d "$d" ] || continue
    n=$(basename "$d"); n=${n#tool-}
    pick call "$d" "$dst" "$n" || fail "$t: call $n not extracted"
  done
}
capture_each_tree

capture_finish \
  command "{ORACLES}/capture_copilot_cli.sh TREE OUT (copilot --disable-client-telemetry --no-auto-update --log-level all -p hello)" \
  env "env -i HOME={WORK}/home COPILOT_OFFLINE=true COPILOT_ALLOW_ALL=true COPILOT_PROVIDER_TYPE=openai COPILOT_MODEL=gpt-5 (mock on 127.0.0.1, unshare -rn); ~/.copilot/settings.json disabledSkills = the three bundled skills; skills in {WORK}/proj/.github/skills (override-base: {WORK}/home/.copilot/skills)" \
  oracles "{ORACLES}"
