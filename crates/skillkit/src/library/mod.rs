//! A library: skill sources in priority order, the skills discovered in each under an agent's
//! policy, and which skill hides which. A later source wins a name clash ("last one wins", as
//! DeepAgents merges sources); every shadowed skill is kept and reported with the skill that hides
//! it. Two skills with one name in a single source are an error on both.
//!
//! Built from its sources in one of two ways: [`Library::load`] with [`LoadOptions`] (how skills
//! are found, which name wins a clash, what each skill keeps: [`LoadOptions::CHECK`] is `check`'s)
//! and a lint profile; or, as an agent finds, reads and judges it, `Library::for_agent` (its
//! discovery and clash key, its loader's reading, its verdict), which follows changes with
//! `Library::apply_changes_for_agent`. Those two live in `verdict.rs`, a stage after this one
//! (the verdict needs the agents' loaders). [`Library::load_reusing`] lets the matrix's agents
//! share one reading of the same sources.
//!
//! Over 600 lines for one job, the library as one value: discovery, reading and linting on the
//! worker threads, name clashes, change events and reuse across agents all update the same entries
//! in the same order.

pub mod discover;
pub(crate) mod installs;
pub mod overlap;
pub mod stream;
pub mod watch;
pub mod watched;

use crate::library::discover::{discover, DiscoveryPolicy, Found, SearchIssue};
use crate::lint::diagnostic::{Diagnostic, Severity};
use crate::lint::profile::LintProfile;
use crate::lint::{is_valid, lint};
use crate::read::{read_skill_file_sized, resolve_dir};
use crate::skill::Skill;
use crate::syntax::text::Span;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One folder of skills.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// As the user gave it.
    pub path: PathBuf,
    /// Its real path (symlinks resolved), or `path` when it does not exist.
    pub root: PathBuf,
    pub exists: bool,
}

impl Source {
    pub fn new(path: impl Into<PathBuf>) -> Source {
        let path = path.into();
        let exists = path.is_dir();
        Source { root: resolve_dir(&path), path, exists }
    }
}

/// How loaders key skills when sources clash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKey {
    /// The frontmatter `name` (the folder name when absent): DeepAgents, Codex, Gemini CLI.
    Frontmatter,
    /// The folder name: Claude Code's commands.
    Folder,
}

/// A skill in the library.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Index into [`Library::sources`].
    pub source: usize,
    /// The folder as found in the source (symlinks kept).
    pub listed_as: PathBuf,
    /// Boxed: a skill is several hundred bytes, and a library's entries are moved whole when
    /// gathered from the workers, sorted and handed to a check run (copies that, with the fresh
    /// pages they touched, were a tenth of a large check's time).
    pub skill: Box<Skill>,
    pub diagnostics: Vec<Diagnostic>,
    /// The name it is known by for clashes.
    pub key: String,
    /// The entry that hides this one, from a later source.
    pub shadowed_by: Option<usize>,
    /// What agents read from the skill, remembered until it changes (see [`Entry::reading`]).
    pub readings: Readings,
}

/// Each agent's reading of an entry's skill (its loader's parse of the frontmatter), remembered
/// so that a prompt render only formats and counts. Keyed by the reader and a key the reader
/// chooses (the path it prints); forgotten whenever the entry is re-read or edited.
#[derive(Default)]
pub struct Readings(std::sync::Mutex<Vec<Reading>>);

type Reading = (&'static str, Box<str>, std::sync::Arc<dyn std::any::Any + Send + Sync>);

impl Clone for Readings {
    fn clone(&self) -> Self {
        Readings(std::sync::Mutex::new(self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()))
    }
}

impl std::fmt::Debug for Readings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0.lock().unwrap_or_else(|e| e.into_inner()).len();
        write!(f, "Readings({n})")
    }
}

impl Readings {
    /// Forgets every reading (the skill changed).
    pub fn clear(&mut self) {
        self.0.get_mut().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// How many readings are remembered.
    pub(crate) fn len(&self) -> usize {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Forgets the readings made since there were `len` (each is added last).
    pub(crate) fn truncate(&self, len: usize) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).truncate(len);
    }
}

