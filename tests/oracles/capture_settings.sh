#!/usr/bin/env bash
# Capture Claude Code's skill listing under non-default listing settings (issue #39 item 4):
# `skillListingBudgetFraction`, `skillListingMaxDescChars`, `skillOverrides`, `disableBundledSkills`,
# given through `--settings FILE` (Claude Code's flag settings) or written to the settings files
# Claude Code reads (`~/.claude/settings.json`, `.claude/settings.json`, `.claude/settings.local.json`).
#
#   tests/oracles/capture_settings.sh [OUT]    OUT defaults to tests/fixtures/prompt-goldens/claude-code-V
#
# CLAUDE_BIN: the real CLI, pinned 2.1.332 (npm install @anthropic-ai/claude-code@2.1.332 under /tmp); CODEX_BIN (0.171.0) optional.
# Each case is a folder settings-<case>/ under OUT with
#   listing.txt     the "The following skills are available…" listing (paths normalised as
#                   capture_prompts.sh does), from the shared capture script with ONLY=listing
#   settings.json   what was given with --settings (flag settings), when the case uses it
#   user.json project.json local.json   what was written to ~/.claude/settings.json,
#                   <project>/.claude/settings.json, <project>/.claude/settings.local.json
#   case.json       the tree, how bundled skills were set, rc, stderr when not empty
# Bundled skills stay off (CLAUDE_CODE_DISABLE_BUNDLED_SKILLS=1) as in every other capture, except in
# bundled-disabled, where they are switched off by the `disableBundledSkills` setting alone, and in the
# bundled-* cases, which keep them (Claude Code's default): bundled-<tree> on the trees minimal, budget-60
# (over the budget), bundled-names (user skills named as bundled ones) and empty, bundled-false-file
# (`disableBundledSkills: false` in the project's .claude/settings.json) and bundled-disabled-file
# (`true` there), bundled-max-desc-overrides (skillListingMaxDescChars and skillOverrides on bundled
# names). `CASES="bundled-minimal …"` runs only those.
# Runs under `flock /tmp/oracle-capture.lock` when called by a person: the scratch folder is shared.
set -uo pipefail
REPO=$(cd "$(dirname "$(realpath "$0")")/../.." && pwd)
TREES=$REPO/tests/fixtures/prompt-trees
ORACLES=${ORACLES:-/work/shared/oracles}
: "${CLAUDE_BIN:?set CLAUDE_BIN to the real claude 2.1.332}"
V=$("$CLAUDE_BIN" --version | awk '{print $1}')
OUT=$(realpath -m "${1:-$REPO/tests/fixtures/prompt-goldens/claude-code-$V}")
RAW=${RAW:-/tmp/skillkit-settings-raw}
WORK=${WORK:-/tmp/skillkit-oracle-work/claude-code}
rm -rf "$RAW"; mkdir -p "$RAW" "$OUT"

norm() { sed -e "s#$1#{TREE}#g" -e "s#$TREES#{TREES}#g" -e "s#$WORK#{WORK}#g" -e "s#$REPO#{REPO}#g"; }

