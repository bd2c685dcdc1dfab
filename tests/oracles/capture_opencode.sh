#!/usr/bin/env bash
# Re-capture the OpenCode prompt goldens: the exact skills text the real OpenCode 1.18.33 puts at the
# end of its system prompt, for every test tree in tests/fixtures/prompt-trees/, kept as small
# machine-independent files in tests/fixtures/prompt-goldens/opencode-<version>/<tree>/ (issue #39).
#
#   tests/oracles/capture_opencode.sh [OUT]           OUT defaults to tests/fixtures/prompt-goldens
#
# 1. Install the real program (pinned) and a private ripgrep (its skill tool lists files with rg and
#    would otherwise try to download it):
#        mkdir -p /tmp/oracles-a/npm && cd /tmp/oracles-a/npm && npm init -y
#        npm install --no-fund --no-audit opencode-ai@1.18.33
#        mkdir -p /tmp/oracles-a/rg && cd /tmp/oracles-a/rg && apt-get download ripgrep && dpkg-deb -x ripgrep_*.deb x
#        mkdir -p /tmp/oracles-bin && ln -sf /tmp/oracles-a/rg/x/usr/bin/rg /tmp/oracles-bin/rg
#    OPENCODE_BIN and RG_DIR default to those paths.
# 2. Run this script under the shared capture lock (captures share scratch folders):
#        flock /tmp/oracle-capture.lock tests/oracles/capture_opencode.sh
#    It calls the shared capture script unchanged (ORACLES, default /work/shared/oracles:
#    capture_opencode.sh, which runs `opencode run "hello"` against a local recording mock in a
#    private network namespace; see /work/shared/reference/agents-more.md, "2. OpenCode 1.18.33"),
#    writes raw output under RAW (default /tmp/skillkit-prompt-raw-opencode, wiped) and copies only
#    the small exact outputs into OUT/opencode-<version>/ (replaced). About 10 minutes on 2 cores.
#    Optional env: ONLY_TREES="minimal chars ..." (default: every tree + `override` + `scopes`),
#    SCRATCH (default /tmp/skillkit-oracle-work: the WORK folder is $SCRATCH/opencode; it appears in
#    captured paths and becomes {WORK}).
#
# Each tree is copied to {WORK}/proj/.opencode/skills (project scope; proj is a git repo and the cwd).
#   override  override-project in .opencode/skills, override-base in ~/.config/opencode/skills; both
#             hold `lint-helper`: OpenCode parses all files in parallel and the last parse wins, so
#             the listing is run RUNS_DUP times (default 3) as listing-run<N>.txt
#   same-name three `shared` skills in one folder: also RUNS_DUP listings
#   scopes    the tree `minimal` in each of OpenCode's nine folders (listing-<scope>.txt)
#   discovery tests/fixtures/opencode-discovery (kept out of prompt-trees: nested, hidden and
#             lower-case `skill.md` folders that other agents' profiles do not model)
#
# Kept per tree (text exact, then path-normalised):
#   listing.txt        main.skills-listing.txt: "Skills provide…" … "</available_skills>"
#   loaded.json        `opencode debug skill`: the skills it loaded (name, description, location;
#                      the built-in's content left out), in its order
#   warnings.txt       WARN/ERROR log lines about skills (level and message fields only), when any
#   tool-<N>.txt       the skill tool's result when the mock calls skill({"name": N})
#   tool-skill.json    (top level) the tool definition offered to the model
#   meta.json          version, command, date, per-tree status
# Path normalisation: $TREES/<tree> -> {TREE}, $TREES -> {TREES}, $SCRATCH/opencode -> {WORK},
# the repository -> {REPO}.
set -uo pipefail

REPO=$(cd "$(dirname "$(realpath "$0")")/../.." && pwd)
TREES=$REPO/tests/fixtures/prompt-trees
OUT=$(realpath -m "${1:-$REPO/tests/fixtures/prompt-goldens}")
ORACLES=${ORACLES:-/work/shared/oracles}
RAW=${RAW:-/tmp/skillkit-prompt-raw-opencode}
SCRATCH=${SCRATCH:-/tmp/skillkit-oracle-work}
export OPENCODE_BIN=${OPENCODE_BIN:-/tmp/oracles-a/npm/node_modules/opencode-linux-x64/bin/opencode}
export RG_DIR=${RG_DIR:-/tmp/oracles-bin}
RUNS_DUP=${RUNS_DUP:-3}
WORK=$SCRATCH/opencode
ALL_TREES="all-fields minimal override-base override-project override empty invalid chars long-desc blocks crlf unicode claude-fields budget-60 tolerated collation name-order same-name opencode-edge discovery scopes"
TREES_SEL=${ONLY_TREES:-$ALL_TREES}
SCOPES="project project-skill project-claude project-agents user user-skill user-claude user-agents user-dot-opencode"
VER=$("$OPENCODE_BIN" --version) || { echo "no OpenCode at $OPENCODE_BIN (see the header)" >&2; exit 2; }
GOLD=$RAW/gold/opencode-$VER
DATE=$(date -u +%FT%TZ)
rm -rf "$RAW"; mkdir -p "$RAW" "$GOLD" "$SCRATCH"
FAILS=$RAW/failures.txt; : > "$FAILS"
fail() { echo "FAIL $*" | tee -a "$FAILS" >&2; }