impl Entry {
    /// `read(self)`, remembered under `reader` and `key` until the entry changes: agents read
    /// each skill once, not on every render.
    pub fn reading<T: Send + Sync + 'static>(
        &self,
        reader: &'static str,
        key: &str,
        read: impl FnOnce(&Entry) -> T,
    ) -> std::sync::Arc<T> {
        {
            let memo = self.readings.0.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((_, _, v)) = memo.iter().find(|(r, k, _)| *r == reader && **k == *key) {
                if let Ok(v) = v.clone().downcast::<T>() {
                    return v;
                }
            }
        }
        let v = std::sync::Arc::new(read(self));
        let mut memo = self.readings.0.lock().unwrap_or_else(|e| e.into_inner());
        memo.retain(|(r, k, _)| !(*r == reader && **k == *key));
        memo.push((reader, key.into(), v.clone()));
        v
    }

    pub fn is_valid(&self) -> bool {
        is_valid(&self.diagnostics)
    }
    pub fn is_active(&self) -> bool {
        self.shadowed_by.is_none()
    }
}

/// Something wrong with a source as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceIssue {
    pub source: usize,
    pub path: PathBuf,
    pub message: String,
}

#[derive(Clone, Debug)]
pub struct Library {
    pub sources: Vec<Source>,
    pub policy: DiscoveryPolicy,
    pub key: NameKey,
    /// In source order, then in discovery order within a source.
    pub entries: Vec<Entry>,
    pub issues: Vec<SourceIssue>,
    /// Whether to look for `competing-descriptions` (SK705): what the profile it was loaded
    /// under says ([`overlap::enabled`]), or what its owner sets (the project's configuration).
    pub competing: bool,
}

/// How [`Library::load`] reads a library: where it looks for skills, which name wins a clash, and
/// what of each skill it keeps once linted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadOptions {
    pub policy: DiscoveryPolicy,
    pub key: NameKey,
    pub keep: Keep,
}

impl LoadOptions {
    /// `check`'s: every skill file under the sources ([`DiscoveryPolicy::CHECK`]), clashes by
    /// frontmatter name, everything kept (a library that follows changes).
    pub const CHECK: LoadOptions = LoadOptions::new(DiscoveryPolicy::CHECK, NameKey::Frontmatter);

    /// Skills found by `policy`, clashes by `key`, everything kept.
    pub const fn new(policy: DiscoveryPolicy, key: NameKey) -> LoadOptions {
        LoadOptions { policy, key, keep: Keep::All }
    }

    /// These options, keeping of each skill what `keep` says (a one-shot check keeps less, to
    /// bound memory on large libraries).
    pub const fn keeping(self, keep: Keep) -> LoadOptions {
        LoadOptions { keep, ..self }
    }
}

impl Library {
    /// Discovers, reads and lints every skill of `sources` (lowest priority first) with
    /// `profile`'s rules, as `options` say. Nothing here is an agent's: a library as an agent
    /// finds, reads and judges it is `Library::for_agent` (see the module docs).
    pub fn load<P: AsRef<LintProfile> + ?Sized>(sources: &[PathBuf], options: LoadOptions, profile: &P) -> Library {
        Self::load_from(sources, options.policy, options.key, profile.as_ref(), options.keep, None)
    }

    /// An unlinted library ([`Keep::Unlinted`]) of `sources` under `policy` and `key`, taking
    /// from `reused` each skill an earlier load of the same sources read ([`Library::give_back`])
    /// instead of reading its files again: agents that discover differently share one reading.
    pub fn load_reusing(sources: &[PathBuf], policy: DiscoveryPolicy, key: NameKey, reused: &Reused) -> Library {
        Self::load_from(sources, policy, key, &LintProfile::DEFAULT, Keep::Unlinted, Some(reused))
    }

    /// Hands this library's skills to `reused`, for the next [`Library::load_reusing`].
    pub fn give_back(self, reused: &Reused) {
        let mut map = reused.0.lock().unwrap_or_else(|e| e.into_inner());
        for e in self.entries {
            map.insert((e.source, e.listed_as.clone(), e.skill.dir.clone()), e);
        }
    }

