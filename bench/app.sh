#!/usr/bin/env bash
# The desktop app's speed and size, measured in the real window (nothing is asserted):
#   - cold start to an interactive window (target ≤ 1.5 s): a fresh app process per run, from the
#     WebDriver new-session request that starts it to the library rendered with every skill;
#   - keystroke to updated squiggles on a 500-line SKILL.md (target ≤ 16 ms median, one frame, and
#     p95 ≤ 33 ms; the 95th percentile by nearest rank, so the largest of fewer than 20): a real key event to
#     the error squiggles changing, timed in the page, over the 2×RUNS keys that follow the first 20
#     after the file opens (those run while WebKit still compiles the editor's code, and are shown
#     apart); and the engine's share (`lint_text` IPC);
#   - resident memory of the idle app on the bundled library: the app process and its WebKit
#     processes (RSS and PSS from /proc), after 3 s idle.
# Prints a table with the load average and the commit. Runs under xvfb-run when there is no
# display. Uses the debug build that the tests use unless SKILL_STUDIO_BIN names another binary.
#
#   bench/app.sh [RUNS]        # RUNS fresh starts and 20 + 2×RUNS keystrokes (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x "${CARGO_HOME:-$HOME/.cargo}/bin/cargo" ] && export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
runs="${1:-5}"

if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -z "${BENCH_APP_IN_XVFB:-}" ]; then
  exec env BENCH_APP_IN_XVFB=1 xvfb-run -a -s "-screen 0 1280x800x24" "$0" "$@"
fi

app="${SKILL_STUDIO_BIN:-}"
if [ -z "$app" ]; then
  echo "+ building the UI and the app (debug, as the tests do)" >&2
  (cd ui && npm run build --silent >/dev/null)
  cargo build -q -p skill-studio
  app="$(pwd)/target/debug/skill-studio"
fi

work="$(mktemp -d)"
driver_pid=""
cleanup() {
  if [ -n "$driver_pid" ]; then kill -TERM "$driver_pid" 2>/dev/null || true; wait "$driver_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The bundled library, and the same with a 500-line skill added.
cp -r skills "$work/lib"
cp -r skills "$work/long"
mkdir -p "$work/long/bench-long"
{
  printf -- '---\nname: bench-long\ndescription: A long skill for the keystroke benchmark. Use when measuring how fast the editor shows diagnostics.\n---\n\n# Bench long\n\n'
  for i in $(seq 8 500); do
    if [ $((i % 25)) -eq 0 ]; then printf '## Section %d\n' "$i"
    else printf 'Line %d of the body explains one step of the task in plain words, with `code` and a [link](#section).\n' "$i"; fi
  done
} >"$work/long/bench-long/SKILL.md"
lines=$(wc -l <"$work/long/bench-long/SKILL.md")

port=4580
tauri-driver --port "$port" --native-port $((port + 1)) >"$work/driver.log" 2>&1 &
driver_pid=$!

# The app's processes: the children of WebKitWebDriver (which tauri-driver started), and theirs.
descendants() {
  local p
  for p in $(cat /proc/"$1"/task/*/children 2>/dev/null); do echo "$p"; descendants "$p"; done
}
memory() {
  local wk rss=0 pss=0 app_rss=0 p name
  wk=""
  for p in $(descendants "$driver_pid"); do
    if [ -z "$wk" ] && [ "$(cat /proc/"$p"/comm 2>/dev/null)" = WebKitWebDriver ]; then wk=$p; fi
  done
  for p in $(descendants "$wk"); do
    name=$(cat /proc/"$p"/comm 2>/dev/null || true)
    r=$(awk '/^VmRSS:/ {print $2}' /proc/"$p"/status 2>/dev/null || echo 0)
    s=$(awk '/^Pss:/ {print $2}' /proc/"$p"/smaps_rollup 2>/dev/null || echo 0)
    rss=$((rss + ${r:-0})); pss=$((pss + ${s:-0}))
    if [ "$name" = skill-studio ]; then app_rss=${r:-0}; fi
  done
  echo "$app_rss $rss $pss"
}

coproc PROBE { node bench/app_probe.mjs "$port" "$app" "$work/lib" "$work/long" "$runs"; }
read -r idle <&"${PROBE[0]}"
[ "$idle" = '{"idle":true}' ] || { echo "probe: $idle" >&2; exit 1; }
sleep 3 # idle: nothing happens in the window meanwhile
read -r app_rss total_rss total_pss < <(memory)
echo go >&"${PROBE[1]}"
read -r result <&"${PROBE[0]}"
wait "$PROBE_PID" || true

load=$(cut -d' ' -f1-3 /proc/loadavg)
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . 2>/dev/null || echo '+dirty')"
mb() { awk -v k="$1" 'BEGIN { printf "%.0f MB", k / 1024 }'; }
field() { node -e "const r = JSON.parse(process.argv[1]); const s = r['$1']; console.log(\`\${s.median.toFixed(1)} ms (min \${s.min.toFixed(1)}, max \${s.max.toFixed(1)}, n=\${s.n})\`)" "$result"; }
# The same with the 95th percentile (nearest rank) before the maximum.
field95() { node -e "const r = JSON.parse(process.argv[1]); const s = r['$1']; console.log(\`\${s.median.toFixed(1)} ms (min \${s.min.toFixed(1)}, p95 \${s.p95.toFixed(1)}, max \${s.max.toFixed(1)}, n=\${s.n})\`)" "$result"; }

printf '\nSkill Studio app benchmark: commit %s, load average %s, %s CPUs, %s\n' "$commit" "$load" "$(nproc)" "$(basename "$app") ($( [ -n "${SKILL_STUDIO_BIN:-}" ] && echo custom || echo debug ) build)"
printf '%-52s %-40s %s\n' "measure" "median (min, max)" "target"
printf '%-52s %-40s %s\n' "cold start to interactive window (session request)" "$(field start)" "≤ 1.5 s"
printf '%-52s %-40s %s\n' "  of which in the page (navigation to library shown)" "$(field start_page)" ""
printf '%-52s %-52s %s\n' "keystroke to squiggles, ${lines}-line SKILL.md" "$(field95 keystroke)" "≤ 16 ms median, p95 ≤ 33 ms"
printf '%-52s %-52s %s\n' "  the first 20 keys after the file opens" "$(field95 keystroke_first)" ""
printf '%-52s %-40s %s\n' "  of which lint_text round trip (engine + IPC)" "$(field lint_ipc)" ""
printf '%-52s %-40s %s\n' "idle memory: app process RSS" "$(mb "$app_rss")" ""
printf '%-52s %-40s %s\n' "idle memory: app + WebKit processes RSS / PSS" "$(mb "$total_rss") / $(mb "$total_pss")" ""
