//! A source's link installs, which a check keeps where they are installed: shared by the
//! streamed check (`stream.rs`), the whole check (`Library::resolve_clashes`) and the matrix.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// A source's link installs: the real folders its links among its own entries lead to (skills
/// installed at the top of a skills folder by a link, into another skill's folder, say). A check
/// keeps such a folder where it is installed rather than where path order reaches it first.
#[derive(Default)]
pub(crate) struct Installs {
    source: PathBuf,
    linked: HashSet<PathBuf, foldhash::fast::RandomState>,
}

impl Installs {
    pub(crate) fn of(source: &Path) -> Installs {
        let mut linked = HashSet::default();
        if let Ok(dir) = std::fs::read_dir(source) {
            for child in dir.flatten().take(100_000) {
                if child.file_type().is_ok_and(|t| t.is_symlink()) {
                    if let Ok(real) = std::fs::canonicalize(child.path()) {
                        if real.is_dir() {
                            linked.insert(real);
                        }
                    }
                }
            }
        }
        Installs { source: source.to_path_buf(), linked }
    }

    /// Whether the skill folder `dir`, found at `listed_as` and `nested` in another skill there,
    /// gives way to its link install at the top of the source.
    pub(crate) fn gives_way(&self, listed_as: &Path, dir: &Path, nested: bool) -> bool {
        nested && self.linked.contains(dir) && listed_as.parent() != Some(self.source.as_path())
    }
}