    fn load_from(
        sources: &[PathBuf],
        policy: DiscoveryPolicy,
        key: NameKey,
        profile: &LintProfile,
        keep: Keep,
        reused: Option<&Reused>,
    ) -> Library {
        let mut lib = Library {
            sources: sources.iter().map(Source::new).collect(),
            policy,
            key,
            entries: vec![],
            issues: vec![],
            competing: overlap::enabled(profile),
        };
        // Skills nested in other skills (the policy's `nested`) are found from each skill's
        // resource scan, which lists its whole folder anyway, instead of by a second walk of
        // every skill folder in discovery.
        let top = DiscoveryPolicy { nested: false, ..policy };
        let within = lib.roots();
        let Pipeline { mut entries, nested, issues } =
            discover_read_and_lint(&lib.sources, top, &within, key, profile, keep, policy, reused);
        lib.issues = issues;
        // A skill folder may be reached twice: by a symlink, and nested in another skill. A
        // check keeps it where it comes first in path order, as a check read as a stream
        // ([`stream`]) does; an agent's library, where its search reached it (Codex, which
        // nests, searches breadth first).
        let check = policy == DiscoveryPolicy::CHECK;
        if !nested.is_empty() {
            let nested: Vec<(usize, Found)> = if check {
                nested
            } else {
                let mut seen: std::collections::HashSet<PathBuf> =
                    entries.iter().map(|e| e.skill.dir.clone()).collect();
                nested.into_iter().filter(|(_, f)| seen.insert(f.dir.clone())).collect()
            };
            // Their own nested skills are already among these: the outermost skill's scan lists
            // every level.
            let no_more = DiscoveryPolicy { nested: false, ..policy };
            let work = |source: usize, f: &Found| {
                reuse(reused, source, f, &within, key, no_more)
                    .unwrap_or_else(|| read_and_lint_one(source, f, &within, key, profile, keep, no_more))
            };
            entries.extend(
                on_workers(&work, |send| nested.into_iter().for_each(|(s, f)| send(s, f))).into_iter().map(|(e, _)| e),
            );
            entries.sort_by(|a, b| (a.source, &a.listed_as).cmp(&(b.source, &b.listed_as)));
        }
        lib.entries = entries;
        if check {
            lib.once_per_source();
        }
        lib.resolve();
        lib
    }

    /// Keeps each skill folder once in each source: the first in path order, when a symlink or
    /// a nesting reaches it again (as [`stream::read_in_order`] does), except that a folder linked
    /// at the top of a source (a symlink install) and also nested in another skill is kept where
    /// it is installed ([`installs::Installs`]).
    fn once_per_source(&mut self) {
        let installs: Vec<_> = self.sources.iter().map(|s| installs::Installs::of(&s.path)).collect();
        let listed: std::collections::HashSet<(usize, &Path)> =
            self.entries.iter().map(|e| (e.source, e.listed_as.as_path())).collect();
        let nested = |e: &Entry| e.listed_as.ancestors().skip(1).any(|a| listed.contains(&(e.source, a)));
        let nested_copy: Vec<bool> =
            self.entries.iter().map(|e| installs[e.source].gives_way(&e.listed_as, &e.skill.dir, nested(e))).collect();
        let mut seen = std::collections::HashSet::with_capacity_and_hasher(
            self.entries.len(),
            foldhash::fast::RandomState::default(),
        );
        let mut i = 0;
        self.entries.retain(|e| {
            i += 1;
            !nested_copy[i - 1] && seen.insert((e.source, e.skill.dir.clone()))
        });
    }

    /// Keys every skill as `key` says and works the clashes out again: the same library as
    /// another agent keys it.
    pub fn rekey(&mut self, key: NameKey) {
        if self.key == key {
            return;
        }
        self.key = key;
        for e in &mut self.entries {
            e.key = key_of(&e.skill, &e.listed_as, key);
        }
        self.resolve();
    }

    /// Recompute shadowing, same-source duplicates and competing descriptions from scratch, a
    /// duplicate name or a competing pair marked on both skills (an editor shows it in either
    /// file).
    pub(crate) fn resolve(&mut self) {
        self.resolve_clashes(true);
    }

