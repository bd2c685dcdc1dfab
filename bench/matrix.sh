#!/usr/bin/env bash
# `skillkit matrix` speed and memory (issue #39: over the corpus, 1,168 skills × every agent,
# within 3× the time to `cat` every SKILL.md, peak memory ≤ 150 MB).
#
#   bench/matrix.sh [N]     N skills of real content (default 1168, the corpus's count)
#
# Two libraries, both from ../shared/corpus (SKILL_STUDIO_CORPUS names another folder):
#   flat:    N skills sampled from the corpus by bench/gen_real_library.py --flat (renamed copies,
#            written at benchmark time), every one directly in the library folder, where every
#            agent looks: each agent discovers, reads and lists all N;
#   corpus:  the five libraries of the corpus as they are, given as five sources (most agents
#            discover only the skills at the top of a source there).
# For each, in alternating rounds (ROUNDS=15 by default, after two warm-up runs of each):
#   (a) the I/O floor: cat of every SKILL.md
#   (b) skillkit matrix LIB --format json (every agent with a loader)
# and the peak resident memory of (b) with GNU time (three runs, the largest). Warm caches: nothing
# is dropped. Results go to bench/out/matrix-*.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
n=${1:-1168}
case "$n" in '' | *[!0-9]*) echo "usage: bench/matrix.sh [N]  (N a positive integer)" >&2; exit 2 ;; esac
corpus=${SKILL_STUDIO_CORPUS:-$root/../shared/corpus}
if [ ! -d "$corpus" ]; then
  echo "bench: the corpus of real skills is not at $corpus; it is not part of the repository:" >&2
  echo "bench: put it at ../shared/corpus next to the repository root, or set SKILL_STUDIO_CORPUS." >&2
  exit 2
fi
export SKILL_STUDIO_CORPUS; SKILL_STUDIO_CORPUS=$(cd "$corpus" && pwd)
scripts/setup cli >&2
[ -x "${CARGO_HOME:-$HOME/.cargo}/bin/cargo" ] && export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
[ -x /usr/bin/time ] || { echo "bench: GNU time (/usr/bin/time) is needed: apt-get install time" >&2; exit 2; }

echo "bench: building skillkit (release)" >&2
cargo build --release -p skillkit-cli >&2
out="$root/bench/out"
mkdir -p "$out"
skillkit="$out/skillkit-matrix"
cp "${CARGO_TARGET_DIR:-$root/target}/release/skillkit" "$skillkit.tmp" && mv -f "$skillkit.tmp" "$skillkit"

flat="$out/real-flat-$n"
echo "bench: writing $flat (N=$n, flat)" >&2
python3 bench/gen_real_library.py "$n" "$flat" --flat --force >&2
libs=()
for l in "$SKILL_STUDIO_CORPUS"/*/; do libs+=("${l%/}"); done

export BENCH_BUILD; BENCH_BUILD="commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
[ -n "$(git status --porcelain -- crates Cargo.toml Cargo.lock 2>/dev/null)" ] && BENCH_BUILD="$BENCH_BUILD + uncommitted changes in crates/"
export BENCH_LOAD; BENCH_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
python3 - "$skillkit" "$out" "${ROUNDS:-15}" "$flat" "${libs[@]}" <<'EOF'
import json, os, re, statistics, subprocess, sys, time, datetime
skillkit, out, rounds, flat, libs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5:]
def run(cmd):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t
def files(paths):
    return sum(1 for p in paths for r, _, fs in os.walk(p) for f in fs if f == "SKILL.md")
rows = []
for label, paths in (("flat", [flat]), ("corpus", libs)):
    q = " ".join(f"'{p}'" for p in paths)
    cat = ["sh", "-c", f"find {q} -name SKILL.md -print0 | xargs -0 cat > /dev/null"]
    matrix = [skillkit, "matrix", *paths, "--format", "json"]
    for _ in range(2):
        run(cat); run(matrix)
    pairs = []
    for i in range(rounds):
        if i % 2 == 0:
            a = run(cat); b = run(matrix)
        else:
            b = run(matrix); a = run(cat)
        pairs.append((a, b))
    peak = 0
    for _ in range(3):
        p = subprocess.run(["/usr/bin/time", "-v", *matrix], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        peak = max(peak, int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr).group(1)))
    m = json.loads(subprocess.run(matrix, capture_output=True, text=True).stdout)
    ratios = [b / a for a, b in pairs]
    json.dump({"cat": [a for a, _ in pairs], "matrix": [b for _, b in pairs], "peak_kib": peak},
              open(os.path.join(out, f"matrix-{label}.json"), "w"))
    rows.append((label, files(paths), len(m["rows"]), len(m["columns"]), statistics.median([a for a, _ in pairs]),
                 statistics.median([b for _, b in pairs]), statistics.median(ratios), min(ratios), max(ratios), peak * 1024 / 1e6))
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"Machine: {os.cpu_count()} cores ({cpu}); load average before the run: {os.environ.get('BENCH_LOAD')}; date {datetime.date.today()}")
print(f"skillkit: {os.environ.get('BENCH_BUILD')}; warm cache; {rounds} paired rounds after 2 warm-up runs of each")
print()
print("| library | SKILL.md files | rows × agents | cat (median) | matrix (median) | ratio (median; min–max) | peak memory | target |")
print("|---|---|---|---|---|---|---|---|")
for label, nfiles, nrows, ncols, cat, mat, ratio, lo, hi, mb in rows:
    ok = "met" if ratio <= 3 and mb <= 150 else "not met"
    print(f"| {label} | {nfiles} | {nrows} × {ncols} | {cat * 1e3:.1f} ms | {mat * 1e3:.1f} ms | {ratio:.2f}× ({lo:.2f}–{hi:.2f}) | {mb:.0f} MB | ≤ 3×, ≤ 150 MB: {ok} |")
EOF
