#!/usr/bin/env python3
"""Generate a held-back library of varied real skills for benchmarks (issue #39, item 7).

    bench/gen_varied_library.py N OUT [--seed S] [--force]

Writes N skills into OUT, copied from public skill libraries OTHER than the five of
../shared/corpus, and OUT/MANIFEST.json (counts, and each source repository with the commit
read). The skills come from git snapshots of the repositories listed in SOURCES below, each read
at its pinned commit; they are looked for in $SKILL_STUDIO_VARIED_SOURCES (default
bench/out/sources) as `<owner>+<name>/repo`, `<owner>+<name>.git` or `<owner>+<name>` (git
directories, bare or not), and cloned there (`git clone --bare`) when absent. No third-party text
is part of the repository: this script reads the snapshots when it runs and writes only into OUT.

What is sampled: every SKILL.md of a source (at any depth) whose content is not a corpus skill's
(by hash of the bytes, and no path through a corpus library's folder: anthropics/skills,
obra/superpowers, github/awesome-copilot, wshobson/agents, alirezarezvani/claude-skills), not a
symlink, not over 200 KB, and not a byte-identical copy of another sampled one (the collections
mirror each other). From those, each source gives its share of N (SOURCES' weights), sampled with
a seeded RNG; if a source has fewer distinct skills than its share, the rest is taken again from
its skills under another folder name, so N is reached on any of them.

For each skill, written byte for byte (frontmatter and body untouched: names that differ from
their folder, invalid YAML, unknown keys, every language and script are the content under test):

- `OUT/<source>/<folder>/SKILL.md`, `<folder>` the skill's own folder name (a suffix `-2`, `-3`, ...
  when the name is taken in that source's part of the library, or for a repeated skill);
- its resource tree: every other file below its folder (nested skills' folders left out), with
  the source's contents; files over 200 KB are written empty; at most 200 files per skill; symlinks
  are left out.

Python 3 standard library and git only. The output depends only on N, the seed, the pinned
commits and VERSION. Written to a temporary folder next to OUT and renamed into place at the end.
"""

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import time

GENERATOR = "skill-studio-bench-gen-varied"
VERSION = 1

# (repository, pinned commit, weight): community collections with many authors, languages and
# layouts. None of them is one of ../shared/corpus's five libraries (whose copies inside them are
# left out, see EXCLUDED_PATH_PARTS).
SOURCES = [
    ("AgentWorkers/skills", "1e90d6049ff1436194cb2cd882582fccc6ae38d0", 40),
    ("gabrielmoreira/agent-skills-mirror", "4e7649a87f4d537d80ff59a4fcf2857c2b28ff7e", 30),
    ("thereisnotime/skills-collection", "cbf6db9f5fc99fe1a01f4c5e8cca7bee38f5dc8d", 20),
    ("agentskillexchange/skills", "2ffdadfcca8576cdf14caec9bbcda7162c393bbc", 10),
]
# A path through one of these folders is a copy of a corpus library.
EXCLUDED_PATH_PARTS = ("anthropics", "superpowers", "awesome-copilot", "wshobson", "alirezarezvani")
SKILL_FILE = "SKILL.md"
MAX_BYTES = 200_000
MAX_FILES = 200


def corpus_dir():
    env = os.environ.get("SKILL_STUDIO_CORPUS")
    if env:
        return os.path.abspath(env)
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "shared", "corpus"))


def sources_dir():
    env = os.environ.get("SKILL_STUDIO_VARIED_SOURCES")
    if env:
        return os.path.abspath(env)
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "out", "sources")


def git_dir(repo, commit):
    """A git directory holding `commit` of `repo`, cloning it when none is found."""
    base = sources_dir()
    slug = repo.replace("/", "+")
    for cand in (os.path.join(base, slug, "repo"), os.path.join(base, slug + ".git"), os.path.join(base, slug)):
        if os.path.isdir(os.path.join(cand, ".git")):
            cand = os.path.join(cand, ".git")
        if os.path.isdir(cand) and subprocess.run(["git", "--git-dir", cand, "cat-file", "-e", commit + "^{commit}"],
                                                  capture_output=True).returncode == 0:
            return cand
    dest = os.path.join(base, slug + ".git")
    print(f"gen_varied_library: cloning {repo} into {dest}", file=sys.stderr)
    os.makedirs(base, exist_ok=True)
    if not os.path.isdir(dest):
        r = subprocess.run(["git", "clone", "--bare", "--quiet", f"https://github.com/{repo}", dest])
        if r.returncode != 0:
            print(f"gen_varied_library: could not clone {repo}; put a snapshot of it in {base}", file=sys.stderr)
            sys.exit(2)
    if subprocess.run(["git", "--git-dir", dest, "cat-file", "-e", commit + "^{commit}"], capture_output=True).returncode:
        print(f"gen_varied_library: {repo} has no commit {commit}", file=sys.stderr)
        sys.exit(2)
    return dest


def blob_sha(data):
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def corpus_hashes():
    """Git blob hashes of every SKILL.md of the corpus (empty when it is absent)."""
    out = set()
    root = corpus_dir()
    for d, _, files in os.walk(root):
        if SKILL_FILE in files:
            try:
                with open(os.path.join(d, SKILL_FILE), "rb") as f:
                    out.add(blob_sha(f.read()))
            except OSError:
                pass
    return out