    /// [`Library::resolve`], a duplicate name marked on both skills or, for a report
    /// ([`crate::check`]), once: on the later in path order, naming the earlier, as a check that
    /// reports each skill as it reads it finds it ([`stream`]).
    pub(crate) fn resolve_clashes(&mut self, on_both: bool) {
        for e in &mut self.entries {
            e.shadowed_by = None;
            e.diagnostics.retain(|d| d.code != DUPLICATE.code && d.code != overlap::RULE.code);
        }
        let mut duplicates: Vec<(usize, usize)> = vec![];
        // (hidden, by): each entry is hidden by the next one with its key.
        let mut hidden: Vec<(usize, usize)> = vec![];
        let mut winner: HashMap<&str, usize, foldhash::fast::RandomState> =
            HashMap::with_capacity_and_hasher(self.entries.len(), Default::default());
        for (i, e) in self.entries.iter().enumerate() {
            if let Some(prev) = winner.insert(e.key.as_str(), i) {
                if self.entries[prev].source == e.source && is_named(&self.entries[prev].skill) && is_named(&e.skill) {
                    duplicates.push((prev, i));
                }
                hidden.push((prev, i));
            }
        }
        drop(winner);
        for (prev, i) in hidden {
            self.entries[prev].shadowed_by = Some(i);
        }
        for (earlier, later) in duplicates {
            let other = self.entries[earlier].skill.path();
            let e = &mut self.entries[later];
            add_duplicate(&e.skill, &e.key, &other, true, &mut e.diagnostics);
            if on_both {
                let other = self.entries[later].skill.path();
                let e = &mut self.entries[earlier];
                add_duplicate(&e.skill, &e.key, &other, false, &mut e.diagnostics);
            }
        }
        // Descriptions that compete, in path order as a stream scores them; two skills of one
        // name are the clashes' above.
        let mut overlaps = overlap::Overlaps::default();
        let mut competing = vec![];
        for (later, e) in self.entries.iter().enumerate().filter(|_| self.competing) {
            let found = overlaps.add(overlap::description(&e.skill));
            let (found, more) = overlap::strongest(found, |earlier| self.entries[earlier].key != e.key);
            let last = found.len();
            for (i, (earlier, score, shared)) in found.into_iter().enumerate() {
                competing.push((earlier, later, score, shared, if i + 1 == last { more } else { 0 }));
            }
        }
        for (earlier, later, score, shared, more) in competing {
            let other = self.entries[earlier].skill.path();
            let e = &mut self.entries[later];
            overlap::add_competing(&e.skill, &other, score, &shared, more, &mut e.diagnostics);
            if on_both {
                let other = self.entries[later].skill.path();
                let e = &mut self.entries[earlier];
                overlap::add_competing(&e.skill, &other, score, &shared, 0, &mut e.diagnostics);
            }
        }
    }

    /// The entry whose skill file is `path` (as discovered: the real path of the source).
    pub fn entry_at(&self, path: &std::path::Path) -> Option<usize> {
        self.entries.iter().position(|e| e.skill.path() == path)
    }

    /// Replaces entry `i`'s `SKILL.md` text with `text` (its folder and resources kept), linted
    /// again, its name key and the library's clashes worked out again: the library as an unsaved
    /// edit (or a session's `edit` step) would make it.
    pub fn set_text<P: AsRef<LintProfile> + ?Sized>(&mut self, i: usize, text: &str, profile: &P) {
        let key = self.key;
        let e = &mut self.entries[i];
        let mut skill = crate::skill::Skill::parse(e.skill.dir.clone(), &e.skill.file_name.clone(), text.to_string());
        skill.resources = e.skill.resources.take();
        e.diagnostics = crate::lint::lint(&skill, profile.as_ref());
        e.key = key_of(&skill, &e.listed_as, key);
        *e.skill = skill;
        e.readings.clear();
        self.resolve();
    }

    /// Entry `i` read again from disk (an editor closed its unsaved text, or the file changed),
    /// with the library's clashes worked out again; `false` when its skill file is gone.
    pub fn reload<P: AsRef<LintProfile> + ?Sized>(&mut self, i: usize, profile: &P) -> bool {
        let found = self.reread(i, profile.as_ref());
        self.resolve();
        found
    }

    /// The skills an agent ends up with: one per name, the last source's.
    pub fn active(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.is_active())
    }

    /// The active skill called `name`.
    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.active().find(|e| e.key == name)
    }
}

use crate::lint::rules::library::duplicate_skill_name::DuplicateSkillName;
const DUPLICATE: &crate::lint::rules::RuleMeta = &DuplicateSkillName::META;

/// Whether a skill has a `name` of its own: a skill without one is known by its folder's name
/// only for clashes, and two such folders are not two skills declaring one name.
fn is_named(skill: &Skill) -> bool {
    skill.frontmatter.get("name").is_some()
}