norm() {  # norm TREE_PATH < in > out
  sed -e "s#$1#{TREE}#g" -e "s#$TREES#{TREES}#g" -e "s#$REPO/tests/fixtures#{FIXTURES}#g" -e "s#$WORK#{WORK}#g" -e "s#$REPO#{REPO}#g"
}
keep() {  # keep SRC DEST TREE_PATH
  [ -f "$1" ] || { fail "missing $1"; return 1; }
  mkdir -p "$(dirname "$2")"; norm "$3" < "$1" > "$2"
}
# the loaded skills of `opencode debug skill` (a JSON array after the log lines), without contents
loaded() {  # loaded DEBUG_SKILL_TXT > json
  python3 - "$1" <<'PYEOF'
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
i = text.find("\n[")
start = 0 if text.startswith("[") else i + 1
arr, _ = json.JSONDecoder().raw_decode(text[start:])
out = [{k: s.get(k) for k in ("name", "description", "location")} for s in arr]
json.dump(out, sys.stdout, ensure_ascii=False, indent=2)
sys.stdout.write("\n")
PYEOF
}
# WARN/ERROR lines that mention skills, with timestamp and run id dropped
warnings() {  # warnings STDERR
  grep -a -E 'level=(WARN|ERROR)' "$1" | grep -a -i 'skill' | sed -E 's/^timestamp=[^ ]+ //; s/ run=[^ ]+//' || true
}

cap() {  # cap TREE
  local t=$1 raw=$RAW/$1 dst=$GOLD/$1 src extra="" only="" tr=0 xt="" n s
  src=$TREES/$t; mkdir -p "$dst"
  case "$t" in
    override) src=$TREES/override-project; extra="user:$TREES/override-base" ;;
    minimal|all-fields) tr=all; xt="no-such-skill" ;;
    invalid) xt="no-desc no-such-skill" ;;
    scopes) src=$TREES/minimal ;;
    discovery) src=$REPO/tests/fixtures/opencode-discovery ;;
  esac
  if [ "$t" = scopes ]; then
    for s in $SCOPES; do
      SCOPE=$s WORK=$WORK ONLY=listing TOOL_RUNS=0 "$ORACLES/capture_opencode.sh" "$src" "$raw/$s" > "$raw.$s.log" 2>&1 || fail "opencode $t: $s rc=$?"
      keep "$raw/$s/listing/main.skills-listing.txt" "$dst/listing-$s.txt" "$src"
    done
    return 0
  fi
  EXTRA_TREES=$extra WORK=$WORK TOOL_RUNS=$tr EXTRA_TOOL=$xt "$ORACLES/capture_opencode.sh" "$src" "$raw" > "$raw.log" 2>&1 || fail "opencode $t: capture rc=$?"
  [ "$(cat "$raw/listing/rc.txt" 2>/dev/null)" = 0 ] || fail "opencode $t listing rc=$(cat "$raw/listing/rc.txt" 2>/dev/null)"
  keep "$raw/listing/main.skills-listing.txt" "$dst/listing.txt" "$src"
  [ -f "$GOLD/tool-skill.json" ] || keep "$raw/listing/main.tool-skill.json" "$GOLD/tool-skill.json" "$src"
  loaded "$raw/debug-skill.txt" | norm "$src" > "$dst/loaded.json" || fail "opencode $t: debug skill"
  warnings "$raw/listing/stderr.txt" | norm "$src" > "$dst/warnings.txt"
  [ -s "$dst/warnings.txt" ] || rm -f "$dst/warnings.txt"
  for d in "$raw"/tool-*/; do
    [ -d "$d" ] || continue; n=$(basename "$d")
    keep "$d/main.tool-result.txt" "$dst/$n.txt" "$src"
  done
  case "$t" in
    override|same-name)
      for n in $(seq 1 "$RUNS_DUP"); do
        EXTRA_TREES=$extra WORK=$WORK ONLY=listing TOOL_RUNS=0 "$ORACLES/capture_opencode.sh" "$src" "$raw/run$n" > "$raw.run$n.log" 2>&1 || fail "opencode $t: run$n rc=$?"
        keep "$raw/run$n/listing/main.skills-listing.txt" "$dst/listing-run$n.txt" "$src"
      done ;;
  esac
}

for t in $TREES_SEL; do echo "[opencode] $t" >&2; cap "$t"; done

python3 - "$VER" "$DATE" "$GOLD" "$FAILS" "$TREES_SEL" <<'PYEOF'
import json, os, sys
ver, date, gold, fails, trees = sys.argv[1:6]
failed = [l.strip() for l in open(fails, encoding="utf-8")]
status = {}
for t in trees.split():
    d = os.path.join(gold, t)
    files = sorted(os.listdir(d)) if os.path.isdir(d) else []
    bad = [l for l in failed if l.startswith(f"FAIL opencode {t}:") or l.startswith(f"FAIL opencode {t} ")]
    status[t] = {"files": len(files), "errors": bad} if bad or not files else len(files)
meta = {"agent": "opencode", "version": ver, "captured": date,
        "command": "{ORACLES}/capture_opencode.sh TREE OUT (opencode run --print-logs --log-level DEBUG 'hello'; "
                   "mock answers skill({name: N}); opencode debug skill)",
        "env": "env -i HOME={WORK}/home TERM=dumb LANG=C.UTF-8 NO_COLOR=1 OPENCODE_DISABLE_AUTOUPDATE=1 "
               "OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1 OPENCODE_DISABLE_DEFAULT_PLUGINS=1 "
               "OPENCODE_DISABLE_SHARE=1; ~/.config/opencode/opencode.json: provider mock (@ai-sdk/openai-compatible, "
               "baseURL the local mock), model mock/gpt-4o; cwd {WORK}/proj (git repo); skills in "
               "{WORK}/proj/.opencode/skills (override-base: {WORK}/home/.config/opencode/skills)",
        "capture_script": "tests/oracles/capture_opencode.sh",
        "path_placeholders": {"{TREE}": "tests/fixtures/prompt-trees/<tree> (real path)",
                              "{TREES}": "tests/fixtures/prompt-trees (real path)",
                              "{WORK}": "the scratch WORK folder ($SCRATCH/opencode)",
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