# case NAME TREE BUNDLED FLAG_JSON USER_JSON PROJECT_JSON LOCAL_JSON (empty = not given)
case_() {
  local name=$1 tree=$2 bundled=$3 flag=$4 user=$5 project=$6 local_=$7 raw=$RAW/$1 dst=$OUT/settings-$1 args=""
  rm -rf "$dst"; mkdir -p "$dst" "$raw"
  # The shared script wipes WORK first: a wrapper writes the settings files into the fresh scratch
  # folders just before the real CLI starts.
  local w=$raw/claude-wrapper
  {
    echo '#!/bin/sh'
    # Only the capture's own runs (HOME and cwd inside WORK) get the files: the shared script
    # also runs `$CLAUDE_BIN --version` from where it was started.
    echo "case \"\$HOME:\$(pwd)\" in \"$WORK/home:$WORK/proj\") ;; *) exec \"$CLAUDE_BIN\" \"\$@\" ;; esac"
    [ -n "$user" ] && printf 'mkdir -p "$HOME/.claude" && cat > "$HOME/.claude/settings.json" <<'"'"'EOF'"'"'\n%s\nEOF\n' "$user"
    [ -n "$project" ] && printf 'mkdir -p .claude && cat > .claude/settings.json <<'"'"'EOF'"'"'\n%s\nEOF\n' "$project"
    [ -n "$local_" ] && printf 'mkdir -p .claude && cat > .claude/settings.local.json <<'"'"'EOF'"'"'\n%s\nEOF\n' "$local_"
    echo "exec \"$CLAUDE_BIN\" \"\$@\""
  } > "$w"; chmod +x "$w"
  if [ -n "$flag" ]; then printf '%s\n' "$flag" > "$dst/settings.json"; args="--settings $dst/settings.json"; fi
  [ -n "$user" ] && printf '%s\n' "$user" > "$dst/user.json"
  [ -n "$project" ] && printf '%s\n' "$project" > "$dst/project.json"
  [ -n "$local_" ] && printf '%s\n' "$local_" > "$dst/local.json"
  local keep=(); [ "$bundled" = 1 ] && keep=(KEEP_BUNDLED=1)
  env "${keep[@]}" ONLY=listing WORK="$WORK" CLAUDE_BIN="$w" CLAUDE_ARGS="$args" \
    "$ORACLES/capture_claude_code.sh" "$TREES/$tree" "$raw/out" > "$raw.log" 2>&1
  local d=$raw/out/listing rc
  rc=$(cat "$d/rc.txt" 2>/dev/null || echo -1)
  if [ -f "$d/main.skills-listing.txt" ]; then norm "$TREES/$tree" < "$d/main.skills-listing.txt" > "$dst/listing.txt"
  else echo "FAIL $name: no listing (rc=$rc)" >&2; fi
  python3 - "$dst/case.json" "$tree" "$bundled" "$rc" "$d/stderr.txt" <<'PYEOF'
import json, sys
out, tree, bundled, rc, err = sys.argv[1:]
stderr = open(err, encoding="utf-8", errors="replace").read() if __import__("os").path.exists(err) else ""
case = {"tree": tree, "bundled_skills": "kept" if bundled == "1" else "CLAUDE_CODE_DISABLE_BUNDLED_SKILLS=1", "rc": int(rc)}
if stderr:
    case["stderr"] = stderr
json.dump(case, open(out, "w"), indent=2); open(out, "a").write("\n")
PYEOF
  sed -i -e "s#$OUT#{OUT}#g" -e "s#$WORK#{WORK}#g" "$dst/case.json"
  echo "[$name] rc=$rc $(wc -c < "$dst/listing.txt" 2>/dev/null) bytes"
}

OV='{"skillOverrides": {"budget-skill-01": "on", "budget-skill-02": "name-only", "budget-skill-03": "user-invocable-only", "budget-skill-04": "off"}}'
CASES=${CASES:-all}
want() { [ "$CASES" = all ] || [[ " $CASES " == *" $1 "* ]]; }
want fraction-0.002 && case_ fraction-0.002 budget-60 0 '{"skillListingBudgetFraction": 0.002}' "" "" ""
want fraction-0.005 && case_ fraction-0.005 budget-60 0 '{"skillListingBudgetFraction": 0.005}' "" "" ""
want fraction-0.05 && case_ fraction-0.05 budget-60 0 '{"skillListingBudgetFraction": 0.05}' "" "" ""
want max-desc-100 && case_ max-desc-100 budget-60 0 '{"skillListingMaxDescChars": 100}' "" "" ""
want max-desc-20-unicode && case_ max-desc-20-unicode unicode 0 '{"skillListingMaxDescChars": 20}' "" "" ""
want max-desc-invalid && case_ max-desc-invalid long-desc 0 '{"skillListingMaxDescChars": 0}' "" "" ""
want overrides && case_ overrides budget-60 0 "$OV" "" "" ""
want overrides-fraction && case_ overrides-fraction budget-60 0 '{"skillListingBudgetFraction": 0.002, "skillOverrides": {"budget-skill-01": "name-only", "budget-skill-02": "off", "budget-skill-03": "user-invocable-only"}}' "" "" ""
want overrides-builtin && case_ overrides-builtin minimal 0 '{"skillOverrides": {"plugin-authoring": "name-only", "hello-note": "name-only"}}' "" "" ""
want bundled-disabled && case_ bundled-disabled minimal 1 '{"disableBundledSkills": true}' "" "" ""
for t in minimal budget-60 bundled-names empty; do
  want "bundled-$t" && case_ "bundled-$t" "$t" 1 "" "" "" ""
