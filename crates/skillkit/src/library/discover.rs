//! Finding skills: in a library source under an agent's discovery policy, or under a
//! `skillkit check` argument (a skill folder, a skill file, or a folder searched recursively).
//! Searches skip `.git` and `node_modules`, follow each symlinked folder once (loops are detected
//! by real path), never search a folder a symlink leads to outside the source (a link to a skill
//! folder elsewhere is that skill), never descend into a skill, and are bounded.

use crate::read::{resolve_dir, skill_file_probe};
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// How deep discovery looks below a source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Depth {
    /// Only direct child folders are skills (DeepAgents, Claude Code).
    Children,
    /// A bounded recursive search that stops at each skill (agentskills.io client guide: depth
    /// 4-6, at most 2,000 folders).
    Recursive { max_depth: usize, max_dirs: usize },
}

/// How an agent finds skills in a source. Agent profiles supply it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DiscoveryPolicy {
    pub depth: Depth,
    /// Look into folders whose names start with `.` (openai/skills keeps skills under `.curated/`).
    pub include_hidden: bool,
    /// A source that is itself a skill folder is that one skill (`skillkit check DIR`); agents
    /// instead look only below a source.
    pub root_is_skill: bool,
    /// Also look inside a skill's folder for more skills (Codex does; the others stop at a
    /// skill folder, so a skill nested in another is not theirs).
    pub nested: bool,
}

impl DiscoveryPolicy {
    /// Direct child folders, hidden ones included (a directory listing, as DeepAgents does).
    pub const CHILDREN: DiscoveryPolicy =
        DiscoveryPolicy { depth: Depth::Children, include_hidden: true, root_is_skill: false, nested: false };
    /// The agentskills.io client guide's bounded search.
    pub const CLIENT_GUIDE: DiscoveryPolicy = DiscoveryPolicy {
        depth: Depth::Recursive { max_depth: 6, max_dirs: 2_000 },
        include_hidden: true,
        root_is_skill: false,
        nested: false,
    };
    /// `skillkit check DIR`: a deep search, bounded only against runaway trees, that reports
    /// every skill file, also those nested in another skill's folder.
    pub const CHECK: DiscoveryPolicy = DiscoveryPolicy {
        depth: Depth::Recursive { max_depth: 16, max_dirs: 200_000 },
        include_hidden: true,
        root_is_skill: true,
        nested: true,
    };
}

/// A skill folder found, with the file to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The skill folder's real path (symlinks resolved).
    pub dir: PathBuf,
    pub file: &'static str,
    /// The path it was found at (through the source, symlinks kept), for display and ordering.
    pub listed_as: PathBuf,
    /// The size of `file` when discovery saw a regular file there (not a link), so that reading
    /// it needs no second stat.
    pub(crate) regular_len: Option<u64>,
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

/// Folder listings and skill-file probes remembered by the searches of one thread while
/// [`sharing_listings`] runs: several searches of the same sources under different policies (the
/// matrix's, one per discovery policy) list each folder and stat each child once. A listing is
/// what `read_dir` gave (names and types); every policy filters it as it does a fresh one.
#[derive(Default)]
struct Listings {
    folders: std::collections::HashMap<PathBuf, Result<Vec<(std::ffi::OsString, fs::FileType)>, String>>,
    probes: std::collections::HashMap<PathBuf, Option<(&'static str, Option<u64>)>>,
    /// A symlinked child's target: a folder (its real path), something else, or broken.
    links: std::collections::HashMap<PathBuf, Result<Option<PathBuf>, ()>>,
}

thread_local! {
    static LISTINGS: std::cell::RefCell<Option<Listings>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with this thread's searches sharing their folder listings ([`Listings`]), forgotten
/// when it returns: for a run that searches the same sources more than once and can take the
/// file system as it was at its start.
pub fn sharing_listings<T>(f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Listings>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            LISTINGS.with_borrow_mut(|l| *l = previous);
        }
    }
    let _restore = Restore(LISTINGS.with_borrow_mut(|l| l.replace(Listings::default())));
    f()
}

/// `f` on this thread's shared listings, if [`sharing_listings`] is running.
fn shared<T>(f: impl FnOnce(&mut Listings) -> T) -> Option<T> {
    LISTINGS.with_borrow_mut(|l| l.as_mut().map(f))
}

/// The names and types of `dir`'s entries, as `read_dir` lists them.
fn list(dir: &Path) -> Result<Vec<(std::ffi::OsString, fs::FileType)>, String> {
    let fresh = || -> Result<Vec<_>, String> {
        let entries = fs::read_dir(dir).map_err(|e| e.to_string())?;
        Ok(entries.flatten().filter_map(|e| Some((e.file_name(), e.file_type().ok()?))).collect())
    };
    shared(|l| l.folders.get(dir).cloned()).flatten().unwrap_or_else(|| {
        let listed = fresh();
        shared(|l| l.folders.insert(dir.to_path_buf(), listed.clone()));
        listed
    })
}