/// Adds to `diagnostics` of `skill`, known as `key`, that `other`, in the same source and
/// `before` it in path order (else after it), has the same name (kept in order of position).
fn add_duplicate(skill: &Skill, key: &str, other: &Path, before: bool, diagnostics: &mut Vec<Diagnostic>) {
    let span = skill.frontmatter.get("name").map_or(Span::empty(0), |f| f.value.span);
    let order = if before { "earlier" } else { "later" };
    diagnostics.push(DUPLICATE.diagnostic(
        skill,
        Severity::Error,
        span,
        format!("two skills named `{key}` in one source: this one and `{}`, {order} in path order", other.display()),
        "rename one of them: within a source, loaders keep only one (DeepAgents the later in path order)",
    ));
    diagnostics.sort_by(|x, y| (x.span.start, x.severity, x.code).cmp(&(y.span.start, y.severity, y.code)));
}

fn key_of(skill: &Skill, listed_as: &Path, key: NameKey) -> String {
    match key {
        NameKey::Frontmatter => skill.display_name().to_string(),
        NameKey::Folder => listed_as.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
    }
}

/// What a batch of file changes did to the library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LibraryEvent {
    SkillAdded {
        dir: PathBuf,
        name: String,
    },
    /// The skill file changed (and was re-read and re-linted).
    SkillChanged {
        dir: PathBuf,
        name: String,
    },
    SkillRemoved {
        dir: PathBuf,
        name: String,
    },
    /// The skill's folder was renamed or moved within the library.
    SkillRenamed {
        from: PathBuf,
        to: PathBuf,
        name: String,
    },
    /// A file inside the skill's folder changed (the skill was re-linted: references depend on
    /// its files). `path` is relative to the skill folder.
    ResourceChanged {
        dir: PathBuf,
        name: String,
        path: String,
    },
}

use crate::read::is_skill_file;

