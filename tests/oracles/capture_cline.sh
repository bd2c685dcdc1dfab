#!/usr/bin/env bash
# Re-capture the Cline CLI prompt goldens (issue #39: `skillkit prompt --agent cline`): the exact
# description of the `skills` tool the real Cline CLI 3.0.65 offers the model (its listing is the
# description's tail, "Available skills: a, b."), the tool's results, and the raw directory order
# Cline read, for the test trees in tests/fixtures/prompt-trees/, kept in
# tests/fixtures/prompt-goldens/cline-<version>/<tree>/.
#
#   tests/oracles/capture_cline.sh [OUT]           OUT defaults to tests/fixtures/prompt-goldens
#
# 1. Install the real program (pinned) outside the repository:
#        mkdir -p /tmp/oracles-cline/npm && cd /tmp/oracles-cline/npm && npm init -y
#        npm install --no-fund --no-audit cline@3.0.65
#    CLINE_BIN defaults to /tmp/oracles-cline/npm/node_modules/.bin/cline
#    (or `bash /work/shared/oracles/install_oracles_a.sh`, which prints CLINE_BIN).
# 2. Run this script under the shared capture lock (captures of all agents share scratch folders):
#        flock /tmp/oracle-capture.lock tests/oracles/capture_cline.sh
#    It calls the shared capture script unchanged (ORACLES, default /work/shared/oracles:
#    capture_cline.sh, which runs `cline "say hello"` against a local recording mock inside
#    `unshare -rn`, provider `openai-compatible`; see /work/shared/reference/agents-more.md,
#    "3. Cline CLI 3.0.65"), writes raw output under RAW (default /tmp/skillkit-prompt-raw-cline,
#    wiped) and copies the small exact pieces into OUT/cline-<version>/ (replaced). About 8 minutes.
#    Optional env: ONLY_TREES="minimal chars ..." (default: every tree below), SCRATCH (default
#    /tmp/skillkit-oracle-work: the capture's WORK is $SCRATCH/cline and becomes {WORK}).
#
# Each single-source tree is copied into the project's `.cline/skills`.
#   override  override-base in `.clinerules/skills` (read first) + override-project in `.cline/skills`
#             (read later: its copy of `lint-helper` wins the content, the first keeps the position)
#   cline-edge  tests/fixtures/cline-edge (kept out of prompt-trees: a hidden folder, a lower-case
#             skill.md, case-insensitive duplicates, `disabled`/`enabled`, a `:` in a name... that other
#             profiles' tests would trip on)
#   scopes    the tree `minimal` alone in each of the seven folders below (description-<scope>.txt;
#             .claude ones are not read: no tool at all)
#
# Kept per tree (text exact, then path-normalised):
#   description.txt   the `skills` tool's description (the text block that holds the listing)
#   no-tool.txt       (empty) instead, when Cline offers no `skills` tool; tools.json = the tools offered
#   readdir.txt       the order in which the file system listed each skills folder Cline read (Python
#                     os.listdir = readdir, unsorted): `FOLDER<TAB>ENTRY` per line. Cline keeps that
#                     order, which differs between file systems and machines: the test replays it.
#   tool-<N>.txt      the tool result when the mock calls skills({"skill": N, "args": null})
#   tool-skills.json  (top level) the tool definition offered (minimal tree; its description is minimal's)
#   meta.json         version, command, date, per-tree status
# Path normalisation: $TREES/<tree> -> {TREE}, $TREES -> {TREES}, $SCRATCH/cline -> {WORK}, the
# repository -> {REPO}.
set -uo pipefail