/// [`skill_file_probe`], remembered while listings are shared.
fn probe_cached(dir: &Path) -> Option<(&'static str, Option<u64>)> {
    if let Some(Some(p)) = shared(|l| l.probes.get(dir).copied()) {
        return p;
    }
    let p = skill_file_probe(dir);
    shared(|l| l.probes.insert(dir.to_path_buf(), p));
    p
}

/// Where the symlink `child` leads: a folder (its real path), something else (`None`), or
/// nowhere (`Err`); remembered while listings are shared.
fn link_target(child: &Path) -> Result<Option<PathBuf>, ()> {
    if let Some(Some(t)) = shared(|l| l.links.get(child).cloned()) {
        return t;
    }
    let t = match fs::metadata(child) {
        Ok(m) if m.is_dir() => Ok(Some(resolve_dir(child))),
        Ok(_) => Ok(None),
        Err(_) => Err(()),
    };
    shared(|l| l.links.insert(child.to_path_buf(), t.clone()));
    t
}

/// The skills in source folder `root` under `policy`, sorted by path. Symlinked folders are
/// followed once (a loop, or a second link to the same folder, is reported and skipped); a source
/// that is itself a skill folder is not a skill of itself, unless `policy.root_is_skill`.
pub fn discover(root: &Path, policy: DiscoveryPolicy) -> Search {
    let mut skills = vec![];
    let issues = discover_each(root, policy, &mut |f| skills.push(f));
    skills.sort_by(|a, b| a.listed_as.cmp(&b.listed_as));
    Search { skills, issues }
}

/// [`discover`], handing each skill to `found` as soon as it is known, in path order (a folder's
/// skills and subfolders by name, each subfolder's skills before the next name), so that reading
/// and linting can start while the search goes on and a report can follow in order. Returns what
/// the search could not look into.
pub fn discover_each(root: &Path, policy: DiscoveryPolicy, found: &mut dyn FnMut(Found)) -> Vec<SearchIssue> {
    let mut out = Walk { issues: vec![], found };
    if policy.root_is_skill {
        if let Some((file, regular_len)) = skill_file_probe(root) {
            (out.found)(Found { dir: resolve_dir(root), file, listed_as: root.to_path_buf(), regular_len });
            if !policy.nested {
                return out.issues;
            }
        }
    }
    let (max_depth, max_dirs) = match policy.depth {
        Depth::Children => (1, usize::MAX),
        Depth::Recursive { max_depth, max_dirs } => (max_depth, max_dirs),
    };
    // Real paths come from joining names onto the real root; only symlinks need resolving, and
    // only they can revisit a folder.
    let mut seen: HashSet<PathBuf, foldhash::fast::RandomState> = HashSet::default();
    let root_real = resolve_dir(root);
    seen.insert(root_real.clone());
    // Folders to list and skills to hand over, the next on top: popped in path order.
    let mut stack = vec![Next::Folder(root.to_path_buf(), root_real.clone(), 0usize)];
    let mut visited = 0usize;
    while let Some(next) = stack.pop() {
        let (dir, real, depth) = match next {
            Next::Skill(f) => {
                (out.found)(f);
                continue;
            }
            Next::Folder(dir, real, depth) => (dir, real, depth),
        };
        visited += 1;
        if visited > max_dirs {
            out.issues.push(SearchIssue { path: dir, message: format!("search stopped after {max_dirs} folders") });
            // The skills of the folders already listed are still found; no more folders are.
            while let Some(next) = stack.pop() {
                if let Next::Skill(f) = next {
                    (out.found)(f);
                }
            }
            break;
        }
        let entries = match list(&dir) {
            Ok(e) => e,
            Err(e) => {
                out.issues.push(SearchIssue { path: dir, message: format!("cannot read folder: {e}") });
                continue;
            }
        };
        let mut children = vec![];
        for (name, ft) in entries {
            if SKIP.iter().any(|s| name == *s) {
                continue;
            }
            if !policy.include_hidden && name.to_string_lossy().starts_with('.') {
                continue;
            }
            let child = dir.join(&name);
            let child_real = if ft.is_dir() {
                real.join(&name)
            } else if ft.is_symlink() {
                match link_target(&child) {
                    Ok(Some(target)) => target,
                    Ok(None) => continue,
                    Err(()) => {
                        out.issues.push(SearchIssue { path: child, message: "broken symlink".into() });
                        continue;
                    }
                }
            } else {
                continue;
            };
            if name.to_str().is_none() {
                out.issues.push(SearchIssue {
                    path: child.clone(),
                    message: "folder name is not valid UTF-8; shown with replacement characters".into(),
                });
            }
            children.push((name, child, child_real, ft.is_symlink()));
        }
        // By name: the children of one folder sort as their paths do, and names compare faster.
        children.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        // Whether each child is a skill: one stat each, here. Pushed last first, so that they
        // come off the stack by name, each subfolder searched before the next name.
        for (_, child, child_real, link) in children.into_iter().rev() {
            let probe = probe_cached(&child);
            // A symlinked folder that leads out of the source is never searched, so
            // `everything -> /` costs one stat instead of a walk of the whole disk. A link to a
            // skill folder elsewhere (how skills are often installed) is that one skill, as
            // agents read it; nothing below it is searched.
            if link && probe.is_none() && !child_real.starts_with(&root_real) {
                out.issues.push(SearchIssue {
                    message: format!(
                        "symlink to {}, outside the source: not followed (open that folder as a source to include it)",
                        child_real.display()
                    ),
                    path: child,
                });
                continue;
            }
            if link && !seen.insert(child_real.clone()) {
                let message = if probe.is_some() {
                    "same skill folder reached twice through a symlink"
                } else {
                    "symlink loop: folder already visited"
                };
                out.issues.push(SearchIssue { path: child, message: message.into() });
                continue;
            }
            if !link {
                seen.insert(child_real.clone());
            }
            if let Some((file, regular_len)) = probe {
                // The skill comes off the stack before its own folder's search.
                if policy.nested && depth + 1 < max_depth {
                    stack.push(Next::Folder(child.clone(), child_real.clone(), depth + 1));
                }
                stack.push(Next::Skill(Found { dir: child_real, file, listed_as: child, regular_len }));
            } else if depth + 1 < max_depth {
                stack.push(Next::Folder(child, child_real, depth + 1));
            }
        }
    }
    out.issues
}

