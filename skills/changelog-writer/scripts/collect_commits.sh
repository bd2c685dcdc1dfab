#!/bin/sh
# collect_commits.sh - list the commits that belong in the next changelog entry.
# Part of the changelog-writer skill. POSIX sh and git only.

usage() {
  cat >&2 <<'USAGE'
usage: sh scripts/collect_commits.sh [-C REPO_DIR] [SINCE_REF [UNTIL_REF]]

  -C REPO_DIR  repository to read (default: the current directory)
  SINCE_REF  tag or commit to start after (default: the most recent tag)
  UNTIL_REF  last commit to include (default: HEAD)

Prints one line per non-merge commit, fields separated by tabs:
  SHORT_HASH  DATE  SUBJECT  [BREAKING]
USAGE
}

die() {
  echo "collect_commits: error: $*" >&2
  exit 1
}

if [ "${1:-}" = "-C" ]; then
  [ "$#" -ge 2 ] || { usage; exit 2; }
  cd "$2" 2>/dev/null || die "cannot enter directory '$2'"
  shift 2
fi
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  -*) usage; exit 2 ;;
esac
if [ "$#" -gt 2 ]; then
  usage
  exit 2
fi

command -v git >/dev/null 2>&1 || die "git is not installed or not on PATH"
git rev-parse --is-inside-work-tree >/dev/null 2>&1 \
  || die "not inside a git work tree: $(pwd) (pass -C REPO_DIR)"

until_ref=${2:-HEAD}
git rev-parse --verify --quiet "$until_ref^{commit}" >/dev/null \
  || die "unknown ref '$until_ref' (does the repository have any commits?)"

if [ -n "${1:-}" ]; then
  since_ref=$1
  git rev-parse --verify --quiet "$since_ref^{commit}" >/dev/null \
    || die "unknown ref '$since_ref'; list tags with: git tag --sort=-creatordate"
else
  since_ref=$(git describe --tags --abbrev=0 "$until_ref" 2>/dev/null)
fi

if [ -n "$since_ref" ]; then
  range="$since_ref..$until_ref"
else
  range=$until_ref
  echo "collect_commits: note: no tags found, listing the full history" >&2
fi

count=$(git rev-list --no-merges --count "$range") || die "git rev-list failed for $range"
if [ "$count" -eq 0 ]; then
  echo "collect_commits: note: no commits in $range" >&2
  exit 0
fi
echo "collect_commits: $count commit(s) in $range" >&2

git log --no-merges --format='%h' "$range" | while read -r hash; do
  date=$(git log -1 --format='%ad' --date=short "$hash")
  subject=$(git log -1 --format='%s' "$hash")
  flag=""
  if printf '%s\n' "$subject" | grep -Eq '^[A-Za-z]+(\([^)]*\))?!:'; then
    flag="BREAKING"
  elif git log -1 --format='%b' "$hash" | grep -Eq '^BREAKING[ -]CHANGE:'; then
    flag="BREAKING"
  fi
  if [ -n "$flag" ]; then
    printf '%s\t%s\t%s\t%s\n' "$hash" "$date" "$subject" "$flag"
  else
    printf '%s\t%s\t%s\n' "$hash" "$date" "$subject"
  fi
done