REPO=$(cd "$(dirname "$(realpath "$0")")/../.." && pwd)
TREES=$REPO/tests/fixtures/prompt-trees
OUT=$(realpath -m "${1:-$REPO/tests/fixtures/prompt-goldens}")
ORACLES=${ORACLES:-/work/shared/oracles}
RAW=${RAW:-/tmp/skillkit-prompt-raw-cline}
SCRATCH=${SCRATCH:-/tmp/skillkit-oracle-work}
export CLINE_BIN=${CLINE_BIN:-/tmp/oracles-cline/npm/node_modules/.bin/cline}
WORK=$SCRATCH/cline
ALL_TREES="all-fields minimal override-base override-project override empty invalid chars long-desc blocks crlf unicode claude-fields budget-60 tolerated collation name-order same-name opencode-edge copilot-invalid cline-edge scopes"
TREES_SEL=${ONLY_TREES:-$ALL_TREES}
SCOPES="project project-clinerules project-agents project-claude user user-agents user-claude"
VER=$("$CLINE_BIN" --version 2>/dev/null | head -1) || { echo "no Cline at $CLINE_BIN (see the header)" >&2; exit 2; }
GOLD=$RAW/gold/cline-$VER
DATE=$(date -u +%FT%TZ)
rm -rf "$RAW"; mkdir -p "$RAW" "$GOLD" "$SCRATCH"
FAILS=$RAW/failures.txt; : > "$FAILS"
fail() { echo "FAIL $*" | tee -a "$FAILS" >&2; }

norm() {  # norm TREE_PATH < in > out
  sed -e "s#$1#{TREE}#g" -e "s#$TREES#{TREES}#g" -e "s#$WORK#{WORK}#g" -e "s#$REPO#{REPO}#g"
}

# The skills tool of a run: its description (exact) to OUT_TXT, or no-tool.txt + tools.json.
tool_of() {  # tool_of RUNDIR DSTDIR SUFFIX
  python3 - "$@" <<'PYEOF'
import json, os, sys
d, out, suffix = sys.argv[1], sys.argv[2], sys.argv[3]
reqs = []
for line in open(os.path.join(d, "requests.jsonl"), encoding="utf-8"):
    e = json.loads(line)
    if e.get("method") == "POST" and isinstance(e.get("body"), dict) and e["body"].get("messages"):
        reqs.append(e["body"])
body = reqs[0]
tools = [t["function"] for t in body.get("tools", [])]
skills = [t for t in tools if t["name"] == "skills"]
if skills:
    open(os.path.join(out, f"description{suffix}.txt"), "w", encoding="utf-8").write(skills[0]["description"])
else:
    open(os.path.join(out, f"no-tool{suffix}.txt"), "w").close()
    json.dump([t["name"] for t in tools], open(os.path.join(out, f"tools{suffix}.json"), "w"), indent=2)
PYEOF
}

# The raw order of every skills folder Cline reads, as the file system lists it.
readdir_of() {  # readdir_of > txt
  python3 - "$WORK" <<'PYEOF'
import os, sys
w = sys.argv[1]
for d in ("proj/.clinerules/skills", "proj/.cline/skills", "proj/.agents/skills", "home/.cline/skills", "home/.agents/skills"):
    p = os.path.join(w, d)
    if os.path.isdir(p):
        for n in os.listdir(p):
            print(f"{p}\t{n}")
PYEOF
}

