#!/usr/bin/env bash
# Re-capture the plugin goldens: what the real `claude plugin validate` of Claude Code 2.1.332 prints
# for each plugin and marketplace fixture in tests/fixtures/plugins/<case>/ (issue #35, item 2).
#
#   tests/oracles/capture_plugin_validate.sh                      every case of the table below
#   tests/oracles/capture_plugin_validate.sh --corpus OUT [ROOT]  every plugin folder under ROOT
#                                                                 (default /work/shared/corpus) into OUT
#                                                                 (outside the repository): OUT/<dir>.txt,
#                                                                 .json, .rc and OUT/summary.txt
#   tests/oracles/capture_plugin_validate.sh --list               the cases, one a line
#
# 1. Install the real program (pinned; a native binary, no model and no account needed for `validate`):
#        mkdir -p /tmp/oracles-drift/claude-code-2.1.332 && cd /tmp/oracles-drift/claude-code-2.1.332
#        npm init -y && npm install --no-fund --no-audit @anthropic-ai/claude-code@2.1.332
#    CLAUDE_BIN defaults to that install's node_modules/.bin/claude.
# 2. Run this script. Each case is copied (without its expected.* files) to WORK/<case> (WORK defaults
#    to /tmp/skillkit-plugin-validate, wiped first; a folder outside any git repository, so the
#    validator's "plugin directory checks", which look for a repository root in up to 32 parents, find
#    none and say so the same way on every machine), then validated one at a time, four times:
#        claude plugin validate WORK/<case>/<target>            -> expected.txt
#        claude plugin validate --json WORK/<case>/<target>     -> expected.json
#        claude plugin validate --strict WORK/<case>/<target>   -> its exit code only, in expected.txt
#        claude plugin validate --profile directory WORK/<case>/<target>   -> the same
#    with the cwd in WORK, env -i, HOME a fresh scratch folder, telemetry, auto-update and
#    non-essential traffic off, inside `unshare -rn` (a private network namespace with loopback only)
#    when the machine allows it: nothing can leave the machine. About 3 seconds per case (76 cases:
#    3.5 minutes on 2 shared cores). A skill tree with findings in two skills prints them in the
#    file system's order (readdir): keep each case to one file with findings, or the golden is not stable.
#
# expected.txt is the program's stdout and stderr, merged in the order printed, between a first line
# "$ claude plugin validate <target>" and three last lines "[exit code: N]",
# "[exit code with --strict: N]" and "[exit code with --profile directory: N]". Paths are made
# machine-independent: WORK/<case> -> {CASE}, WORK -> {WORK}, the scratch HOME -> {HOME}.
# expected.json is the --json report, normalised the same way.
#
# captured-with.txt (written after a full capture without failures) holds `claude --version`.
#
# The table: one case a line, its folder name and the path validated inside it ("." = the folder).
# Every case folder must be listed here and every listed case must have its goldens:
# `cargo test -p e2e --test plugin_goldens` holds both. tests/fixtures/plugins/cases.md says what each
# case is for.
set -uo pipefail

REPO=$(cd "$(dirname "$(realpath "$0")")/../.." && pwd)
CASES_DIR=$REPO/tests/fixtures/plugins
CLAUDE_BIN=${CLAUDE_BIN:-/tmp/oracles-drift/claude-code-2.1.332/node_modules/.bin/claude}
WORK=${WORK:-/tmp/skillkit-plugin-validate}
TIMEOUT=${TIMEOUT:-60}

CASES='
plugin-minimal                    .
plugin-full                       .
plugin-folder                     .
no-manifest-skills                .
no-manifest-nothing               .
no-manifest-bad-skill             .
manifest-file-target              .claude-plugin/plugin.json
manifest-missing-name             .
manifest-name-number              .
manifest-name-spaces              .
manifest-version-number           .
manifest-author-string            .
manifest-keywords-string          .
manifest-unknown-key              .
manifest-typo-key                 .
manifest-npm-key                  .
manifest-marketplace-key          .
manifest-two-errors-and-warning   .
manifest-name-not-kebab           .
manifest-error-and-bad-skill      .
json-trailing-comma               .
json-truncated                    .
json-bad-utf8                     .
json-empty-file                   .
json-array                        .
json-bom                          .
path-no-dot-slash                 .
path-parent                       .
path-absolute                     .
path-missing                      .
path-skill-file                   .
path-array-mixed                  .
path-commands-no-dot              .
skill-broken-frontmatter          .
skill-frontmatter-list            .
skill-description-list            .
skill-description-number          .
skill-allowed-tools-number        .
skill-shell-unknown               .
skill-metadata-list               .
skill-missing-name                .
skill-missing-description         .
skill-no-frontmatter              .
skill-unclosed-frontmatter        .
skill-name-mismatch               .
skill-name-not-string             .
skill-unknown-frontmatter-key     .
skill-lowercase-filename          .
skill-md-at-skills-root           .
market-minimal                    .
market-missing-name               .
market-missing-owner              .
market-owner-string               .
market-owner-no-name              .
market-plugins-object             .
market-plugins-missing            .
market-plugins-empty              .
market-entry-not-object           .
market-entry-no-source            .
market-entry-no-name              .
market-source-no-dot              .
market-source-parent              .
market-source-absolute            .
market-source-github              .
market-source-url                 .
market-source-github-no-repo      .
market-duplicate-names            .
market-source-missing-folder      .
market-unknown-key                .
market-entry-unknown-key          .
market-entry-version-mismatch     .
market-plugin-bad-skill           .
market-plugin-bad-manifest        .
market-plugin-bad-json            .
market-and-plugin                 .
market-trailing-comma             .
market-name-impersonates          .
market-name-reserved              .
market-name-official              .
'

