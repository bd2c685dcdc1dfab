#!/usr/bin/env bash
# Drift check (issue #39, item 3): re-capture each profile's prompt goldens against the newest published
# release of the real program and print what changed against the checked-in goldens, so that a new
# release is reviewed within a day.
#
#   tests/oracles/drift.sh [--agents "claude-code codex"] [--version AGENT=VERSION]... [--scratch DIR]
#                          [--full] [--no-lock] [--list]
#
#   --agents    which agents (default: every row of the table below whose capture script exists)
#   --version   capture this version instead of the newest on the registry (repeatable)
#   --scratch   where installs, raw captures and new goldens go (default /tmp/skillkit-drift; the
#               program is installed once per version in SCRATCH/install/<agent>-<version>)
#   --full      print every differing file's whole diff (default: the first DIFF_LINES=60 lines of each)
#   --no-lock   do not take /tmp/oracle-capture.lock around each capture (when the caller holds it)
#   --list      print the table with each agent's reviewed version and exit
#
# For each agent: the reviewed version is read from the checked-in goldens' folder name
# (tests/fixtures/prompt-goldens/<agent>-<version>/, the highest version when there are several;
# each profile's `source` names the same release); the newest version comes from `npm view PKG
# version` or PyPI's JSON API (https://pypi.org/pypi/PKG/json); the program is installed under
# SCRATCH (npm install / a venv with pip install PKG==VERSION), never in the repository; the agent's
# own capture script (capture_prompts.sh with AGENTS=<agent>, or capture_<agent>.sh) writes fresh
# goldens into SCRATCH/gold/<agent>-<new version>/ under the capture lock; then every file is
# compared with the checked-in golden (meta.json, which holds the date, is left out of the count)
# and a summary line is printed per agent:
#   codex 0.169.0 -> 0.171.0: 1 of 46 files differ
# Files only in one of the two folders count as differing ("only in golden" / "only in new").
# Races show up as differences even on the same release: re-capturing OpenCode 1.18.33 against its own
# goldens (2026-11-28) gave 13 of 66 files differing, all of them `loaded.json` (`opencode debug
# skill` prints skills in parse-completion order) and the `same-name` tree (which duplicate wins);
# every listing of a tree without duplicate names was identical. Read those files' diffs as chance.
# To adopt a new release: review the diff, update the profile, move the goldens (copy SCRATCH/gold/
# <agent>-<new> into tests/fixtures/prompt-goldens/ and delete the old folder), the tests' golden
# folder constant and the profile's `source`.
#
# Exit status: 0 nothing differs; 1 something differs; 2 it cannot run (no goldens, no capture
# script, the registry or the install failed, or a capture failed) for at least one selected agent —
# 2 wins over 1, since a check that did not run must not pass for one that found nothing.
#
# Adding an agent: one row in the table. Columns: agent id (= the goldens' folder prefix), registry
# (npm | pypi), package, program path inside the install folder, capture script (in tests/oracles/),
# and the variable that script reads the program from. capture_prompts.sh is given AGENTS=<agent>.
set -uo pipefail

REPO=$(cd "$(dirname "$(realpath "$0")")/../.." && pwd)
GOLDENS=$REPO/tests/fixtures/prompt-goldens
HERE=$REPO/tests/oracles
LOCK=/tmp/oracle-capture.lock

