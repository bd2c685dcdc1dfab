//! One renderer per output format. Each takes the engine's `CheckRun` and writes it out.

pub mod github;
pub mod json;
pub mod sarif;
pub mod session;
pub mod text;
pub mod tree;

use std::path::Path;

/// A path as users want to see it: relative to the current folder when inside it, with `/`.
pub fn display_path(p: &Path, cwd: &Path) -> String {
    let rel = p.strip_prefix(cwd).unwrap_or(p);
    let s = rel.to_string_lossy().replace('\\', "/");
    if s.is_empty() {
        ".".to_string()
    } else {
        s
    }
}

/// The displayed path of a skill's file.
pub fn skill_file(c: &skillkit::check::Checked, display: &dyn Fn(&Path) -> String) -> String {
    display(&c.skill.path())
}
