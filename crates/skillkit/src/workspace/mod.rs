//! An editor's view of a library: the skills under the editor's folders, checked as
//! `skillkit check` checks them, with the unsaved text of the open files in place of what is on
//! disk, and what an editor asks about a skill file (hover, completion, links, code lenses, the
//! safe fixes). `skillkit lsp` is a translation of this module to the Language Server Protocol;
//! it holds no logic of its own.
//!
//! Diagnostics come in two speeds. [`Workspace::edit`] answers at once with the file's own
//! findings (its rules and the agent's verdict on the skill alone, as the app's editor lints) and
//! the library-level findings of the last full pass; [`Workspace::check`], run when the editor
//! is idle, is `skillkit check` on the whole library and says which files' findings changed.

mod assist;

pub use assist::{Completion, CompletionKind, Hover, Lens, Link};

use crate::agent::Agent;
use crate::library::watch::FsChange;
use crate::library::{Entry, Library, LoadOptions};
use crate::lint::diagnostic::{Applicability, Diagnostic};
use crate::prompt::{Prompt, PromptOptions};
use crate::read::is_skill_file;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The codes only a whole library can find (they need other skills).
const LIBRARY_CODES: [&str; 3] = ["SK701", "SK703", "SK704"];

pub struct Workspace {
    agent: &'static Agent,
    roots: Vec<PathBuf>,
    /// Each entry's rule findings (and same-source name clashes); the verdict is applied by
    /// [`Workspace::check`] to a moment's copy of these.
    library: Library,
    /// The unsaved text of each open skill file, by its real path.
    open: HashMap<PathBuf, String>,
    /// What `check` reports for each skill file, from the last full pass.
    checked: HashMap<PathBuf, Vec<Diagnostic>>,
    /// Bumped on every change, to know when the rendered prompts are stale.
    generation: u64,
    prompts: Mutex<HashMap<&'static str, (u64, Arc<Prompt>)>>,
    /// The project's configuration (`skillkit.toml`): rule levels and path ignores applied to
    /// every diagnostic the workspace hands out.
    project: Option<crate::config::Project>,
    /// Skill files opened outside the editor's folders, by real path: each is linted alone, from
    /// its unsaved text only (no discovery around it, no listing of its folder, which may be
    /// `/etc` or the home folder), and is no part of the library.
    loose: HashMap<PathBuf, Entry>,
}

impl Workspace {
    /// The skills under `roots` (the editor's folders, lowest priority first), judged under
    /// `agent`'s profile. Call [`Workspace::check`] for the first diagnostics.
    pub fn open(roots: &[PathBuf], agent: &'static Agent) -> Workspace {
        let roots: Vec<PathBuf> = roots.iter().map(|r| crate::read::resolve_dir(r)).collect();
        Workspace {
            agent,
            library: Library::load(&roots, LoadOptions::CHECK, agent),
            roots,
            open: HashMap::new(),
            checked: HashMap::new(),
            generation: 0,
            prompts: Mutex::new(HashMap::new()),
            project: None,
            loose: HashMap::new(),
        }
    }

    /// The workspace with the project's configuration applied to its diagnostics.
    pub fn with_project(mut self, project: Option<crate::config::Project>) -> Workspace {
        self.project = project;
        self
    }