TABLE='
claude-code   npm   @anthropic-ai/claude-code  node_modules/.bin/claude                       capture_prompts.sh       CLAUDE_BIN
codex         npm   @openai/codex              node_modules/.bin/codex                        capture_prompts.sh       CODEX_BIN
gemini-cli    npm   @google/gemini-cli         node_modules/.bin/gemini                       capture_prompts.sh       GEMINI_BIN
deepagents    pypi  deepagents                 venv/bin/python                                capture_prompts.sh       PY
skills-ref    pypi  skills-ref                 venv/bin/agentskills                           capture_prompts.sh       AGENTSKILLS_BIN
copilot-cli   npm   @github/copilot            node_modules/.bin/copilot                      capture_copilot_cli.sh   COPILOT_BIN
opencode      npm   opencode-ai                node_modules/opencode-linux-x64/bin/opencode   capture_opencode.sh      OPENCODE_BIN
cline         npm   cline                      node_modules/.bin/cline                        capture_cline.sh         CLINE_BIN
qwen-code     npm   @qwen-code/qwen-code       node_modules/.bin/qwen                         capture_qwen_code.sh     QWEN_BIN
kimi-cli      pypi  kimi-cli                   venv/bin/kimi                                  capture_kimi_cli.sh      KIMI_BIN
mistral-vibe  pypi  mistral-vibe               venv/bin/vibe                                  capture_mistral_vibe.sh  VIBE_BIN
letta-code    npm   @letta-ai/letta-code       node_modules/.bin/letta                        capture_letta_code.sh    LETTA_BIN
'

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }
SEL="" SCRATCH=/tmp/skillkit-drift FULL=0 USE_LOCK=1 LIST=0
declare -A OVERRIDE
while [ $# -gt 0 ]; do
  case "$1" in
    --agents) SEL=$2; shift 2 ;;
    --agents=*) SEL=${1#*=}; shift ;;
    --version) OVERRIDE[${2%%=*}]=${2#*=}; shift 2 ;;
    --version=*) v=${1#*=}; OVERRIDE[${v%%=*}]=${v#*=}; shift ;;
    --scratch) SCRATCH=$2; shift 2 ;;
    --full) FULL=1; shift ;;
    --no-lock) USE_LOCK=0; shift ;;
    --list) LIST=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "drift.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done
SCRATCH=$(realpath -m "$SCRATCH")
DIFF_LINES=${DIFF_LINES:-60}

row() { awk -v a="$1" '$1 == a' <<< "$TABLE"; }
all_agents() { awk 'NF {print $1}' <<< "$TABLE"; }

# reviewed AGENT: the version in the checked-in goldens' folder name (highest when several)
reviewed() {
  local d best=""
  for d in "$GOLDENS/$1"-[0-9]*/; do
    [ -d "$d" ] || continue
    d=$(basename "$d"); d=${d#"$1"-}
    [[ $d =~ ^[0-9][0-9A-Za-z.+-]*$ ]] || continue
    best=$(printf '%s\n%s\n' "$best" "$d" | sed '/^$/d' | sort -V | tail -1)
  done
  printf '%s' "$best"
}

newest() {  # newest REGISTRY PACKAGE
  case "$1" in
    npm) npm view "$2" version 2>/dev/null | tail -1 ;;
    pypi) python3 - "$2" <<'PYEOF'
import json, sys, urllib.request
try:
    with urllib.request.urlopen(f"https://pypi.org/pypi/{sys.argv[1]}/json", timeout=60) as r:
        print(json.load(r)["info"]["version"])
except Exception as e:
    print(f"pypi: {e}", file=sys.stderr)
PYEOF
    ;;
  esac
}

install() {  # install REGISTRY PACKAGE VERSION DIR
  local reg=$1 pkg=$2 ver=$3 dir=$4
  [ -f "$dir/.installed" ] && return 0
  rm -rf "$dir"; mkdir -p "$dir"
  case "$reg" in
    npm) (cd "$dir" && npm init -y > /dev/null && npm install --no-fund --no-audit "$pkg@$ver") > "$dir.log" 2>&1 ;;
    pypi) { python3 -m venv "$dir/venv" && "$dir/venv/bin/pip" install -q "$pkg==$ver"; } > "$dir.log" 2>&1 ;;
  esac || return 1
  touch "$dir/.installed"
}

if [ "$LIST" = 1 ]; then
  printf '%-13s %-9s %-27s %s\n' agent reviewed package "capture script"
  for a in $(all_agents); do
    read -r _ reg pkg _ script _ <<< "$(row "$a")"
    r=$(reviewed "$a"); [ -f "$HERE/$script" ] || script="$script (absent)"
    printf '%-13s %-9s %-27s %s\n' "$a" "${r:-none}" "$reg:$pkg" "$script"
  done
  exit 0
fi

if [ -z "$SEL" ]; then
  for a in $(all_agents); do
    read -r _ _ _ _ script _ <<< "$(row "$a")"
    [ -f "$HERE/$script" ] && [ -n "$(reviewed "$a")" ] && SEL="$SEL $a"
  done
fi
for a in "${!OVERRIDE[@]}"; do [ -n "$(row "$a")" ] || { echo "drift.sh: --version for unknown agent $a" >&2; exit 2; }; done

