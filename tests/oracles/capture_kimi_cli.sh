#!/usr/bin/env bash
# Re-capture the Kimi CLI prompt goldens (issue #39: `skillkit prompt --agent kimi-cli`): the exact
# `# Skills` section the real `kimi --print -p hello` puts in its system prompt, for the test trees in
# tests/fixtures/prompt-trees/, kept in tests/fixtures/prompt-goldens/kimi-cli-<version>/<tree>/.
#
#   tests/oracles/capture_kimi_cli.sh [OUT]        OUT defaults to tests/fixtures/prompt-goldens
#
# 1. Install the real program (pinned 1.50.0; 1.52.0 is a deprecation stub that must not be run)
#    outside the repository, with a Python >= 3.12, and point KIMI_BIN at it:
#        python3.13 -m venv /tmp/oracles-kimi/venv && /tmp/oracles-kimi/venv/bin/pip install kimi-cli==1.50.0
#        export KIMI_BIN=/tmp/oracles-kimi/venv/bin/kimi
#    (or `bash /work/shared/oracles/install_oracles_b.sh`, which prints KIMI_BIN.)
# 2. Run this script under the shared capture lock (captures of all agents share scratch folders):
#        flock /tmp/oracle-capture.lock tests/oracles/capture_kimi_cli.sh
#    It calls the shared capture script (ORACLES, default /work/shared/oracles: capture_kimi_cli.sh,
#    Kimi's own OpenAI-compatible client pointed at a local mock model inside `unshare -n`; see
#    /work/shared/reference/agents-more.md, "Kimi CLI 1.50.0"), writes its raw output under RAW
#    (default /tmp/skillkit-prompt-raw-kimi, wiped) and copies the small exact pieces into OUT (the
#    agent's folder is replaced). For the ReadFile runs it uses a copy of that script whose mock
#    answers the first request with one tool call (`--tool-call`, a mock option the script does not
#    pass). Optional env: ONLY_TREES="minimal chars ..." (default: all below), SCRATCH (default
#    /tmp/skillkit-oracle-work: the capture's WORK is $SCRATCH/kimi-cli).
#
# Trees: every single-source tree is copied into the project's `.kimi/skills` (cwd $WORK/proj, no
# `.git`). `override` is override-base in the user folder `~/.kimi/skills` plus override-project in
# `.kimi/skills`.
#
# Kept per tree (text exact, then path-normalised):
#   listing.txt      the system prompt's `# Skills` section: from `# Skills` up to (not including) the
#                    `\n\n# Ultimate Reminders` that follows it
#   skipped.txt      the skills Kimi skipped, one `PATH: REASON` line each, from its log
#                    (`Skipping invalid skill at PATH: REASON`; a reason may span lines: continuation
#                    lines are kept, indented by two spaces)
#   tool-ReadFile.json  the ReadFile tool as offered (Kimi has no skill tool: the model reads SKILL.md)
#   slash-N.json     `kimi --print -p "/skill:N some args"`: {"message": the user message sent}
#   read-N.json      the mock calls ReadFile({"path": N's SKILL.md}): {"tool_result": the tool message}
#   <agent>/meta.json version, command line, env, date, per-tree status
# Path normalisation: the capture's WORK -> {WORK}, the installed kimi_cli package -> {KIMI_PKG},
# $TREES -> {TREES}, $REPO -> {REPO}.
# What it shares with the other prompt captures (set-up, the per-tree loop, path normalisation,
# meta.json) is in tests/oracles/lib.sh.
set -uo pipefail
AGENT=kimi-cli RAW_NAME=kimi NORM_TREE=0
. "$(dirname "$(realpath "$0")")/lib.sh"
: "${KIMI_BIN:?set KIMI_BIN (see the header)}"
ALL_TREES="$COMMON_TREES kimi-edge"
# Trees whose first listed skill is also called with /skill:N and read with ReadFile.
CALL_TREES="minimal all-fields invalid override"
VERSION=$("$KIMI_BIN" --version | head -1 | sed 's/^kimi, version //')
KIMI_PKG=$(dirname "$(dirname "$(realpath "$KIMI_BIN")")")
KIMI_PKG=$(ls -d "$KIMI_PKG"/lib/python3*/site-packages/kimi_cli | head -1)
NORM_EXTRA=(-e "s#$KIMI_PKG#{KIMI_PKG}#g")
capture_start "${1:-}"

# The shared script with a mock that makes one scripted tool call (MOCK_TOOL_CALL=NAME:JSON).
TOOLCAP=$RAW/capture_kimi_cli_tool.sh
sed -e "s#^HERE=.*#HERE=$ORACLES#" \
    -e 's#--port "\$PORT")#--port "$PORT" --tool-call "$MOCK_TOOL_CALL")#' \
    "$ORACLES/capture_kimi_cli.sh" > "$TOOLCAP"