class Blobs:
    """`git cat-file --batch` on one repository."""

    def __init__(self, gd):
        self.p = subprocess.Popen(["git", "--git-dir", gd, "cat-file", "--batch"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def read(self, sha):
        self.p.stdin.write(sha.encode() + b"\n")
        self.p.stdin.flush()
        header = self.p.stdout.readline().split()
        size = int(header[2])
        data = self.p.stdout.read(size)
        self.p.stdout.read(1)
        return data

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def tree(gd, commit):
    """[(mode, sha, size, path)] of every blob at `commit`."""
    out = subprocess.run(["git", "--git-dir", gd, "ls-tree", "-r", "-l", "-z", commit],
                         capture_output=True, check=True).stdout
    rows = []
    for entry in out.split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        mode, kind, sha, size = meta.split()
        if kind != b"blob":
            continue
        if not size.isdigit():  # a blob absent from the snapshot (its largest files may be)
            continue
        rows.append((mode.decode(), sha.decode(), int(size), path.decode("utf-8", "surrogateescape")))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int)
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args()
    out = os.path.abspath(a.out)
    if os.path.exists(out):
        m = os.path.join(out, "MANIFEST.json")
        ok = not os.listdir(out) or (os.path.isfile(m) and json.load(open(m)).get("generator") == GENERATOR)
        if not a.force or not ok:
            print(f"gen_varied_library: {out} exists (use --force to replace a library written by this script)",
                  file=sys.stderr)
            sys.exit(2)
    t0 = time.time()
    held_back = corpus_hashes()
    rng = random.Random(a.seed)
    total_w = sum(w for _, _, w in SOURCES)
    shares = [a.n * w // total_w for _, _, w in SOURCES]
    shares[0] += a.n - sum(shares)
    seen = set()
    tmp = out + ".tmp-gen"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    counts = {"skills": 0, "files": 0, "skill_md": 0, "skill_md_bytes": 0, "resource_files": 0,
              "emptied_large_files": 0, "bytes": 0, "repeated": 0}
    per_source = []
    for (repo, commit, _), share in zip(SOURCES, shares):
        gd = git_dir(repo, commit)
        rows = tree(gd, commit)
        skill_dirs = {}
        for mode, sha, size, path in rows:
            if path == SKILL_FILE or path.endswith("/" + SKILL_FILE):
                skill_dirs[os.path.dirname(path)] = (mode, sha, size)
        candidates = []
        skipped = {"corpus": 0, "symlink": 0, "large": 0, "duplicate": 0}
        for d in sorted(skill_dirs):
            mode, sha, size = skill_dirs[d]
            parts = d.lower().split("/")
            if any(x in p for p in parts for x in EXCLUDED_PATH_PARTS) or sha in held_back:
                skipped["corpus"] += 1
            elif mode == "120000":
                skipped["symlink"] += 1
            elif size > MAX_BYTES:
                skipped["large"] += 1
            elif sha in seen:
                skipped["duplicate"] += 1
            else:
                seen.add(sha)
                candidates.append(d)
        picked = rng.sample(candidates, min(share, len(candidates)))
        while len(picked) < share:  # repeat under other folder names
            picked.append(rng.choice(candidates))
            counts["repeated"] += 1
        picked_set = set(picked)
        # Resource files of each picked skill: files below its folder, outside nested skills.
        resources = {d: [] for d in picked_set}
        for mode, sha, size, path in rows:
            if mode == "120000" or os.path.basename(path) == SKILL_FILE and os.path.dirname(path) in skill_dirs:
                continue
            d = os.path.dirname(path)
            while True:
                if d in skill_dirs:
                    if d in picked_set:
                        resources[d].append((sha, size, path))
                    break
                if not d:
                    break
                d = os.path.dirname(d)
        label = repo.split("/")[0].lower()
        blobs = Blobs(gd)
        taken = set()
        for d in picked:
            base = os.path.basename(d) or label
            folder, k = base, 1
            while folder in taken:
                k += 1
                folder = f"{base}-{k}"
            taken.add(folder)
            dest = os.path.join(tmp, label, folder)
            os.makedirs(dest)
            data = blobs.read(skill_dirs[d][1])
            with open(os.path.join(dest, SKILL_FILE), "wb") as f:
                f.write(data)
            counts["skills"] += 1
            counts["skill_md"] += 1
            counts["files"] += 1
            counts["skill_md_bytes"] += len(data)
            counts["bytes"] += len(data)
            for sha, size, path in sorted(resources[d], key=lambda r: r[2])[:MAX_FILES]:
                rel = os.path.relpath(path, d) if d else path
                target = os.path.join(dest, rel)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                body = b"" if size > MAX_BYTES else blobs.read(sha)
                counts["emptied_large_files"] += size > MAX_BYTES
                with open(target, "wb") as f:
                    f.write(body)
                counts["files"] += 1
                counts["resource_files"] += 1
                counts["bytes"] += len(body)
        blobs.close()
        per_source.append({"repo": repo, "commit": commit, "skill_md_files": len(skill_dirs),
                           "distinct_candidates": len(candidates), "left_out": skipped, "sampled": share})
    manifest = {"generator": GENERATOR, "generator_version": VERSION, "n": a.n, "seed": a.seed,
                "sources": per_source, "counts": counts,
                "held_back_from": "../shared/corpus (its SKILL.md hashes and its libraries' folders)",
                "seconds": round(time.time() - t0, 1)}
    with open(os.path.join(tmp, "MANIFEST.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    shutil.rmtree(out, ignore_errors=True)
    os.rename(tmp, out)
    print(json.dumps(counts), file=sys.stderr)


if __name__ == "__main__":
    main()