mkdir -p "$SCRATCH/install" "$SCRATCH/gold" "$SCRATCH/log"
SUMMARY=() STATUS=0
cannot() { SUMMARY+=("$1: cannot run: $2"); echo "drift.sh: $1: cannot run: $2" >&2; STATUS=2; }

for a in $SEL; do
  r=$(row "$a")
  [ -n "$r" ] || { cannot "$a" "not in the table"; continue; }
  read -r _ reg pkg bin script var <<< "$r"
  old=$(reviewed "$a")
  [ -n "$old" ] || { cannot "$a" "no checked-in goldens ($GOLDENS/$a-<version>/)"; continue; }
  [ -f "$HERE/$script" ] || { cannot "$a" "no capture script tests/oracles/$script"; continue; }
  new=${OVERRIDE[$a]:-$(newest "$reg" "$pkg")}
  [ -n "$new" ] || { cannot "$a" "cannot read the newest version of $reg:$pkg"; continue; }
  inst=$SCRATCH/install/$a-$new
  echo "== $a: reviewed $old, newest $new ($reg:$pkg)" >&2
  install "$reg" "$pkg" "$new" "$inst" || { cannot "$a" "install of $pkg@$new failed (log: $inst.log)"; continue; }
  [ -x "$inst/$bin" ] || { cannot "$a" "the install has no $bin"; continue; }
  out=$SCRATCH/gold; rm -rf "${out:?}/$a-"*
  log=$SCRATCH/log/$a-$new.log
  cmd=(env "$var=$inst/$bin" RAW="$SCRATCH/raw-$a")
  [ "$script" = capture_prompts.sh ] && cmd+=(AGENTS="$a")
  cmd+=("$HERE/$script" "$out")
  [ "$USE_LOCK" = 1 ] && cmd=(flock "$LOCK" "${cmd[@]}")
  echo "   capturing (log: $log)" >&2
  "${cmd[@]}" > "$log" 2>&1; rc=$?
  # Qwen Code and Letta Code also have goldens with their bundled skills on (<tree>-bundled/).
  case "$a" in qwen-code|letta-code)
    [ "$rc" = 0 ] && { env BUNDLED=1 "${cmd[@]}" >> "$log" 2>&1; rc=$?; } ;;
  esac
  got=$(ls -d "$out/$a"-[0-9]* 2>/dev/null | head -1)
  if [ -z "$got" ]; then cannot "$a" "the capture wrote no goldens (rc $rc, log: $log)"; continue; fi
  [ "$(basename "$got")" = "$a-$new" ] || echo "   note: the program reports itself as $(basename "$got")" >&2
  [ "$rc" = 0 ] || { cannot "$a" "the capture failed (rc $rc; log: $log); partial goldens in $got"; continue; }
  gold=$GOLDENS/$a-$old
  total=0 differ=0 files=()
  while IFS= read -r f; do
    total=$((total + 1))
    if ! cmp -s "$gold/$f" "$got/$f"; then differ=$((differ + 1)); files+=("$f"); fi
  done < <( (cd "$gold" && find . -type f ! -name meta.json; cd "$got" && find . -type f ! -name meta.json) | sed 's#^\./##' | sort -u)
  for f in "${files[@]}"; do
    if [ ! -e "$gold/$f" ]; then echo "--- $a: only in new: $f"
    elif [ ! -e "$got/$f" ]; then echo "--- $a: only in golden: $f"
    elif [ "$FULL" = 1 ]; then diff -u --label "golden $a-$old/$f" --label "new $a-$new/$f" "$gold/$f" "$got/$f"
    else diff -u --label "golden $a-$old/$f" --label "new $a-$new/$f" "$gold/$f" "$got/$f" | head -n "$DIFF_LINES"
    fi
  done
  SUMMARY+=("$a $old -> $new: $differ of $total files differ (new goldens: $got)")
  [ "$differ" -gt 0 ] && [ "$STATUS" = 0 ] && STATUS=1
done

echo
echo "drift summary:"
for s in "${SUMMARY[@]}"; do echo "  $s"; done
[ ${#SUMMARY[@]} -gt 0 ] || { echo "  no agent selected"; exit 2; }
exit "$STATUS"
