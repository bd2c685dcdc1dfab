#!/usr/bin/env python3
"""Generate a skill library from real skills (../shared/corpus) for benchmarks.

    bench/gen_real_library.py N OUT [--seed S] [--force]

Writes N skills into OUT, each a renamed copy of a skill sampled (with a seeded RNG) from the
corpus of published skill libraries at ../shared/corpus (next to the repository; the environment
variable SKILL_STUDIO_CORPUS names another folder), and OUT/MANIFEST.json with counts and the
corpus's identity. The output depends only on N, the seed, the corpus's content and the
generator's version: the same arguments give byte-identical files.

For each skill:

- SKILL.md is the source's, byte for byte, except the value of the top-level `name:` key, which
  becomes the new folder name (`<slug of the source's name>-<index>`, lowercase and hyphens,
  at most 64 characters; quoting kept). The frontmatter keeps its keys, nesting, value kinds and
  layout (metadata maps, allowed-tools, folded descriptions); the body is the real body (HTML,
  tables, block quotes, nested lists, code spans). A source without a `name:` key keeps none.
- The source's resource tree (every other file and folder in its skill folder, whatever the
  folder names) is recreated with the same contents: the corpus's Markdown, text and data files
  are the originals, its code and binary files are empty placeholders and stay empty. A skill
  nested inside the source's folder is not part of that tree (it is a source of its own).
- The skill sits where its source sits in its library, as if the five libraries were laid over one
  root: `OUT/<name>` (anthropics, obra), `OUT/skills/<name>` (awesome-copilot),
  `OUT/<group>/skills/<name>` (alirezarezvani), `OUT/plugins/<plugin>/skills/<name>` (wshobson),
  so the share of skills below plugin-like folders is the corpus's, and a search for skills has to
  descend through folders that are not skills. A source nested in another skill's folder is
  placed where that outer skill is.

Not sampled: SKILL.md files that are not skills' text. The corpus keeps 301 symlinked SKILL.md
files of alirezarezvani's `.gemini/skills/` as one-line files holding the link's target
(`../../../marketing-skill/form-cro/SKILL.md`), and one SKILL.md over 200 KB as an empty
placeholder; the manifest counts what was left out and why.

Third-party text is never part of the repository: this script reads the corpus when it runs and
writes only into OUT. Without the corpus it says so and exits with status 2.

Python 3 standard library only. The library is written to a temporary folder next to OUT and
renamed into place at the end, so OUT is either complete (with its manifest) or absent. An
existing OUT is replaced only with --force, and only if it is empty or holds a MANIFEST.json
written by this generator.
"""

import argparse
import collections
import hashlib
import json
import os
import random
import re
import shutil
import sys
import time

GENERATOR = "skill-studio-bench-gen-real"
VERSION = 1

SKILL_FILE = "SKILL.md"
NAME_MAX = 64
# A SKILL.md that is a symlink checked out as a file: one line, a relative path to a .md file.
LINK_STUB = re.compile(rb"\s*\.{0,2}/?[^\s]*\.md\s*")


def corpus_dir():
    """The corpus folder: $SKILL_STUDIO_CORPUS, else ../shared/corpus from the repository root."""
    env = os.environ.get("SKILL_STUDIO_CORPUS")
    if env:
        return os.path.abspath(env)
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "shared", "corpus"))


def require_corpus(path):
    if not os.path.isdir(path):
        print(f"gen_real_library: the corpus of real skills is not at {path}.\n"
              "It is not part of the repository: put it at ../shared/corpus next to the repository "
              "root, or set SKILL_STUDIO_CORPUS to its folder.", file=sys.stderr)
        sys.exit(2)


class Source:
    """One sampleable skill of the corpus."""

    def __init__(self, rel, library, container, skill_md, files, dirs):
        self.rel = rel              # the skill folder, relative to the corpus root
        self.library = library      # the first path component
        self.container = container  # folders between the library root and the skill (a tuple)
        self.skill_md = skill_md    # the SKILL.md bytes
        self.files = files          # resource files, relative to the skill folder, sorted
        self.dirs = dirs            # folders of the resource tree, relative, sorted (empty ones too)