/// What a search does next.
enum Next {
    /// List a folder (its path, its real path, its depth).
    Folder(PathBuf, PathBuf, usize),
    /// Hand a skill over.
    Skill(Found),
}

/// What a search has to report: its issues as it meets them, and each skill found.
struct Walk<'a> {
    issues: Vec<SearchIssue>,
    found: &'a mut dyn FnMut(Found),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(dir: &Path) {
        fs::create_dir_all(dir).unwrap();
        fs::write(dir.join("SKILL.md"), "---\nname: x\ndescription: y\n---\n").unwrap();
    }

    /// A source with what the policies tell apart: top-level skills, a grouping folder, a nested
    /// skill, a hidden folder, `node_modules`, a symlinked skill, a broken link and a link loop.
    fn tree() -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        skill(&r.join("alpha"));
        skill(&r.join("alpha/inner"));
        skill(&r.join("group/beta"));
        skill(&r.join(".hidden/gamma"));
        skill(&r.join("node_modules/delta"));
        fs::create_dir_all(r.join("empty")).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(r.join("group/beta"), r.join("linked")).unwrap();
            std::os::unix::fs::symlink(r.join("nowhere"), r.join("broken")).unwrap();
            std::os::unix::fs::symlink(r, r.join("group/loop")).unwrap();
        }
        t
    }

    const POLICIES: [DiscoveryPolicy; 4] = [
        DiscoveryPolicy::CHILDREN,
        DiscoveryPolicy::CLIENT_GUIDE,
        DiscoveryPolicy::CHECK,
        DiscoveryPolicy {
            depth: Depth::Recursive { max_depth: 3, max_dirs: 100 },
            include_hidden: false,
            root_is_skill: false,
            nested: true,
        },
    ];

    /// Searches that share their listings find what each finds alone, whatever the order of the
    /// policies (a listing made for one is filtered by the next as a fresh one).
    #[test]
    fn shared_listings_find_what_fresh_ones_do() {
        let t = tree();
        let fresh: Vec<Search> = POLICIES.iter().map(|p| discover(t.path(), *p)).collect();
        assert!(fresh.iter().all(|s| !s.skills.is_empty()));
        for order in [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1]] {
            let shared: Vec<(usize, Search)> =
                sharing_listings(|| order.iter().map(|&i| (i, discover(t.path(), POLICIES[i]))).collect());
            for (i, s) in shared {
                assert_eq!(s, fresh[i], "policy {i} in order {order:?}");
            }
        }
    }

    /// While shared, a listing is the one made first (a skill added since is not seen); after,
    /// it is forgotten.
    #[test]
    fn shared_listings_last_for_the_run_only() {
        let t = tree();
        let count = || discover(t.path(), DiscoveryPolicy::CLIENT_GUIDE).skills.len();
        let (before, during) = sharing_listings(|| {
            let before = count();
            skill(&t.path().join("added"));
            (before, count())
        });
        assert_eq!(during, before);
        assert_eq!(count(), before + 1);
    }
}