impl Library {
    /// The entry whose folder contains `p` (deepest first).
    fn owner_of(&self, p: &Path) -> Option<usize> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| p.starts_with(&e.skill.dir))
            .max_by_key(|(_, e)| e.skill.dir.components().count())
            .map(|(i, _)| i)
    }

    /// The real paths of the sources that exist: the folders symlinks may lead into.
    pub fn roots(&self) -> Vec<PathBuf> {
        self.sources.iter().filter(|s| s.exists).map(|s| s.root.clone()).collect()
    }

    fn source_of(&self, p: &Path) -> Option<usize> {
        self.sources.iter().enumerate().rev().find(|(_, s)| p.starts_with(&s.root)).map(|(i, _)| i)
    }

    /// Re-read and re-lint the skill at entry `i`; `None` when its skill file is gone.
    fn reread(&mut self, i: usize, profile: &LintProfile) -> bool {
        let dir = self.entries[i].skill.dir.clone();
        let Some(file) = crate::read::skill_file_name(&dir) else { return false };
        let skill = read_skill_file_sized(&dir, file, None, &self.roots());
        let e = &mut self.entries[i];
        e.diagnostics = lint(&skill, profile);
        e.key = key_of(&skill, &e.listed_as, self.key);
        *e.skill = skill;
        e.readings.clear();
        true
    }

    /// Apply a batch of file-system changes (from [`crate::library::watch::Watcher`]): re-read and re-lint
    /// only the skills they touch, add and remove skills, then recompute shadowing. Returns what
    /// happened, in the order of the changes.
    pub fn apply_changes(
        &mut self,
        changes: &[crate::library::watch::FsChange],
        profile: &LintProfile,
    ) -> Vec<LibraryEvent> {
        use crate::library::watch::FsChange;
        let mut events = vec![];
        let mut touched: Vec<(usize, Option<String>)> = vec![];
        let mut rediscover: Vec<usize> = vec![];
        let mut gone: Vec<PathBuf> = vec![];
        let note = |lib: &Library,
                    p: &Path,
                    touched: &mut Vec<(usize, Option<String>)>,
                    rediscover: &mut Vec<usize>,
                    gone: &mut Vec<PathBuf>| {
            match lib.owner_of(p) {
                Some(i) => {
                    let dir = &lib.entries[i].skill.dir;
                    let resource = (p != dir.as_path() && !(is_skill_file(p) && p.parent() == Some(dir.as_path())))
                        .then(|| p.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/"));
                    if p == dir.as_path() && !p.exists() {
                        gone.push(p.to_path_buf());
                    }
                    touched.push((i, resource));
                }
                None => {
                    // Outside every known skill: a folder holding skills may have appeared or gone.
                    if !p.exists() {
                        gone.push(p.to_path_buf());
                    }
                    if let Some(s) = lib.source_of(p) {
                        if p.is_dir() || is_skill_file(p) {
                            rediscover.push(s);
                        }
                    }
                }
            }
        };
        for change in changes {
            match change {
                FsChange::Renamed { from, to } => {
                    if let Some(i) = self.entries.iter().position(|e| e.skill.dir == *from) {
                        if let (Some(_), Some(source)) = (crate::read::skill_file_name(to), self.source_of(to)) {
                            let e = &mut self.entries[i];
                            e.skill.dir = to.clone();
                            e.listed_as = to.clone();
                            e.source = source;
                            if self.reread(i, profile) {
                                let name = self.entries[i].key.clone();
                                events.push(LibraryEvent::SkillRenamed { from: from.clone(), to: to.clone(), name });
                            }
                            continue;
                        }
                    }
                    note(self, from, &mut touched, &mut rediscover, &mut gone);
                    note(self, to, &mut touched, &mut rediscover, &mut gone);
                }
                FsChange::Created(p) | FsChange::Modified(p) | FsChange::Removed(p) => {
                    note(self, p, &mut touched, &mut rediscover, &mut gone)
                }
            }
        }
        // Skills whose folder (or a folder above it) disappeared.
        let mut removed: Vec<usize> = (0..self.entries.len())
            .filter(|&i| gone.iter().any(|g| self.entries[i].skill.dir.starts_with(g)))
            .collect();
        // Re-read each touched skill once: a skill-file change, else the resources that changed.
        let mut by_entry: Vec<(usize, bool, Vec<String>)> = vec![];
        for (i, resource) in touched {
            let slot = match by_entry.iter().position(|(j, _, _)| *j == i) {
                Some(k) => k,
                None => {
                    by_entry.push((i, false, vec![]));
                    by_entry.len() - 1
                }
            };
            match resource {
                None => by_entry[slot].1 = true,
                Some(r) if !by_entry[slot].2.contains(&r) => by_entry[slot].2.push(r),
                Some(_) => {}
            }
        }
        for (i, skill_file, resources) in by_entry {
            if removed.contains(&i) {
                continue;
            }
            if !self.reread(i, profile) {
                removed.push(i);
                continue;
            }
            let (dir, name) = (self.entries[i].skill.dir.clone(), self.entries[i].key.clone());
            if skill_file {
                events.push(LibraryEvent::SkillChanged { dir, name });
            } else {
                events.extend(resources.into_iter().map(|path| LibraryEvent::ResourceChanged {
                    dir: dir.clone(),
                    name: name.clone(),
                    path,
                }));
            }
        }
        removed.sort_unstable();
        removed.dedup();
        for &i in removed.iter().rev() {
            let e = self.entries.remove(i);
            events.push(LibraryEvent::SkillRemoved { dir: e.skill.dir, name: e.key });
        }
        // New skills: rediscover the sources where folders or skill files appeared.
        rediscover.sort_unstable();
        rediscover.dedup();
        for s in rediscover {
            let root = self.sources[s].path.clone();
            let found = discover(&root, self.policy);
            for f in found.skills {
                if self.entries.iter().any(|e| e.skill.dir == f.dir) {
                    continue;
                }
                let skill = read_skill_file_sized(&f.dir, f.file, f.regular_len, &self.roots());
                let diagnostics = lint(&skill, profile);
                let key = key_of(&skill, &f.listed_as, self.key);
                events.push(LibraryEvent::SkillAdded { dir: f.dir.clone(), name: key.clone() });
                self.entries.push(Entry {
                    source: s,
                    listed_as: f.listed_as,
                    skill: Box::new(skill),
                    diagnostics,
                    key,
                    shadowed_by: None,
                    readings: Readings::default(),
                });
            }
        }
        self.entries.sort_by(|a, b| (a.source, &a.listed_as).cmp(&(b.source, &b.listed_as)));
        self.resolve();
        events
    }
}

