#!/usr/bin/env bash
# The scores of `competing-descriptions` (SK705) on the corpus of published skills, to choose and
# re-check its threshold (`THRESHOLD` in crates/skillkit/src/library/overlap.rs).
#
#   bench/overlap.sh                 the table: per library, its skills, how many have a trigger
#                                    clause, and the pairs (skills) at candidate thresholds
#   bench/overlap.sh --pairs 0.4     the same, then every pair scoring 0.4 or more, highest first,
#                                    with its shared words
#   bench/overlap.sh --pairs 0.4 --clauses   each pair's two trigger clauses too, to judge by hand
#
# Each library of ../shared/corpus is one library (its own IDF), as `skillkit check` on its
# folder scores it; SKILL_STUDIO_CORPUS names another folder, and further arguments that are
# folders are scored instead. The pairs it prints are the corpus's text: read them, do not copy
# them into the repository. Runs crates/skillkit/examples/overlap_scores.rs (release build).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
corpus=${SKILL_STUDIO_CORPUS:-$root/../shared/corpus}
args=()
libs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --pairs | --floor) args+=("$1" "$2"); shift 2 ;;
    --clauses) args+=("$1"); shift ;;
    *) libs+=("$1"); shift ;;
  esac
done
if [ ${#libs[@]} -eq 0 ]; then
  if [ ! -d "$corpus" ]; then
    echo "bench: the corpus of real skills is not at $corpus: it is not part of the repository;" >&2
    echo "bench: put it at ../shared/corpus next to the repository root, or set SKILL_STUDIO_CORPUS." >&2
    exit 2
  fi
  for l in anthropics-skills obra-superpowers github-awesome-copilot wshobson-agents alirezarezvani-claude-skills; do
    [ -d "$corpus/$l" ] && libs+=("$corpus/$l")
  done
fi
cargo build --release -q -p skillkit-engine --example overlap_scores >&2
"${CARGO_TARGET_DIR:-$root/target}/release/examples/overlap_scores" ${args[@]+"${args[@]}"} "${libs[@]}"
