//! A skill's resource files: every file below its folder (other than the skill file), with size,
//! kind and token estimate, and which agents would discover each one. The scan is bounded (file
//! count and depth), follows symlinked folders once, and records what it could not read.

use crate::syntax::tokens;
use serde::Serialize;
use std::collections::HashSet;
use std::fs;
use std::io::Read;
use std::path::Path;

/// What a resource is, by the specification's folders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ResourceKind {
    Script,
    Reference,
    Asset,
    Other,
}

impl ResourceKind {
    /// The kind of a path relative to the skill root, by its first folder.
    pub fn of(rel: &str) -> ResourceKind {
        match rel.split('/').next() {
            Some("scripts") if rel.contains('/') => ResourceKind::Script,
            Some("references") if rel.contains('/') => ResourceKind::Reference,
            Some("assets") if rel.contains('/') => ResourceKind::Asset,
            _ => ResourceKind::Other,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            ResourceKind::Script => "script",
            ResourceKind::Reference => "reference",
            ResourceKind::Asset => "asset",
            ResourceKind::Other => "other",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResourceFile {
    /// Path relative to the skill folder, `/`-separated, e.g. `scripts/extract.py`.
    pub path: String,
    /// Size in bytes, when the scan was asked for sizes or contents.
    pub size: Option<u64>,
    pub kind: ResourceKind,
    /// UTF-8 text without NUL bytes (only known when the scan reads contents).
    pub text: Option<bool>,
    /// o200k_base token estimate of a text file (only when the scan reads contents).
    pub tokens: Option<usize>,
}

impl ResourceFile {
    /// Folder levels below the skill root: `scripts/a.py` is 1, `a.md` is 0.
    pub fn depth(&self) -> usize {
        self.path.matches('/').count()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResourceProblem {
    pub path: String,
    pub message: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Resources {
    /// Files sorted by path (byte order).
    pub files: Vec<ResourceFile>,
    /// Folders sorted by path, relative, `/`-separated.
    pub dirs: Vec<String>,
    pub problems: Vec<ResourceProblem>,
    /// The scan stopped at a limit.
    pub truncated: bool,
    /// Temporary files a save left behind ([`crate::scope::is_temporary`]), relative paths: not
    /// resources (no agent should see them); the app removes them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub temporaries: Vec<String>,
}

#[derive(Clone, Copy, Debug)]
pub struct ScanOptions {
    /// Read text files to classify them and count tokens (skip when only paths matter).
    pub read_contents: bool,
    /// Stat each file for its size (one system call per file; off when only paths matter).
    pub sizes: bool,
    pub max_files: usize,
    pub max_depth: usize,
    /// Files larger than this are not read for token counts.
    pub max_read_bytes: u64,
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions { read_contents: false, sizes: false, max_files: 10_000, max_depth: 16, max_read_bytes: 1 << 20 }
    }
}

const SKIP_DIRS: [&str; 2] = [".git", "node_modules"];

/// Scan the skill folder `dir` (whose skill file is `skill_file`). Symlinks are followed only
/// while they stay inside the skill folder; see [`scan_within`].
pub fn scan(dir: &Path, skill_file: &str, opts: ScanOptions) -> Resources {
    let within: Vec<std::path::PathBuf> = fs::canonicalize(dir).into_iter().collect();
    scan_within(dir, skill_file, opts, &within)
}

/// [`scan`], following symlinks (to files or folders) only when their real path lies inside one
/// of the real folders `within` (the library's sources): a link that leads out is reported as a
/// problem and neither listed, read nor walked, so `everything -> /` costs one stat.
pub fn scan_within(dir: &Path, skill_file: &str, opts: ScanOptions, within: &[std::path::PathBuf]) -> Resources {
    let mut out = Resources::default();
    // Only symlinked folders can lead back into the tree; track where they point (the root's own
    // real path is looked up only when the first symlinked folder appears).
    let mut seen: Option<HashSet<std::path::PathBuf>> = None;
    let mut stack = vec![(dir.to_path_buf(), String::new(), 0usize)];
    while let Some((abs, rel, depth)) = stack.pop() {
        // The entry's own type needs no system call; only symlinks are followed with a stat.
        let mut names = match crate::scope::list_dir(&abs) {
            Ok(names) => names,
            Err(e) => {
                out.problems.push(ResourceProblem { path: rel, message: format!("cannot read folder: {e}") });
                continue;
            }
        };
        names.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, ft) in names.into_iter().rev() {
            let name_s = name.to_string_lossy().into_owned();
            let child_rel = if rel.is_empty() { name_s.clone() } else { format!("{rel}/{name_s}") };
            let child = abs.join(&name);
            if rel.is_empty() && name_s == skill_file {
                continue;
            }
            if !ft.is_dir() && crate::scope::is_temporary(&name_s) {
                out.temporaries.push(child_rel);
                continue;
            }
            let (is_dir, is_file) = if ft.is_symlink() {
                match fs::metadata(&child) {
                    Ok(m) => {
                        let real = fs::canonicalize(&child).ok();
                        if !real.as_ref().is_some_and(|r| within.iter().any(|w| r.starts_with(w))) {
                            let shown = real.map_or_else(|| "?".into(), |r| r.display().to_string());
                            out.problems.push(ResourceProblem {
                                path: child_rel,
                                message: format!("symlink to {shown}, outside the library: not followed"),
                            });
                            continue;
                        }
                        (m.is_dir(), m.is_file())
                    }
                    Err(_) => {
                        out.problems.push(ResourceProblem { path: child_rel, message: "broken symlink".into() });
                        continue;
                    }
                }
            } else {
                (ft.is_dir(), ft.is_file())
            };
            if is_dir {
                if SKIP_DIRS.contains(&name_s.as_str()) {
                    continue;
                }
                if ft.is_symlink() && {
                    let seen = seen.get_or_insert_with(|| fs::canonicalize(dir).into_iter().collect());
                    !fs::canonicalize(&child).is_ok_and(|real| seen.insert(real))
                } {
                    out.problems.push(ResourceProblem {
                        path: child_rel,
                        message: "symlink loop: folder already listed".into(),
                    });
                    continue;
                }
                if depth + 1 >= opts.max_depth {
                    out.truncated = true;
                    continue;
                }
                out.dirs.push(child_rel.clone());
                stack.push((child, child_rel, depth + 1));
            } else if is_file {
                if out.files.len() >= opts.max_files {
                    out.truncated = true;
                    continue;
                }
                let size =
                    if opts.sizes || opts.read_contents { fs::metadata(&child).ok().map(|m| m.len()) } else { None };
                let (text, tokens) = match (opts.read_contents, size) {
                    (true, Some(len)) => read_text(&child, len, opts.max_read_bytes),
                    _ => (None, None),
                };
                out.files.push(ResourceFile {
                    kind: ResourceKind::of(&child_rel),
                    path: child_rel,
                    size,
                    text,
                    tokens,
                });
            }
        }
    }
    out.files.sort_by(|a, b| a.path.cmp(&b.path));
    out.dirs.sort();
    out.temporaries.sort();
    out
}

fn read_text(path: &Path, size: u64, max: u64) -> (Option<bool>, Option<usize>) {
    let mut buf = Vec::new();
    let limit = size.min(max);
    if crate::scope::open_regular_file(path).and_then(|(f, _)| f.take(limit).read_to_end(&mut buf)).is_err() {
        return (None, None);
    }
    if buf.contains(&0) {
        return (Some(false), None);
    }
    match std::str::from_utf8(&buf) {
        Ok(s) if size <= max => (Some(true), Some(tokens::estimate(s))),
        Ok(_) => (Some(true), None),
        // A cut in the middle of a character at the read limit is still text.
        Err(e) if size > max && e.error_len().is_none() => (Some(true), None),
        Err(_) => (Some(false), None),
    }
}

/// How an agent discovers a skill's resources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ResourceView {
    /// DeepAgents V2 lazy discovery (seed 000 §3.2): files directly in `scripts/`, `references/`
    /// and `assets/`, and files at the skill root as `other`; nothing deeper.
    DeepagentsV2,
    /// Gemini CLI 0.61.0 `activate_skill`: a folder listing of the skill, "Showing up to 200
    /// items (files + folders)", depth first in name order.
    GeminiCli,
}

impl ResourceView {
    pub const ALL: [ResourceView; 2] = [ResourceView::DeepagentsV2, ResourceView::GeminiCli];

    pub fn id(self) -> &'static str {
        match self {
            ResourceView::DeepagentsV2 => "deepagents-v2",
            ResourceView::GeminiCli => "gemini-cli",
        }
    }

    /// The files of `res` this view shows.
    pub fn visible(self, res: &Resources) -> Vec<&ResourceFile> {
        match self {
            ResourceView::DeepagentsV2 => res
                .files
                .iter()
                .filter(|f| match f.path.split_once('/') {
                    None => true,
                    Some((top, rest)) => matches!(top, "scripts" | "references" | "assets") && !rest.contains('/'),
                })
                .collect(),
            ResourceView::GeminiCli => {
                // The listing counts SKILL.md and every folder and file, depth first.
                let mut items: Vec<(&str, Option<&ResourceFile>)> =
                    res.dirs.iter().map(|d| (d.as_str(), None)).collect();
                items.extend(res.files.iter().map(|f| (f.path.as_str(), Some(f))));
                items.sort_by(|a, b| a.0.split('/').cmp(b.0.split('/')));
                items.into_iter().take(200 - 1).filter_map(|(_, f)| f).collect()
            }
        }
    }
}

/// For each file of `res`, in order, the views (agents) that discover it. Each view's visible
/// set is computed once.
pub fn discovered_by(res: &Resources) -> Vec<Vec<&'static str>> {
    let seen: Vec<(&'static str, HashSet<&str>)> = ResourceView::ALL
        .iter()
        .map(|v| (v.id(), v.visible(res).into_iter().map(|f| f.path.as_str()).collect()))
        .collect();
    res.files
        .iter()
        .map(|f| seen.iter().filter(|(_, s)| s.contains(f.path.as_str())).map(|(id, _)| *id).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[&str]) -> (tempfile::TempDir, Resources) {
        let tmp = tempfile::tempdir().unwrap();
        for f in files {
            let p = tmp.path().join(f);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, "hello world").unwrap();
        }
        let r = scan(tmp.path(), "SKILL.md", ScanOptions { read_contents: true, ..Default::default() });
        (tmp, r)
    }

    #[test]
    fn scan_lists_every_file_with_kind_and_tokens() {
        let (_t, r) = tree(&[
            "SKILL.md",
            "scripts/a.py",
            "references/deep/b.md",
            "assets/c.txt",
            "notes.md",
            ".git/x",
            "node_modules/y",
        ]);
        let paths: Vec<(&str, ResourceKind)> = r.files.iter().map(|f| (f.path.as_str(), f.kind)).collect();
        assert_eq!(
            paths,
            [
                ("assets/c.txt", ResourceKind::Asset),
                ("notes.md", ResourceKind::Other),
                ("references/deep/b.md", ResourceKind::Reference),
                ("scripts/a.py", ResourceKind::Script)
            ]
        );
        assert_eq!(r.files[0].tokens, Some(2));
        assert_eq!(r.dirs, ["assets", "references", "references/deep", "scripts"]);
    }

    #[test]
    fn deepagents_v2_sees_first_level_only() {
        let (_t, r) = tree(&["SKILL.md", "scripts/a.py", "scripts/util/b.py", "other/c.md", "top.md"]);
        let seen: Vec<&str> = ResourceView::DeepagentsV2.visible(&r).iter().map(|f| f.path.as_str()).collect();
        assert_eq!(seen, ["scripts/a.py", "top.md"]);
    }

    #[test]
    fn gemini_lists_at_most_200_items() {
        let names: Vec<String> = (0..300).map(|i| format!("assets/f{i:03}.txt")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let (_t, r) = tree(&refs);
        // SKILL.md and the `assets/` folder take two of the 200 places.
        assert_eq!(ResourceView::GeminiCli.visible(&r).len(), 198);
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loops_are_reported_not_followed() {
        let (t, _) = tree(&["scripts/a.py"]);
        std::os::unix::fs::symlink(t.path(), t.path().join("scripts/loop")).unwrap();
        let r = scan(t.path(), "SKILL.md", ScanOptions::default());
        assert!(r.problems.iter().any(|p| p.message.contains("loop")));
    }
}
