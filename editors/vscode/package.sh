#!/usr/bin/env bash
# Builds dist/skillkit-<version>.vsix: installs the pinned tools (when package-lock.json is newer
# than node_modules), type-checks, bundles with esbuild and packages with vsce. Quiet on success;
# prints the .vsix path last.
set -euo pipefail
cd "$(dirname "$0")"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
run() { # run a step quietly; on failure show its output and stop
  if ! "$@" >"$log" 2>&1; then
    echo "package.sh: failed: $*" >&2
    grep -v 'Unknown user config "nodedir"' "$log" >&2 || true
    exit 1
  fi
}

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then
  run npm ci --no-audit --no-fund --loglevel=error
  touch node_modules # npm ci may keep the folder's old time
fi
run npx --no-install tsc --noEmit -p .
run node scripts/bundle.mjs

version=$(node -p 'require("./package.json").version')
vsix="dist/skillkit-$version.vsix"
mkdir -p dist
rm -f "$vsix"
run npx --no-install vsce package --no-dependencies --allow-missing-repository --skip-license --out "$vsix"
echo "$PWD/$vsix"
