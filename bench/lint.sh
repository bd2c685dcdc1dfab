#!/usr/bin/env bash
# Lint speed (issue #2 targets: 200-line SKILL.md ≤ 100 µs, 5,000-line ≤ 10 ms).
# Runs the criterion benchmark and prints the median of each case.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -p skillkit-engine --bench lint 2>&1 | tee /dev/stderr | awk '/time:/ {gsub(/\[|\]/, ""); print $1, $2, $3, "median:", $7, $8}'