/// Runs `work` on every skill that `feed` hands over, on a worker per core, while `feed` runs on
/// this thread (a search, or a list); returns what the workers made, in no particular order.
fn on_workers<W>(work: &W, feed: impl FnOnce(&mut dyn FnMut(usize, Found))) -> Vec<(Entry, Vec<Found>)>
where
    W: Fn(usize, &Found) -> (Entry, Vec<Found>) + Sync,
{
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Found)>();
    let rx = std::sync::Mutex::new(rx);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = vec![];
                    loop {
                        // The lock is held while waiting: the other workers wait for it instead.
                        let next = rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                        let Ok((source, f)) = next else { break };
                        done.push(work(source, &f));
                    }
                    done
                })
            })
            .collect();
        // The workers only stop when the sender is dropped; a send fails only if they all
        // panicked, which the join below reports.
        feed(&mut |source, f| {
            let _ = tx.send((source, f));
        });
        drop(tx);
        handles.into_iter().flat_map(|h| h.join().expect("lint worker panicked")).collect()
    })
}

/// What a loaded skill keeps once linted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Everything: its text, parsed tree and file list (a library that follows changes).
    All,
    /// Its text through the furthest line its findings point at, for reports that show source
    /// lines (`check`'s text and SARIF output); the parsed tree and file list are dropped.
    Findings,
    /// Only its frontmatter's text, where library-wide findings point, for reports that give
    /// positions only (`check`'s JSON and GitHub output): memory then follows the number of
    /// skills and findings, not the library's bytes.
    Frontmatter,
    /// Everything, and not linted: a library only agents' loaders read ([`crate::matrix`]).
    Unlinted,
}

impl Keep {
    /// Trims `skill`, linted with `diagnostics`, to what this keeps.
    pub fn trim(self, skill: &mut Skill, diagnostics: &[Diagnostic]) {
        match self {
            Keep::All | Keep::Unlinted => {}
            Keep::Findings => {
                skill.shrink();
                skill.keep_through(crate::lint::diagnostic::reach(diagnostics));
            }
            Keep::Frontmatter => {
                skill.shrink();
                skill.keep_through(0);
            }
        }
    }
}

/// What [`discover_read_and_lint`] found.
struct Pipeline {
    /// In source and path order.
    entries: Vec<Entry>,
    /// The skills nested in them (from their resource scans), not yet read.
    nested: Vec<(usize, Found)>,
    /// What the search could not look into.
    issues: Vec<SourceIssue>,
}

/// Searches every source and reads and lints each skill as the search finds it: the search runs
/// on this thread and hands skills to workers on the others, so the two overlap.
#[allow(clippy::too_many_arguments)]
fn discover_read_and_lint(
    sources: &[Source],
    top: DiscoveryPolicy,
    within: &[PathBuf],
    key: NameKey,
    profile: &LintProfile,
    keep: Keep,
    policy: DiscoveryPolicy,
    reused: Option<&Reused>,
) -> Pipeline {
    let mut issues = vec![];
    let work = |source: usize, f: &Found| {
        reuse(reused, source, f, within, key, policy)
            .unwrap_or_else(|| read_and_lint_one(source, f, within, key, profile, keep, policy))
    };
    let mut done = on_workers(&work, |send| {
        for (i, src) in sources.iter().enumerate() {
            if !src.exists {
                issues.push(SourceIssue {
                    source: i,
                    path: src.path.clone(),
                    message: "source folder does not exist".into(),
                });
                continue;
            }
            let found = discover::discover_each(&src.path, top, &mut |f| send(i, f));
            issues.extend(found.into_iter().map(|SearchIssue { path, message }| SourceIssue {
                source: i,
                path,
                message,
            }));
        }
    });
    done.sort_by_cached_key(|(e, _)| (e.source, path_order_key(&e.listed_as)));
    let mut entries = Vec::with_capacity(done.len());
    let mut nested = vec![];
    for (e, more) in done {
        nested.extend(more.into_iter().map(|f| (e.source, f)));
        entries.push(e);
    }
    Pipeline { entries, nested, issues }
}

/// A key whose byte order is `path`'s order (component by component, as `Path`'s `Ord`), far
/// cheaper to compare: the path's bytes with each separator as 0, which no file name holds, so
/// that `a/b` sorts before `a-b` as it does by components. For paths joined from one source's
/// path, as discovery makes them (no `.` components or doubled separators after the source).
fn path_order_key(path: &Path) -> Vec<u8> {
    path.as_os_str()
        .as_encoded_bytes()
        .iter()
        .map(|&b| if b.is_ascii() && std::path::is_separator(b as char) { 0 } else { b })
        .collect()
}