usage() { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; }

# run_validate OUTFILE RCFILE ARGS...: one run of the real program, sandboxed
run_validate() {
  local out=$1 rcf=$2; shift 2
  local home=$WORK/.home net=()
  rm -rf "$home"; mkdir -p "$home"
  if [ "${NETNS:-1}" = 1 ] && unshare -rn true 2>/dev/null; then net=(unshare -rn); fi
  (cd "$WORK" && env -i PATH="$PATH" HOME="$home" TERM=dumb LANG=C.UTF-8 NO_COLOR=1 \
      DISABLE_TELEMETRY=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 \
      DISABLE_ERROR_REPORTING=1 DISABLE_BUG_COMMAND=1 \
      "${net[@]}" timeout "$TIMEOUT" "$CLAUDE_BIN" plugin validate "$@" < /dev/null > "$out" 2>&1)
  echo $? > "$rcf"
}

norm() {  # norm CASE_PATH < in > out
  sed -e "s#$1#{CASE}#g" -e "s#$WORK/.home#{HOME}#g" -e "s#$WORK#{WORK}#g"
}

VER=$("$CLAUDE_BIN" --version 2>/dev/null | head -1) || { echo "no Claude Code at $CLAUDE_BIN (see the header)" >&2; exit 2; }
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  --list) awk 'NF {print $1}' <<< "$CASES"; exit 0 ;;
  --corpus)
    OUT=$(realpath -m "${2:?--corpus OUT [ROOT]}"); ROOT=$(realpath "${3:-/work/shared/corpus}")
    [ -d "$ROOT" ] || { echo "no corpus at $ROOT" >&2; exit 2; }
    case "$OUT/" in "$REPO"/*) echo "keep corpus outputs outside the repository" >&2; exit 2 ;; esac
    rm -rf "$OUT" "$WORK"; mkdir -p "$OUT" "$WORK"
    echo "$VER" > "$OUT/version.txt"
    # a plugin folder: a folder with .claude-plugin/plugin.json or marketplace.json, or with skills/*/SKILL.md
    find "$ROOT" \( -path '*/.claude-plugin/plugin.json' -o -path '*/.claude-plugin/marketplace.json' \) \
        -printf '%h\n' | sed 's#/.claude-plugin$##' > "$OUT/.dirs"
    find "$ROOT" -name SKILL.md -printf '%h\n' | awk -F/ 'NF > 2 && $(NF-1) == "skills"' \
        | sed 's#/skills/[^/]*$##' >> "$OUT/.dirs"
    sort -u "$OUT/.dirs" > "$OUT/plugins.txt"; rm -f "$OUT/.dirs"
    while read -r d; do
      rel=${d#"$ROOT"/}; name=$(tr '/' '~' <<< "$rel")
      run_validate "$OUT/$name.raw" "$OUT/$name.rc" "$d"
      sed -e "s#$d#{PLUGIN}#g" -e "s#$ROOT#{CORPUS}#g" "$OUT/$name.raw" > "$OUT/$name.txt"; rm -f "$OUT/$name.raw"
      run_validate "$OUT/$name.json.raw" "$OUT/$name.json.rc" --json "$d"
      sed -e "s#$d#{PLUGIN}#g" -e "s#$ROOT#{CORPUS}#g" "$OUT/$name.json.raw" > "$OUT/$name.json"
      rm -f "$OUT/$name.json.raw" "$OUT/$name.json.rc"
      echo "[$(cat "$OUT/$name.rc")] $rel" >&2
    done < "$OUT/plugins.txt"
    python3 - "$OUT" "$VER" <<'PYEOF'
import collections, json, os, sys
out, ver = sys.argv[1:3]
dirs = [l.strip() for l in open(os.path.join(out, "plugins.txt")) if l.strip()]
rcs = collections.Counter()
msgs = collections.Counter()
failed = []
for f in sorted(os.listdir(out)):
    if not f.endswith(".rc"):
        continue
    name = f[:-3]
    rc = open(os.path.join(out, f)).read().strip()
    rcs[rc] += 1
    if rc != "0":
        failed.append(name.replace("~", "/"))
    try:
        rep = json.load(open(os.path.join(out, name + ".json"), encoding="utf-8"))
    except Exception as e:  # a run that printed no JSON
        msgs[("(no JSON report)", "", str(e)[:80])] += 1
        continue
    def add(kind, items):
        for i in items or []:
            msgs[(kind, i.get("code") or i.get("path") or "", i.get("message", ""))] += 1
    m = rep.get("manifest") or {}
    add("manifest error", m.get("errors")); add("manifest warning", m.get("warnings")); add("manifest note", m.get("notes"))
    for c in rep.get("contents") or []:
        add("content error", c.get("errors")); add("content warning", c.get("warnings"))
    for x in (rep.get("directory") or {}).get("findings") or []:
        msgs[("directory " + x.get("severity", "?"), x.get("code", ""), x.get("title", ""))] += 1
with open(os.path.join(out, "summary.txt"), "w", encoding="utf-8") as s:
    s.write(f"claude plugin validate ({ver}) over {len(dirs)} plugin folders\n")
    s.write("exit codes: " + ", ".join(f"{k}: {v}" for k, v in sorted(rcs.items())) + "\n")
    s.write(f"failed: {len(failed)}\n" + "".join(f"  {x}\n" for x in failed))
    s.write("distinct messages (count, kind, path or code, message or title):\n")
    for (k, p, m), n in sorted(msgs.items(), key=lambda x: (-x[1], x[0])):
        s.write(f"  {n:4d}  {k}  {p}  {m}\n")
print(open(os.path.join(out, "summary.txt"), encoding="utf-8").read())
PYEOF
    exit 0 ;;
  "") ;;
  *) echo "capture_plugin_validate.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