cap() {  # cap TREE
  local t=$1 raw=$RAW/$1 dst=$GOLD/$1 src=$TREES/$1 extra="" tr=0 xt="" s n d scope=project
  mkdir -p "$dst"
  case "$t" in
    override) src=$TREES/override-project; extra="project-clinerules:$TREES/override-base"; xt="lint-helper" ;;
    minimal|all-fields|invalid|same-name|copilot-invalid) tr=all ;;
    cline-edge) src=$REPO/tests/fixtures/cline-edge; tr=all; xt="disabled-skill enabled-false no-such-skill" ;;
    opencode-edge) tr=all ;;
    scopes) src=$TREES/minimal ;;
  esac
  if [ "$t" = scopes ]; then
    for s in $SCOPES; do
      SCOPE=$s WORK=$WORK ONLY=listing TOOL_RUNS=0 "$ORACLES/capture_cline.sh" "$src" "$raw/$s" > "$raw.$s.log" 2>&1 || fail "cline $t: $s rc=$?"
      tool_of "$raw/$s/listing" "$dst" "-$s" || fail "cline $t: $s: no request"
    done
  else
    SCOPE=$scope EXTRA_TREES=$extra WORK=$WORK TOOL_RUNS=$tr EXTRA_TOOL=$xt "$ORACLES/capture_cline.sh" "$src" "$raw" > "$raw.log" 2>&1 || fail "cline $t: capture rc=$?"
    [ "$(cat "$raw/listing/rc.txt" 2>/dev/null)" = 0 ] || fail "cline $t listing rc=$(cat "$raw/listing/rc.txt" 2>/dev/null)"
    readdir_of > "$dst/readdir.txt"
    tool_of "$raw/listing" "$dst" "" || fail "cline $t: no request"
    [ -f "$GOLD/tool-skills.json" ] || [ "$t" != minimal ] || cp "$raw/listing/main.tool-skills.json" "$GOLD/tool-skills.json"
    for d in "$raw"/tool-*/; do
      [ -d "$d" ] || continue; n=$(basename "$d")
      if [ -f "$d/main.tool-result.txt" ]; then cp "$d/main.tool-result.txt" "$dst/$n.txt"; else fail "cline $t: $n: no tool result"; fi
    done
  fi
  for f in "$dst"/*; do norm "$src" < "$f" > "$f.n" && mv "$f.n" "$f"; done
}

for t in $TREES_SEL; do echo "[cline] $t" >&2; cap "$t"; done

python3 - "$VER" "$DATE" "$GOLD" "$FAILS" "$TREES_SEL" <<'PYEOF'
import json, os, sys
ver, date, gold, fails, trees = sys.argv[1:6]
failed = [l.strip() for l in open(fails, encoding="utf-8")]
status = {}
for t in trees.split():
    d = os.path.join(gold, t)
    files = sorted(os.listdir(d)) if os.path.isdir(d) else []
    bad = [l for l in failed if l.startswith(f"FAIL cline {t}:") or l.startswith(f"FAIL cline {t} ")]
    status[t] = {"files": len(files), "errors": bad} if bad or not files else len(files)
meta = {"agent": "cline", "version": ver, "captured": date,
        "command": "{ORACLES}/capture_cline.sh TREE OUT (cline auth -p openai-compatible -k dummy -m gpt-4o -b MOCK; "
                   "cline 'say hello'; mock answers skills({skill: N, args: null}))",
        "env": "env -i HOME={WORK}/home TERM=dumb LANG=C.UTF-8 NO_COLOR=1 CLINE_SESSION_BACKEND_MODE=local "
               "CLINE_NO_AUTO_UPDATE=1 (unshare -rn); cwd {WORK}/proj (git repo); skills in {WORK}/proj/.cline/skills "
               "(override-base: {WORK}/proj/.clinerules/skills)",
        "capture_script": "tests/oracles/capture_cline.sh",
        "path_placeholders": {"{TREE}": "tests/fixtures/prompt-trees/<tree> (real path)",
                              "{TREES}": "tests/fixtures/prompt-trees (real path)",
                              "{WORK}": "the scratch WORK folder ($SCRATCH/cline)",
                              "{REPO}": "repository root"},
        "trees": status}
with open(os.path.join(gold, "meta.json"), "w", encoding="utf-8") as f:
    json.dump(meta, f, indent=2)
    f.write("\n")
PYEOF

dest=$OUT/$(basename "$GOLD")
[ "$TREES_SEL" = "$ALL_TREES" ] && rm -rf "$dest"
mkdir -p "$dest"; cp -r "$GOLD"/. "$dest"/
echo "goldens: $dest; raw: $RAW"
if [ -s "$FAILS" ]; then echo "failures:" >&2; cat "$FAILS" >&2; exit 1; fi
