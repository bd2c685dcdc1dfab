//! Finding skills under a path for `skillkit check`: a skill folder, a skill file, or a folder
//! searched recursively. The search skips `.git` and `node_modules`, follows each symlinked
//! folder once (loops are detected by real path), never descends into a skill, and is bounded.

use crate::read::{resolve_dir, skill_file_name};
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// How far the recursive search goes.
#[derive(Clone, Copy, Debug)]
pub struct SearchLimits {
    pub max_depth: usize,
    pub max_dirs: usize,
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits { max_depth: 16, max_dirs: 200_000 }
    }
}

/// A skill folder found, with the file to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub dir: PathBuf,
    pub file: &'static str,
}

/// Something the search could not look into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchIssue {
    pub path: PathBuf,
    pub message: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Search {
    pub skills: Vec<Found>,
    pub issues: Vec<SearchIssue>,
}

#[derive(Debug)]
pub enum TargetError {
    /// The path does not exist.
    NotFound(PathBuf),
    /// A file that is not a skill file.
    NotASkillFile(PathBuf),
}

impl std::fmt::Display for TargetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TargetError::NotFound(p) => write!(f, "{}: no such file or folder", p.display()),
            TargetError::NotASkillFile(p) => {
                write!(f, "{}: not a SKILL.md file or a folder", p.display())
            }
        }
    }
}

const SKIP: [&str; 2] = [".git", "node_modules"];

/// Resolve a `check` argument into skill folders.
pub fn find_skills(path: &Path, limits: SearchLimits) -> Result<Search, TargetError> {
    let meta = fs::metadata(path).map_err(|_| TargetError::NotFound(path.to_path_buf()))?;
    if !meta.is_dir() {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let file = match name.as_str() {
            "SKILL.md" => "SKILL.md",
            "skill.md" => "skill.md",
            _ => return Err(TargetError::NotASkillFile(path.to_path_buf())),
        };
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        return Ok(Search { skills: vec![Found { dir: resolve_dir(dir), file }], issues: vec![] });
    }
    let mut out = Search::default();
    if let Some(file) = skill_file_name(path) {
        out.skills.push(Found { dir: resolve_dir(path), file });
        return Ok(out);
    }
    let mut seen = HashSet::new();
    let mut stack = vec![(path.to_path_buf(), 0usize)];
    let mut visited = 0usize;
    while let Some((dir, depth)) = stack.pop() {
        let real = resolve_dir(&dir);
        if !seen.insert(real) {
            out.issues.push(SearchIssue { path: dir, message: "symlink loop: folder already visited".into() });
            continue;
        }
        visited += 1;
        if visited > limits.max_dirs {
            out.issues
                .push(SearchIssue { path: dir, message: format!("search stopped after {} folders", limits.max_dirs) });
            break;
        }
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) => {
                out.issues.push(SearchIssue { path: dir, message: format!("cannot read folder: {e}") });
                continue;
            }
        };
        let mut children = vec![];
        for entry in entries.flatten() {
            let name = entry.file_name();
            if SKIP.iter().any(|s| name == *s) {
                continue;
            }
            let child = entry.path();
            match fs::metadata(&child) {
                Ok(m) if m.is_dir() => children.push(child),
                Ok(_) => {}
                Err(_) if entry.file_type().is_ok_and(|t| t.is_symlink()) => {
                    out.issues.push(SearchIssue { path: child, message: "broken symlink".into() });
                }
                Err(_) => {}
            }
        }
        children.sort();
        for child in children.into_iter().rev() {
            if let Some(file) = skill_file_name(&child) {
                out.skills.push(Found { dir: resolve_dir(&child), file });
            } else if depth + 1 < limits.max_depth {
                stack.push((child, depth + 1));
            }
        }
    }
    out.skills.sort_by(|a, b| a.dir.cmp(&b.dir));
    out.skills.dedup();
    Ok(out)
}