done
want bundled-max-desc-overrides && case_ bundled-max-desc-overrides minimal 1 '{"skillListingMaxDescChars": 100, "skillOverrides": {"dataviz": "name-only", "loop": "off"}}' "" "" ""
want bundled-false-file && case_ bundled-false-file minimal 1 "" "" '{"disableBundledSkills": false}' ""
want bundled-disabled-file && case_ bundled-disabled-file bundled-names 1 "" "" '{"disableBundledSkills": true}' ""
want files && case_ files budget-60 0 "" \
  '{"skillListingMaxDescChars": 50, "skillListingBudgetFraction": 0.5, "skillOverrides": {"budget-skill-05": "off", "budget-skill-06": "name-only", "budget-skill-09": "name-only"}}' \
  '{"skillListingMaxDescChars": 80, "skillOverrides": {"budget-skill-06": "on", "budget-skill-07": "off"}}' \
  '{"skillListingMaxDescChars": 120, "skillOverrides": {"budget-skill-08": "name-only", "budget-skill-09": "on"}}'
want files-flag && case_ files-flag budget-60 0 '{"skillListingMaxDescChars": 60, "skillOverrides": {"budget-skill-10": "off"}}' \
  '{"skillOverrides": {"budget-skill-11": "off"}}' '{"skillListingMaxDescChars": 90}' ""

# Codex: its budget is 2% of the model's context window, a fixed share (no setting names it in
# 0.169.0); the window itself is `model_context_window` in $CODEX_HOME/config.toml. A wrapper puts
# the key at the top of the config.toml the shared script writes, then runs the real CLI.
if [ -n "${CODEX_BIN:-}" ]; then
  CV=$("$CODEX_BIN" --version | awk '{print $NF}')
  COUT=$(dirname "$OUT")/codex-$CV
  CWORK=${CWORK:-/tmp/skillkit-oracle-work/codex}
  for win in 100000; do
    name=context-window-$win raw=$RAW/codex-$win dst=$COUT/settings-context-window-$win
    rm -rf "$dst"; mkdir -p "$dst" "$raw"
    printf '#!/bin/sh\nsed -i "1i model_context_window = %s" "$CODEX_HOME/config.toml"\nexec "%s" "$@"\n' "$win" "$CODEX_BIN" > "$raw/codex-wrapper"
    chmod +x "$raw/codex-wrapper"
    printf 'model_context_window = %s\n' "$win" > "$dst/config.toml"
    ONLY=listing WORK="$CWORK" CODEX_BIN="$raw/codex-wrapper" "$ORACLES/capture_codex.sh" "$TREES/budget-60" "$raw/out" > "$raw.log" 2>&1
    sed -e "s#$TREES/budget-60#{TREE}#g" -e "s#$CWORK#{WORK}#g" < "$raw/out/listing/main.skills-listing.txt" > "$dst/listing.txt" \
      || echo "FAIL codex $name" >&2
    echo "[codex $name] rc=$(cat "$raw/out/listing/rc.txt") $(wc -c < "$dst/listing.txt") bytes"
  done
fi
echo "done: $OUT"