def scan_corpus(root):
    """Every SKILL.md under root; the sources to sample (sorted) and what was left out."""
    skill_dirs = []
    for dp, dns, fns in os.walk(root):
        dns.sort()
        if SKILL_FILE in fns and os.path.isfile(os.path.join(dp, SKILL_FILE)):
            rel = os.path.relpath(dp, root)
            if rel != ".":
                skill_dirs.append(rel.replace(os.sep, "/"))
    skill_dirs.sort()
    all_skills = set(skill_dirs)
    excluded = collections.Counter()
    kept = []
    for rel in skill_dirs:
        with open(os.path.join(root, rel, SKILL_FILE), "rb") as fh:
            data = fh.read()
        if not data.strip():
            excluded["empty SKILL.md (a placeholder)"] += 1
        elif len(data) < 512 and not data.startswith(b"---") and LINK_STUB.fullmatch(data):
            excluded["symlink checked out as a one-line file"] += 1
        else:
            kept.append((rel, data))
    sources = []
    for rel, data in kept:
        parts = rel.split("/")
        library, inner = parts[0], parts[1:]
        if not inner:
            continue  # a library root with a SKILL.md: not a skill of a library
        # Placed where the outermost skill enclosing it is (itself when it is not nested).
        outer = len(inner)
        for k in range(1, len(inner)):
            if "/".join([library] + inner[:k]) in all_skills:
                outer = k
                break
        container = tuple(inner[:outer - 1])
        files, dirs = [], []
        base = os.path.join(root, rel)
        for dp, dns, fns in os.walk(base):
            drel = os.path.relpath(dp, base).replace(os.sep, "/")
            # A nested skill's folder is a source of its own, not part of this tree.
            dns[:] = [d for d in sorted(dns)
                      if (f"{rel}/{d}" if drel == "." else f"{rel}/{drel}/{d}") not in all_skills]
            if drel != ".":
                dirs.append(drel)
            for f in sorted(fns):
                frel = f if drel == "." else f"{drel}/{f}"
                if frel == SKILL_FILE:
                    continue
                p = os.path.join(dp, f)
                if os.path.islink(p) or not os.path.isfile(p):
                    continue
                files.append(frel)
        sources.append(Source(rel, library, container, data, sorted(files), sorted(dirs)))
    return sources, len(skill_dirs), dict(excluded)


def corpus_identity(root, sources=None, found=None, excluded=None):
    """What the library depends on: the sources, their files' paths and sizes."""
    if sources is None:
        sources, found, excluded = scan_corpus(root)
    h = hashlib.sha256()
    n_files = 0
    for s in sources:
        h.update(f"{s.rel}/{SKILL_FILE}\0{len(s.skill_md)}\n".encode())
        for d in s.dirs:
            h.update(f"{s.rel}/{d}/\n".encode())
        for f in s.files:
            size = os.path.getsize(os.path.join(root, s.rel, f))
            h.update(f"{s.rel}/{f}\0{size}\n".encode())
            n_files += 1
    return {
        "skill_md_found": found,
        "sources": len(sources),
        "excluded": excluded,
        "resource_files": n_files,
        "paths_sizes_sha256": h.hexdigest(),
    }


NAME_LINE = re.compile(rb"^name[ \t]*:[ \t]*(?P<value>[^\r\n]*?)[ \t]*(?P<eol>\r?\n|$)", re.M)


def frontmatter_span(data):
    """(start, end) of the frontmatter's inner text, or None when there is none."""
    m = re.match(rb"(\xef\xbb\xbf)?---[ \t]*\r?\n", data)
    if not m:
        return None
    close = re.compile(rb"^(---|\.\.\.)[ \t]*(\r?\n|$)", re.M).search(data, m.end())
    if not close:
        return None
    return m.end(), close.start()


def source_name(s):
    """The source's `name:` value (unquoted), or its folder's name."""
    span = frontmatter_span(s.skill_md)
    if span:
        m = NAME_LINE.search(s.skill_md, span[0], span[1])
        if m:
            v = m.group("value").split(b" #")[0].strip().strip(b"\"'")
            if v:
                return v.decode("utf-8", "replace")
    return s.rel.rsplit("/", 1)[-1]


def new_name(name, index):
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "skill"
    suffix = f"-{index}"
    return slug[:NAME_MAX - len(suffix)].rstrip("-") + suffix


def renamed(data, name):
    """SKILL.md with every top-level `name:` value in the frontmatter set to name."""
    span = frontmatter_span(data)
    if not span:
        return data
    start, end = span
    fm = data[start:end]

    def sub(m):
        v = m.group("value")
        q = v[:1] if v[:1] in (b'"', b"'") else b""
        return b"name: " + q + name.encode() + q + m.group("eol")

    return data[:start] + NAME_LINE.sub(sub, fm) + data[end:]