/// Reads, lints and trims (as `keep` says) one skill found in source `source`; with the skills
/// nested in its folder when the policy looks for them.
fn read_and_lint_one(
    source: usize,
    f: &Found,
    within: &[PathBuf],
    key: NameKey,
    profile: &LintProfile,
    keep: Keep,
    policy: DiscoveryPolicy,
) -> (Entry, Vec<Found>) {
    let mut skill = read_skill_file_sized(&f.dir, f.file, f.regular_len, within);
    let nested = if policy.nested { nested_in(&skill, f, policy, within) } else { vec![] };
    let diagnostics = if keep == Keep::Unlinted { vec![] } else { lint(&skill, profile) };
    let k = key_of(&skill, &f.listed_as, key);
    keep.trim(&mut skill, &diagnostics);
    let entry = Entry {
        source,
        listed_as: f.listed_as.clone(),
        skill: Box::new(skill),
        diagnostics,
        key: k,
        shadowed_by: None,
        readings: Readings::default(),
    };
    (entry, nested)
}

/// Skills read by one load, for another of the same sources to take ([`Library::load_reusing`]):
/// each by its source, the path it was found at and its folder.
#[derive(Default)]
pub struct Reused(std::sync::Mutex<HashMap<(usize, PathBuf, PathBuf), Entry>>);

/// The skill `f` of source `source` as an earlier load read it, if it did, keyed and with the
/// skills nested in it as `policy` finds them.
fn reuse(
    reused: Option<&Reused>,
    source: usize,
    f: &Found,
    within: &[PathBuf],
    key: NameKey,
    policy: DiscoveryPolicy,
) -> Option<(Entry, Vec<Found>)> {
    let mut e =
        reused?.0.lock().unwrap_or_else(|e| e.into_inner()).remove(&(source, f.listed_as.clone(), f.dir.clone()))?;
    if e.skill.file_name != f.file {
        return None;
    }
    let nested = if policy.nested { nested_in(&e.skill, f, policy, within) } else { vec![] };
    e.key = key_of(&e.skill, &f.listed_as, key);
    e.shadowed_by = None;
    Some((e, nested))
}

/// The skills nested in `skill`'s folder, from its resource scan: each folder below it holding a
/// skill file (`SKILL.md` before `skill.md`, as discovery prefers), hidden folders only when the
/// policy looks into them.
fn nested_in(skill: &Skill, f: &Found, policy: DiscoveryPolicy, within: &[PathBuf]) -> Vec<Found> {
    // A skill file that could not be read has no scan: its folder is scanned for this alone.
    let scanned;
    let res = match &skill.resources {
        Some(res) => res,
        None => {
            let mut bounds = within.to_vec();
            bounds.push(f.dir.clone());
            scanned = crate::resources::scan_within(&f.dir, f.file, crate::resources::ScanOptions::default(), &bounds);
            &scanned
        }
    };
    let mut out: Vec<Found> = vec![];
    for file in &res.files {
        let Some((folder, name)) = file.path.rsplit_once('/') else { continue };
        let Some(&name) = crate::read::SKILL_FILE_NAMES.iter().find(|n| **n == name) else { continue };
        if !policy.include_hidden && folder.split('/').any(|c| c.starts_with('.')) {
            continue;
        }
        let listed_as = f.listed_as.join(folder);
        match out.iter_mut().find(|o| o.listed_as == listed_as) {
            // `SKILL.md` sorts before `skill.md`: the first one seen stays.
            Some(_) => {}
            None => out.push(Found { dir: resolve_dir(&f.dir.join(folder)), file: name, listed_as, regular_len: None }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::path_order_key;
    use std::path::PathBuf;

    #[test]
    fn path_order_keys_sort_as_paths_do() {
        let names = ["lib/a-b", "lib/a/b", "lib/a", "lib/a.b/c", "lib/ab", "lib/a/b/c", "lib/A", "lib/é", "lib/z"];
        let mut by_path: Vec<PathBuf> = names.iter().map(PathBuf::from).collect();
        let mut by_key = by_path.clone();
        by_path.sort();
        by_key.sort_by_cached_key(|p| path_order_key(p));
        assert_eq!(by_key, by_path);
        // Byte order alone would put `a-b` before `a/b`.
        let mut by_bytes = by_path.clone();
        by_bytes.sort_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
        assert_ne!(by_bytes, by_path);
    }
}