esac

rm -rf "$WORK"; mkdir -p "$WORK"
fails=0
while read -r c target; do
  [ -n "$c" ] || continue
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $c "* ]]; then continue; fi
  src=$CASES_DIR/$c
  [ -d "$src" ] || { echo "FAIL $c: no folder $src" >&2; fails=$((fails + 1)); continue; }
  dst=$WORK/$c; mkdir -p "$dst"
  (cd "$src" && tar --exclude='./expected.txt' --exclude='./expected.json' -cf - .) | (cd "$dst" && tar -xf -)
  if [ "$target" = . ]; then path=$dst; else path=$dst/$target; fi
  shown=$(norm "$dst" <<< "$path")
  run_validate "$WORK/$c.out" "$WORK/$c.rc" "$path"
  run_validate "$WORK/$c.json" "$WORK/$c.json.rc" --json "$path"
  run_validate "$WORK/$c.strict" "$WORK/$c.strict.rc" --strict "$path"
  run_validate "$WORK/$c.dir" "$WORK/$c.dir.rc" --profile directory "$path"
  rc=$(cat "$WORK/$c.rc"); strict_rc=$(cat "$WORK/$c.strict.rc"); dir_rc=$(cat "$WORK/$c.dir.rc")
  case "$rc" in 0|1) ;; *) echo "FAIL $c: exit code $rc (2 = the program's own error, 124 = timeout)" >&2; fails=$((fails + 1)) ;; esac
  { echo "\$ claude plugin validate $shown"
    norm "$dst" < "$WORK/$c.out"
    echo "[exit code: $rc]"
    echo "[exit code with --strict: $strict_rc]"
    echo "[exit code with --profile directory: $dir_rc]"
  } > "$src/expected.txt"
  norm "$dst" < "$WORK/$c.json" > "$src/expected.json"
  echo "[$rc/$strict_rc/$dir_rc] $c" >&2
done <<< "$CASES"
# a case folder the table does not list is a case without goldens
for d in "$CASES_DIR"/*/; do
  c=$(basename "$d")
  awk -v c="$c" '$1 == c {f=1} END {exit !f}' <<< "$CASES" || { echo "FAIL $c: not in the table" >&2; fails=$((fails + 1)); }
done
echo "captured with $VER; $fails failures" >&2
# the release the goldens come from (tests/tests/plugin_goldens.rs holds it to this header), on a full capture
[ "$fails" = 0 ] && [ -z "${ONLY:-}" ] && echo "$VER" > "$CASES_DIR/captured-with.txt"
[ "$fails" = 0 ]
