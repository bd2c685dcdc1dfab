# What the prompt-capture scripts (capture_copilot_cli.sh, capture_kimi_cli.sh,
# capture_letta_code.sh, capture_mistral_vibe.sh, capture_qwen_code.sh) share. Sourced, not run:
# each of them keeps only its agent's specifics (the program and its version, the trees, how one
# tree is captured and which pieces of the run are kept), and the shared capture script under
# ORACLES (default /work/shared/oracles) starts the mock model and the network namespace.
#
# A script sets AGENT (the golden folder's prefix, `kimi-cli`) and RAW_NAME (RAW defaults to
# /tmp/skillkit-prompt-raw-$RAW_NAME), sources this file, and then:
#   capture_start "${1:-}"       after VERSION and ALL_TREES are set: OUT (the first argument, or
#                                tests/fixtures/prompt-goldens), DST=$OUT/$AGENT-$VERSION, RAW wiped,
#                                DST wiped unless ONLY_TREES or BUNDLED=1 is set, FAILS
#   capture_each_tree            the per-tree loop: for each tree of TREES_SEL (ONLY_TREES, or
#                                ALL_TREES), sets `t`, `raw`, `dst` (with SUFFIX), `src` and `user`
#                                (`override` is override-project plus override-base as the user's
#                                folder; the script's optional `tree_sources` may change them),
#                                skips a tree whose `src` is missing, calls the script's
#                                `capture_tree`, path-normalises every file in `dst` (`norm`) and
#                                records the tree's status
#   pick KIND RUNDIR OUTDIR ...  runs the script's PICK_PY (Python) after PICK_PRELUDE, which reads
#                                RUNDIR/requests.jsonl into `reqs` (the POSTed bodies with messages)
#                                and defines `text(content)`
#   capture_finish KEY VALUE...  writes DST/meta.json (agent, version, date, then the KEY/VALUE
#                                pairs in order, then the per-tree status merged into the old
#                                one), reports the failures (exit 1) or `done: DST`
# Path normalisation (`norm TREE_PATH < in > out`): TREE_PATH -> {TREE} (unless NORM_TREE=0), the
# capture's WORK -> {WORK}, then the script's NORM_EXTRA sed expressions, $TREES -> {TREES},
# $REPO -> {REPO}.

REPO=$(cd "$(dirname "$(realpath "${BASH_SOURCE[0]}")")/../.." && pwd)
TREES=$REPO/tests/fixtures/prompt-trees
ORACLES=${ORACLES:-/work/shared/oracles}
SCRATCH=${SCRATCH:-/tmp/skillkit-oracle-work}
WORK=$SCRATCH/$AGENT
RAW=${RAW:-/tmp/skillkit-prompt-raw-$RAW_NAME}
# The trees every agent is captured on; a script appends its own.
COMMON_TREES="all-fields minimal override-base override-project override empty invalid chars long-desc blocks crlf unicode claude-fields budget-60 tolerated name-order collation same-name"
NORM_TREE=${NORM_TREE:-1}
NORM_EXTRA=()
SUFFIX=${SUFFIX:-}
declare -A STATUS=()

fail() { echo "FAIL $*" | tee -a "$FAILS" >&2; }

capture_start() {  # capture_start [OUT]
  OUT=$(realpath -m "${1:-$REPO/tests/fixtures/prompt-goldens}")
  TREES_SEL=${ONLY_TREES:-$ALL_TREES}
  DST=$OUT/$AGENT-$VERSION
  DATE=$(date -u +%FT%TZ)
  rm -rf "$RAW"; mkdir -p "$RAW" "$SCRATCH"
  [ -n "${ONLY_TREES:-}" ] || [ "${BUNDLED:-0}" = 1 ] || rm -rf "$DST"
  mkdir -p "$DST"
  FAILS=$RAW/failures.txt; : > "$FAILS"
}

norm() {  # norm TREE_PATH < in > out
  local tree=()
  [ "$NORM_TREE" = 1 ] && tree=(-e "s#$1#{TREE}#g")
  sed ${tree[@]+"${tree[@]}"} -e "s#$WORK#{WORK}#g" ${NORM_EXTRA[@]+"${NORM_EXTRA[@]}"} \
    -e "s#$TREES#{TREES}#g" -e "s#$REPO#{REPO}#g"
}

PICK_PRELUDE='import json, os, re, sys
kind, d, out = sys.argv[1], sys.argv[2], sys.argv[3]
reqs = []
for line in open(os.path.join(d, "requests.jsonl"), encoding="utf-8"):
    e = json.loads(line)
    if e.get("method") == "POST" and isinstance(e.get("body"), dict) and e["body"].get("messages"):
        reqs.append(e["body"])
def text(c):
    return c if isinstance(c, str) else "".join(p.get("text", "") for p in c if p.get("type") == "text")
'

pick() {  # pick KIND RUNDIR OUTDIR [...]: the script's PICK_PY on one run folder
  python3 -c "$PICK_PRELUDE$PICK_PY" "$@"
}

capture_each_tree() {
  for t in $TREES_SEL; do
    raw=$RAW/$t dst=$DST/$t$SUFFIX src=$TREES/$t user=""
    if [ "$t" = override ]; then src=$TREES/override-project; user=$TREES/override-base; fi
    if declare -F tree_sources > /dev/null; then tree_sources "$t"; fi
    [ -d "$src" ] || { fail "$t: no tree $src"; continue; }
    rm -rf "$dst"; mkdir -p "$dst" "$raw"
    capture_tree "$t"
    for f in "$dst"/*; do [ -f "$f" ] && norm "$src" < "$f" > "$f.n" && mv "$f.n" "$f"; done
    STATUS[$t$SUFFIX]=$(grep -q "^FAIL $t:" "$FAILS" && echo failed || echo ok)
    echo "[$t$SUFFIX] ${STATUS[$t$SUFFIX]}: $(ls "$dst" | tr '\n' ' ')"
  done
}

capture_finish() {  # capture_finish KEY VALUE ...: meta.json's keys after agent, version and date
  python3 - "$DST/meta.json" "$AGENT" "$VERSION" "$DATE" \
    "$(for t in "${!STATUS[@]}"; do echo "$t=${STATUS[$t]}"; done)" "$@" <<'PYEOF'
import json, os, sys
path, agent, version, date, status = sys.argv[1:6]
pairs = sys.argv[6:]
old = json.load(open(path)) if os.path.exists(path) else {}
trees = old.get("trees", {})
trees.update(dict(l.split("=", 1) for l in status.split()))
meta = {"agent": agent, "version": version, "date": date}
meta.update(zip(pairs[0::2], pairs[1::2]))
meta["trees"] = dict(sorted(trees.items()))
json.dump(meta, open(path, "w"), indent=2)
open(path, "a").write("\n")
PYEOF
  if [ -s "$FAILS" ]; then echo "failures:"; cat "$FAILS"; exit 1; fi
  echo "done: $DST"
}