    pub fn agent(&self) -> &'static Agent {
        self.agent
    }

    pub fn library(&self) -> &Library {
        &self.library
    }

    /// The skill file as the library knows it: its folder's real path and its name.
    pub fn real_path(path: &Path) -> PathBuf {
        match (path.parent(), path.file_name()) {
            (Some(dir), Some(name)) => crate::read::resolve_dir(dir).join(name),
            _ => path.to_path_buf(),
        }
    }

    /// The skill file's entry: the library's, or a loose file's (see [`Workspace::edit`]).
    fn skill_at(&self, path: &Path) -> Option<&Entry> {
        let real = Self::real_path(path);
        self.library.entry_at(&real).map(|i| &self.library.entries[i]).or_else(|| self.loose.get(&real))
    }

    /// The unsaved text of an open skill file: the library entry takes it, and the file's own
    /// diagnostics come back at once (see the module docs). `None` when `path` is not a skill
    /// file. A skill file the library does not have, outside the editor's folders (or where their
    /// discovery does not look), is linted alone: its own text, as `skillkit check` would find
    /// it on its own but with no file of its folder listed (its folder may be `/etc` or the home
    /// folder), no library around it and no discovery.
    pub fn edit(&mut self, path: &Path, text: &str) -> Option<Vec<Diagnostic>> {
        if !is_skill_file(path) {
            return None;
        }
        let real = Self::real_path(path);
        self.open.insert(real.clone(), text.to_string());
        self.generation += 1;
        let i = match self.library.entry_at(&real) {
            Some(i) => i,
            None => match self.add(&real) {
                Some(i) => i,
                None => return Some(self.edit_loose(&real, text)),
            },
        };
        self.library.set_text(i, text, self.agent);
        Some(self.quick(&self.library.entries[i]))
    }

    /// `text` as the skill file at `path`, linted alone under another agent's profile (what an
    /// agent picker counts beside each agent), with the skill folder's files as the workspace
    /// knows them and the project's configuration applied. The workspace's own texts stay as
    /// they are. `None` when `path` is not a skill file.
    pub fn lint_as(&self, path: &Path, text: &str, agent: &Agent) -> Option<Vec<Diagnostic>> {
        if !is_skill_file(path) {
            return None;
        }
        let real = Self::real_path(path);
        let dir = real.parent().map_or_else(PathBuf::new, Path::to_path_buf);
        let file_name = real.file_name().and_then(|n| n.to_str()).unwrap_or("SKILL.md");
        let mut skill = crate::skill::Skill::parse(dir.clone(), file_name, text.to_string());
        skill.resources = match self.library.entry_at(&real) {
            Some(i) => self.library.entries[i].skill.resources.clone(),
            // A file the library does not have: its folder is not listed (see `edit`).
            None => None,
        };
        let mut found = crate::verdict::lint_alone(&skill, agent);
        self.adjust(&real, &mut found);
        Some(found)
    }

    /// Brings a skill file created in a known source into the library (discovered again there).
    fn add(&mut self, real: &Path) -> Option<usize> {
        let dir = real.parent()?;
        if self.roots.iter().any(|r| dir.starts_with(r)) {
            self.library.apply_changes(&[FsChange::Created(real.to_path_buf())], &self.agent.lint);
        }
        self.library.entry_at(real)
    }

    /// A loose skill file's text linted alone (see [`Workspace::edit`]): its findings now.
    fn edit_loose(&mut self, real: &Path, text: &str) -> Vec<Diagnostic> {
        let dir = real.parent().map_or_else(PathBuf::new, Path::to_path_buf);
        let file_name = real.file_name().and_then(|n| n.to_str()).unwrap_or("SKILL.md");
        let skill = crate::skill::Skill::parse(dir.clone(), file_name, text.to_string());
        let entry = Entry {
            source: 0,
            listed_as: dir,
            diagnostics: crate::lint::lint(&skill, self.agent),
            key: skill.display_name().to_string(),
            skill: Box::new(skill),
            shadowed_by: None,
            readings: Default::default(),
        };
        let found = self.quick(&entry);
        self.loose.insert(real.to_path_buf(), entry);
        found
    }

    /// The file's own findings under the agent, and the library-level ones of the last pass.
    fn quick(&self, e: &Entry) -> Vec<Diagnostic> {
        let mut found = e.diagnostics.clone();
        crate::verdict::judge_alone(&e.skill, &mut found, self.agent);
        let path = e.skill.path();
        self.adjust(&path, &mut found);
        // The last pass's library findings, already adjusted by it.
        if let Some(last) = self.checked.get(&path) {
            found.extend(last.iter().filter(|d| LIBRARY_CODES[1..].contains(&d.code)).cloned());
        }
        found
    }

    /// The editor closed the file: what is on disk counts again.
    pub fn close(&mut self, path: &Path) {
        let real = Self::real_path(path);
        if self.loose.remove(&real).is_some() {
            self.generation += 1;
        }
        if self.open.remove(&real).is_some() {
            if let Some(i) = self.library.entry_at(&real) {
                self.library.reload(i, self.agent);
                self.generation += 1;
            }
        }
    }

    /// Files changed on disk (the editor's file watcher): re-read what they touch, keeping the
    /// unsaved text of open files.
    pub fn files_changed(&mut self, changes: &[FsChange]) {
        self.library.apply_changes(changes, &self.agent.lint);
        for (p, t) in &self.open {
            if let Some(i) = self.library.entry_at(p) {
                if self.library.entries[i].skill.text != *t {
                    self.library.set_text(i, t, self.agent);
                }
            }
        }
        self.generation += 1;
    }

    /// `skillkit check` on the whole library as it stands (unsaved texts included). Returns each
    /// skill file whose diagnostics changed since the last pass, with its diagnostics now (an
    /// empty list for a file that is gone or has none left).
    pub fn check(&mut self) -> Vec<(PathBuf, Vec<Diagnostic>)> {
        let raw: Vec<Vec<Diagnostic>> = self.library.entries.iter().map(|e| e.diagnostics.clone()).collect();
        crate::verdict::judge_library(&mut self.library, self.agent);
        let mut now: HashMap<PathBuf, Vec<Diagnostic>> = HashMap::with_capacity(raw.len());
        for (e, raw) in self.library.entries.iter_mut().zip(raw) {
            let mut found = std::mem::replace(&mut e.diagnostics, raw);
            if let Some(p) = &self.project {
                p.adjust(&e.skill.path(), &mut found);
            }
            now.entry(e.skill.path()).or_insert(found);
        }
        for (path, e) in &self.loose {
            now.entry(path.clone()).or_insert_with(|| self.quick(e));
        }
        let mut changed: Vec<(PathBuf, Vec<Diagnostic>)> = vec![];
        for (path, found) in &now {
            if self.checked.get(path) != Some(found) {
                changed.push((path.clone(), found.clone()));
            }
        }
        for path in self.checked.keys() {
            if !now.contains_key(path) {
                changed.push((path.clone(), vec![]));
            }
        }
        changed.sort_by(|a, b| a.0.cmp(&b.0));
        self.checked = now;
        changed
    }

    fn adjust(&self, file: &Path, diagnostics: &mut Vec<Diagnostic>) {
        if let Some(p) = &self.project {
            p.adjust(file, diagnostics);
        }
    }

    /// The diagnostics of the last full pass for `path`.
    pub fn diagnostics(&self, path: &Path) -> &[Diagnostic] {
        self.checked.get(&Self::real_path(path)).map_or(&[], Vec::as_slice)
    }

    /// The findings of the skill file's current text with their fixes (for code actions).
    pub fn findings(&self, path: &Path) -> Vec<Diagnostic> {
        self.skill_at(path).map(|e| self.quick(e)).unwrap_or_default()
    }

    /// The fixes an editor offers at `at` (a byte span of the open file's text: the cursor or a
    /// selection), each with its diagnostic, the preferred one first
    /// ([`crate::lint::quick_fix::fixes_at`]: the fix that adds no error and clears the most
    /// findings there).
    pub fn quick_fixes(&self, path: &Path, at: crate::Span) -> Vec<Diagnostic> {
        let Some(e) = self.skill_at(path) else { return vec![] };
        let found = self.quick(e);
        let file = e.skill.path();
        let relint = |text: &str| {
            let mut skill = crate::Skill::parse(e.skill.dir.clone(), &e.skill.file_name, text.to_string());
            skill.resources = e.skill.resources.clone();
            let mut out = crate::verdict::lint_alone(&skill, self.agent);
            self.adjust(&file, &mut out);
            out
        };
        crate::lint::quick_fix::fixes_at(&e.skill.text, &found, at, relint)
            .into_iter()
            .map(|i| found[i].clone())
            .collect()
    }

    /// The text with every safe fix applied, again until none is left (a fix can reveal another);
    /// `None` when there is nothing to fix.
    pub fn fix_all(&self, path: &Path, text: &str) -> Option<String> {
        let e = self.skill_at(path)?;
        let mut text = text.to_string();
        let mut changed = false;
        for _ in 0..8 {
            let mut skill = crate::skill::Skill::parse(e.skill.dir.clone(), &e.skill.file_name, text.clone());
            skill.resources = e.skill.resources.clone();
            let found = crate::verdict::lint_alone(&skill, self.agent);
            let safe: Vec<&crate::lint::diagnostic::Fix> = found
                .iter()
                .filter_map(|d| d.fix.as_ref())
                .filter(|f| f.applicability == Applicability::Safe)
                .collect();
            if safe.is_empty() {
                break;
            }
            let fixed = crate::lint::diagnostic::apply_fixes(&text, safe);
            if fixed == text {
                break;
            }
            text = fixed;
            changed = true;
        }
        changed.then_some(text)
    }

    /// The agent's rendered prompt for the library as installed (each skill in its folder's
    /// parent), unsaved texts included; `None` for profiles that only lint. Remembered until the
    /// library changes.
    pub fn prompt(&self, agent: &'static Agent) -> Option<Arc<Prompt>> {
        agent.prompt?;
        let mut cache = self.prompts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((g, p)) = cache.get(agent.id) {
            if *g == self.generation {
                return Some(p.clone());
            }
        }
        let view = crate::verdict::as_installed(&self.library);
        let prompt = Arc::new(agent.render(&view, &PromptOptions::default())?);
        cache.insert(agent.id, (self.generation, prompt.clone()));
        Some(prompt)
    }
}

#[cfg(test)]
mod tests;