chmod +x "$TOOLCAP"
grep -q -- '--tool-call "\$MOCK_TOOL_CALL"' "$TOOLCAP" || { echo "could not patch $ORACLES/capture_kimi_cli.sh"; exit 1; }

PICK_PY=$(cat <<'PYEOF'
if kind == "listing":
    body = reqs[0]
    m0 = body["messages"][0]
    assert m0["role"] == "system", m0["role"]
    s = text(m0["content"])
    a = s.index("# Skills\n")
    b = s.index("\n\n# Ultimate Reminders", a)
    open(os.path.join(out, "listing.txt"), "w", encoding="utf-8").write(s[a:b])
    tool = [t["function"] for t in body["tools"] if t["function"]["name"] == "ReadFile"][0]
    json.dump(tool, open(os.path.join(out, "tool-ReadFile.json"), "w", encoding="utf-8"), ensure_ascii=False, indent=2)
    # Skipped skills, from Kimi's log: `... - Skipping invalid skill at PATH: REASON` (may span lines).
    lines, cur = [], None
    log = open(os.path.join(d, "kimi.log"), encoding="utf-8").read().split("\n")
    for l in log:
        m = re.search(r" - Skipping invalid (?:flat )?skill at (.*)$", l)
        if m:
            cur = [m.group(1)]
            lines.append(cur)
        elif cur is not None and not re.match(r"^\d{4}-\d\d-\d\d ", l):
            cur.append(l)
        else:
            cur = None
    with open(os.path.join(out, "skipped.txt"), "w", encoding="utf-8") as f:
        for e in lines:
            while e and e[-1] == "":
                e.pop()
            f.write(e[0] + "\n" + "".join("  " + x + "\n" for x in e[1:]))
elif kind == "slash":
    name = sys.argv[4]
    msgs = reqs[0]["messages"]
    users = [text(m["content"]) for m in msgs if m["role"] == "user"]
    json.dump({"message": users[-1]}, open(os.path.join(out, f"slash-{name}.json"), "w", encoding="utf-8"), ensure_ascii=False, indent=2)
else:
    name = sys.argv[4]
    msgs = reqs[-1]["messages"]
    k = max(i for i, m in enumerate(msgs) if m["role"] == "tool")
    json.dump({"tool_result": text(msgs[k]["content"])}, open(os.path.join(out, f"read-{name}.json"), "w", encoding="utf-8"), ensure_ascii=False, indent=2)
PYEOF
)

capture_tree() {
  local slash_n=0 d n path rr
  [[ " $CALL_TREES " == *" $t "* ]] && slash_n=1
  env KIMI_BIN="$KIMI_BIN" WORK="$WORK" SLASH_N=$slash_n USER_TREE="$user" \
    "$ORACLES/capture_kimi_cli.sh" "$src" "$raw" > "$raw.log" 2>&1 || fail "$t: capture rc=$?"
  [ "$(cat "$raw/listing/rc.txt" 2>/dev/null)" = 0 ] || fail "$t: listing rc=$(cat "$raw/listing/rc.txt" 2>/dev/null)"
  pick listing "$raw/listing" "$dst" || fail "$t: listing not extracted"
  for d in "$raw"/slash-*/; do
    [ -d "$d" ] || continue
    n=$(sed -n 's#^/skill:\(.*\) some args$#\1#p' "$d/prompt.txt")
    pick slash "$d" "$dst" "$n" || fail "$t: slash $n not extracted"
    # The same skill read with ReadFile (the path from the listing).
    path=$(grep -A1 -x -F -- "- $n" "$raw/listing/main.skills-listing.txt" | sed -n 's/^  - Path: //p' | head -1)
    rr=$raw/read-$n
    env KIMI_BIN="$KIMI_BIN" WORK="$WORK" SLASH="" USER_TREE="$user" ONLY=listing \
      MOCK_TOOL_CALL="ReadFile:$(python3 -c 'import json,sys; print(json.dumps({"path": sys.argv[1]}))' "$path")" \
      "$TOOLCAP" "$src" "$rr" > "$rr.log" 2>&1 || fail "$t: read $n rc=$?"
    pick read "$rr/listing" "$dst" "$n" || fail "$t: read $n not extracted"
  done
}
capture_each_tree

capture_finish \
  command "{ORACLES}/capture_kimi_cli.sh TREE OUT (kimi --print -p hello; /skill:N some args)" \
  env "env -i HOME={WORK}/home (mock on 127.0.0.1, unshare -n); ~/.kimi/config.toml: provider type kimi at the mock, telemetry off; cwd {WORK}/proj (no .git); skills in {WORK}/proj/.kimi/skills (override-base: {WORK}/home/.kimi/skills)" \
  oracles "{ORACLES}"