def is_generated(out):
    try:
        with open(os.path.join(out, "MANIFEST.json")) as fh:
            return json.load(fh).get("generator") == GENERATOR
    except (OSError, ValueError):
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("n", type=int, metavar="N", help="number of skills")
    ap.add_argument("out", metavar="OUT", help="output folder (created)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--flat", action="store_true",
                    help="every skill directly in OUT (OUT/<name>), where every agent looks")
    ap.add_argument("--all", action="store_true",
                    help="every corpus skill once, in corpus order, instead of N sampled (N is then ignored)")
    ap.add_argument("--force", action="store_true",
                    help="replace OUT if it is empty or a library written by this script")
    args = ap.parse_args()
    if args.n < 1:
        ap.error("N must be at least 1")

    corpus = corpus_dir()
    require_corpus(corpus)
    out = os.path.normpath(args.out)
    if os.path.exists(out):
        if not os.path.isdir(out):
            ap.error(f"{out} exists and is not a folder")
        if os.listdir(out) and not (args.force and is_generated(out)):
            ap.error(f"{out} is not empty (use --force to replace a library written by this script)")

    start = time.monotonic()
    sources, found, excluded = scan_corpus(corpus)
    if not sources:
        print(f"gen_real_library: no skills found in the corpus at {corpus}", file=sys.stderr)
        sys.exit(2)
    identity = corpus_identity(corpus, sources, found, excluded)

    tmp = f"{out}.tmp-{os.getpid()}"
    os.makedirs(tmp)
    rng = random.Random(args.seed)
    counts = {"skills": 0, "files": 0, "skill_md": 0, "resource_files": 0, "empty_files": 0,
              "bytes": 0, "skill_md_bytes": 0, "below_plugin_folders": 0}
    depth = collections.Counter()
    by_library = collections.Counter()
    sampled = collections.Counter()
    cache = {}
    source_of = {}
    skill_paths, containers = set(), set()
    try:
        picks = list(sources) if args.all else [rng.choice(sources) for _ in range(args.n)]
        for i, s in enumerate(picks):
            sampled[s.rel] += 1
            by_library[s.library] += 1
            name = new_name(source_name(s), i)
            container = () if args.flat else s.container
            rel = "/".join(container + (name,))
            # Names end in -<index>, so a skill folder never meets a container folder; check anyway.
            for k in range(1, len(container) + 1):
                containers.add("/".join(container[:k]))
            if rel in skill_paths or rel in containers or any(
                    "/".join(container[:k]) in skill_paths for k in range(1, len(container) + 1)):
                raise SystemExit(f"gen_real_library: {rel} collides with another path")
            skill_paths.add(rel)
            source_of[rel] = s.rel
            depth[len(container) + 1] += 1
            # `<group>/skills/<name>`, `plugins/<plugin>/skills/<name>`: two folders or more above.
            counts["below_plugin_folders"] += len(container) >= 2

            base = os.path.join(tmp, *rel.split("/"))
            os.makedirs(base)
            for d in s.dirs:
                os.makedirs(os.path.join(base, *d.split("/")), exist_ok=True)
            md = renamed(s.skill_md, name)
            with open(os.path.join(base, SKILL_FILE), "wb") as fh:
                fh.write(md)
            counts["skill_md"] += 1
            counts["skill_md_bytes"] += len(md)
            counts["files"] += 1
            counts["bytes"] += len(md)
            if s.rel not in cache:
                cache[s.rel] = []
                for f in s.files:
                    with open(os.path.join(corpus, s.rel, f), "rb") as fh:
                        cache[s.rel].append((f, fh.read()))
            for f, data in cache[s.rel]:
                with open(os.path.join(base, *f.split("/")), "wb") as fh:
                    fh.write(data)
                counts["files"] += 1
                counts["resource_files"] += 1
                counts["empty_files"] += not data
                counts["bytes"] += len(data)
            counts["skills"] += 1

        manifest = {
            "generator": GENERATOR,
            "generator_version": VERSION,
            "n": len(picks),
            "seed": args.seed,
            "flat": args.flat,
            "all": args.all,
            "counts": counts,
            "skills_by_depth": {str(k): v for k, v in sorted(depth.items())},
            "skills_by_library": dict(sorted(by_library.items())),
            "distinct_sources": len(sampled),
            "corpus": identity,
            "source_of": source_of,
        }
        with open(os.path.join(tmp, "MANIFEST.json"), "w") as fh:
            json.dump(manifest, fh, indent=2, sort_keys=True)
            fh.write("\n")
        if os.path.exists(out):
            shutil.rmtree(out)
        os.rename(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise

    secs = time.monotonic() - start
    print(f"wrote {counts['skills']} skills, {counts['files']} files, {counts['bytes'] / 1e6:.1f} MB "
          f"(SKILL.md {counts['skill_md_bytes'] / 1e6:.1f} MB) to {out} in {secs:.1f} s", file=sys.stderr)
    print(f"sources: {len(sampled)} distinct of the corpus's {len(sources)} skills "
          f"({found} SKILL.md found, left out: "
          + (", ".join(f"{v} {k}" for k, v in sorted(excluded.items())) or "none") + "); by library: "
          + ", ".join(f"{k} {v}" for k, v in sorted(by_library.items()))
          + "; by depth below OUT: " + ", ".join(f"{k}: {v}" for k, v in sorted(depth.items())),
          file=sys.stderr)


if __name__ == "__main__":
    main()
