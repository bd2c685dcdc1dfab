//! The commands: each one checks its input, calls the engine and converts the result. The work
//! is done by methods on [`AppState`] so that tests can call them without a window; the Tauri
//! functions at the bottom only fetch the state. Commands run off the main thread (`async`).

use crate::error::{AppError, ErrorCode, ErrorDetail};
use crate::events::{LibraryChanged, LIBRARY_CHANGED};
use crate::files::Scope;
use crate::opened::{resolve, Kept, Notify};
use crate::wire::*;
use serde::{Deserialize, Serialize};
use skillkit::library::Library;
use skillkit::{find_agent, Agent, AGENTS};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tauri::{Emitter, Manager};
use ts_rs::TS;

/// What the UI opens first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Startup {
    /// Library sources, lowest priority first.
    pub sources: Vec<String>,
    pub agent: String,
}

#[derive(Clone, Debug, Deserialize, TS)]
pub struct OpenLibrary {
    /// Lowest priority first.
    pub sources: Vec<String>,
    pub agent: String,
}

#[derive(Clone, Debug, Deserialize, TS)]
pub struct LintText {
    /// The skill file's path (its folder's files are read for the rules that need them).
    pub path: String,
    /// The editor's text, unsaved.
    pub text: String,
    pub agent: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Linted {
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Clone, Debug, Deserialize, TS)]
pub struct ApplyFixes {
    pub text: String,
    pub fixes: Vec<Fix>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Fixed {
    pub text: String,
}

#[derive(Clone, Debug, Deserialize, TS)]
pub struct RenderPrompt {
    pub sources: Vec<String>,
    pub agent: String,
    /// Tokens; `null` uses the agent's default.
    #[ts(type = "number | null")]
    pub context_window: Option<u64>,
    pub char_budget: Option<usize>,
    /// Skills already loaded (agents that mark them).
    pub loaded: Vec<String>,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    #[default]
    Recommend,
    Restrict,
}

#[derive(Clone, Debug, Default, Deserialize, TS)]
pub struct SessionSettings {
    #[ts(type = "number | null")]
    pub context_window: Option<u64>,
    pub max_loaded_skills: Option<usize>,
    pub policy: Policy,
    pub char_budget: Option<usize>,
    /// Claude Code permission rules, e.g. `Bash(git:*)`.
    pub allow: Vec<String>,
}

impl SessionSettings {
    /// The engine's settings: the agent's defaults where a value is not given.
    pub fn to_engine(&self) -> skillkit::session::Settings {
        let mut settings = skillkit::session::Settings {
            context_window: self.context_window,
            policy: match self.policy {
                Policy::Recommend => skillkit::session::Policy::Recommend,
                Policy::Restrict => skillkit::session::Policy::Restrict,
            },
            char_budget: self.char_budget,
            allow: self.allow.clone(),
            ..Default::default()
        };
        if let Some(n) = self.max_loaded_skills {
            settings.max_loaded_skills = n;
        }
        settings
    }
}

#[derive(Clone, Debug, Deserialize, TS)]
pub struct RunSession {
    pub sources: Vec<String>,
    pub agent: String,
    pub settings: SessionSettings,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, Deserialize, TS)]
pub struct RunSessionScript {
    /// Where the script is (its `sources` are relative to its folder).
    pub path: String,
    pub text: String,
}

#[derive(Clone, Debug, Deserialize, TS)]
pub struct ReadFile {
    pub path: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct FileText {
    pub path: String,
    pub text: String,
    /// What the file was when read: a save based on this text carries it (see `SaveFile::base`).
    pub version: skillkit::scope::Version,
}

#[derive(Clone, Debug, Deserialize, TS)]
pub struct SaveFile {
    pub path: String,
    pub text: String,
    /// The version of the file the text was based on (from `read_file` or the last save): the
    /// save is refused with the `conflict` code when the file changed since. Absent: no check.
    #[serde(default)]
    #[ts(optional)]
    pub base: Option<skillkit::scope::Version>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Saved {
    pub path: String,
    pub bytes: usize,
    /// The file's version after the save, the base of the next one.
    pub version: skillkit::scope::Version,
}

#[derive(Clone, Debug, Deserialize, TS)]
pub struct RenderPreview {
    /// The skill file whose folder images and links are resolved in.
    pub path: String,
    /// The editor's text, unsaved.
    pub text: String,
}

/// A heading of the preview.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Heading {
    pub level: u8,
    pub title: String,
    /// The heading's `id` in the HTML.
    pub id: String,
}

/// An image of the body shown as its alt text, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct SkippedImage {
    pub path: String,
    pub reason: String,
}

/// The editor's Markdown preview: sanitized HTML whose only images are `data:` URLs of files
/// inside the skill folder, and whose links to paths carry what the engine found there
/// (`data-link`: file, folder, missing or outside; `data-path`; a `title`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct PreviewView {
    pub html: String,
    pub headings: Vec<Heading>,
    pub skipped_images: Vec<SkippedImage>,
}

#[derive(Clone, Debug, Deserialize, TS)]
pub struct FrontmatterText {
    pub text: String,
}

/// A top-level frontmatter field for the form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct FormField {
    pub key: String,
    /// `null` when the value is a list, a mapping or an alias (edited in the text).
    pub value: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct FrontmatterForm {
    pub fields: Vec<FormField>,
}

#[derive(Clone, Debug, Deserialize, TS)]
pub struct SetFrontmatterField {
    pub text: String,
    pub key: String,
    pub value: String,
}

#[derive(Clone, Debug, Deserialize, TS)]
pub struct NewSkill {
    /// One of the opened library's sources.
    pub source: String,
    pub name: String,
    pub description: String,
    /// Resource folders to create: `scripts`, `references`, `assets`.
    pub folders: Vec<String>,
}

/// A check's finding about the new skill, with the profiles that report it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct NewSkillProblem {
    pub code: String,
    pub severity: Severity,
    pub message: String,
    /// The frontmatter field it is about (`name`, `description`), when it is one of them.
    pub field: Option<String>,
    pub agents: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct NewSkillCheck {
    /// Errors and warnings under every profile; empty when the skill can be created.
    pub problems: Vec<NewSkillProblem>,
    /// The skill file it would create.
    pub path: String,
    /// A file or folder is already there.
    pub exists: bool,
}

/// Unsaved editor text kept from an earlier run, newer than its file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Draft {
    pub path: String,
    pub text: String,
    /// When the draft was written, in milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub written_ms: u64,
    /// When the file was last modified; `null` when it no longer exists.
    #[ts(type = "number | null")]
    pub file_modified_ms: Option<u64>,
}

/// The app's state: what it opens first, the opened library (kept and watched) and which
/// folders the UI may touch.
pub struct AppState {
    startup: Startup,
    /// Started on explicit sources: the remembered library is neither reopened nor replaced.
    explicit: bool,
    /// Where the last opened library is remembered (the app's config folder), once known.
    memory: Mutex<Option<PathBuf>>,
    /// Where recovery drafts are kept (the app's data folder), once known.
    drafts: Mutex<Option<PathBuf>>,
    scope: Mutex<Scope>,
    /// Held for the length of a save (see [`AppState::save_scoped`]).
    saving: Mutex<()>,
    pub kept: Kept,
}

fn agent(id: &str) -> Result<&'static Agent, AppError> {
    find_agent(id).ok_or_else(|| AppError::new(ErrorCode::UnknownAgent, skillkit::agents::unknown_agent(id)))
}

fn paths(sources: &[String]) -> Vec<PathBuf> {
    sources.iter().map(PathBuf::from).collect()
}

use skillkit::read::is_skill_file;

impl AppState {
    pub fn new(startup: Startup) -> AppState {
        AppState {
            startup,
            explicit: true,
            memory: Mutex::new(None),
            drafts: Mutex::new(None),
            scope: Mutex::new(Scope::default()),
            saving: Mutex::new(()),
            kept: Kept::default(),
        }
    }

    /// An app that starts on the library remembered in `file` (or on `fallback`, the first time)
    /// and remembers each library it opens there.
    pub fn remembering(fallback: Startup, file: Option<PathBuf>) -> AppState {
        let state = AppState { explicit: false, ..AppState::new(fallback) };
        *state.memory.lock().unwrap_or_else(|e| e.into_inner()) = file;
        state
    }

    /// Sets where the last library is remembered (known once the app runs).
    pub fn remember_in(&self, file: PathBuf) {
        *self.memory.lock().unwrap_or_else(|e| e.into_inner()) = Some(file);
    }

    /// Sets where recovery drafts are kept (known once the app runs).
    pub fn keep_drafts_in(&self, dir: PathBuf) {
        *self.drafts.lock().unwrap_or_else(|e| e.into_inner()) = Some(dir);
    }

    fn drafts_dir(&self) -> Result<PathBuf, AppError> {
        self.drafts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .ok_or_else(|| AppError::new(ErrorCode::Io, "no data folder for recovery drafts"))
    }

    /// Keeps the editor's unsaved text of a file of the library.
    pub fn save_draft(&self, args: SaveFile) -> Result<(), AppError> {
        let path = self.scope().check(Path::new(&args.path))?;
        crate::drafts::write(&self.drafts_dir()?, &path, &args.text)
    }

    pub fn discard_draft(&self, args: ReadFile) -> Result<(), AppError> {
        let path = self.scope().check(Path::new(&args.path))?;
        crate::drafts::remove(&self.drafts_dir()?, &path)
    }

    /// The drafts of files in the opened library that are newer than their file (or whose file
    /// is gone), to offer for restoring. Older ones are stale and removed.
    pub fn drafts(&self) -> Result<Vec<Draft>, AppError> {
        let Ok(dir) = self.drafts_dir() else { return Ok(vec![]) };
        let mut out = vec![];
        for d in crate::drafts::all(&dir) {
            let Ok(path) = self.scope().check(Path::new(&d.path)) else { continue };
            let file_modified_ms = crate::drafts::modified_ms(&path);
            if file_modified_ms.is_some_and(|m| m >= d.written_ms) {
                crate::drafts::remove(&dir, &path)?;
                continue;
            }
            out.push(Draft { path: d.path, text: d.text, written_ms: d.written_ms, file_modified_ms });
        }
        Ok(out)
    }

    fn memory(&self) -> Option<PathBuf> {
        self.memory.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The opened library's scope, copied out so that no lock is held while a file is read.
    pub(crate) fn scope(&self) -> Scope {
        self.scope.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Saves `text` through the scope, one save at a time: the expected-version check and the
    /// write of one save are never interleaved with another's. Reads go on meanwhile.
    pub(crate) fn save_scoped(
        &self,
        path: &Path,
        text: &str,
        base: Option<Option<&skillkit::scope::Version>>,
    ) -> Result<skillkit::scope::Version, AppError> {
        let scope = self.scope();
        let _one_at_a_time = self.saving.lock().unwrap_or_else(|e| e.into_inner());
        scope.save(path, text, base)
    }

    /// `path` resolved, when it lies inside the opened library's sources.
    pub fn check_path(&self, path: &str) -> Result<PathBuf, AppError> {
        self.scope().check(Path::new(path))
    }

    /// The library to open first: the remembered one, unless started on explicit sources.
    pub fn startup(&self) -> Startup {
        match self.memory() {
            Some(file) if !self.explicit => crate::last::choose(crate::last::read(&file), self.startup.clone()),
            _ => self.startup.clone(),
        }
    }

    pub fn agents(&self) -> Vec<AgentInfo> {
        AGENTS
            .iter()
            .map(|a| AgentInfo {
                id: a.id.into(),
                title: a.title.into(),
                source: a.source.into(),
                has_prompt: a.prompt.is_some(),
            })
            .collect()
    }

    /// Opens the library without watching it; its sources become the folders the UI may read
    /// and save in.
    pub fn open_library(&self, args: OpenLibrary) -> Result<LibraryView, AppError> {
        self.open_library_watched(args, None)
    }

    /// Opens the library and keeps it; with `notify`, its sources are watched and each change
    /// is applied to the kept library and passed to `notify` (until another library is opened).
    pub fn open_library_watched(&self, args: OpenLibrary, notify: Option<Notify>) -> Result<LibraryView, AppError> {
        let agent = agent(&args.agent)?;
        let sources = resolve(&args.sources);
        *self.scope.lock().unwrap_or_else(|e| e.into_inner()) = Scope::new(&sources).named(&paths(&args.sources));
        let (view, problem) = self.kept.open(sources, agent, notify);
        if let Some(problem) = problem {
            eprintln!("skill-studio: {problem}");
        }
        // Saves cut short (a crash, kill -9) leave their temporary files: remove them.
        for (dir, names) in self.kept.temporaries() {
            self.scope().remove_temporaries(&dir, &names);
        }
        if let Some(file) = self.memory().filter(|_| !self.explicit) {
            let last = crate::last::LastLibrary { sources: args.sources, agent: agent.id.into() };
            if let Err(e) = crate::last::write(&file, &last) {
                eprintln!("skill-studio: cannot remember the library: {e}");
            }
        }
        Ok(view)
    }

    /// Lints unsaved text as if it were the skill file at `path`.
    pub fn lint_text(&self, args: LintText) -> Result<Linted, AppError> {
        let agent = agent(&args.agent)?;
        let path = self.scope().check(Path::new(&args.path))?;
        if !is_skill_file(&path) {
            return Err(AppError::new(ErrorCode::NotASkillFile, format!("{} is not a SKILL.md", args.path)));
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let mut skill = skillkit::Skill::parse(dir, &file, args.text);
        // Every keystroke comes here: the watched library's resource tree, else a fresh scan.
        skill.resources = self
            .kept
            .resources_of(dir)
            .or_else(|| Some(skillkit::resources::scan(dir, &file, skillkit::resources::ScanOptions::default())));
        Ok(Linted { diagnostics: skillkit::verdict::lint_alone(&skill, agent) })
    }

    pub fn apply_fixes(&self, args: ApplyFixes) -> Result<Fixed, AppError> {
        let fixes = &args.fixes;
        for e in fixes.iter().flat_map(|f| &f.edits) {
            let ok = e.span.start <= e.span.end
                && e.span.end <= args.text.len()
                && args.text.is_char_boundary(e.span.start)
                && args.text.is_char_boundary(e.span.end);
            if !ok {
                return Err(AppError::new(ErrorCode::Io, "the fix no longer fits the text; lint again"));
            }
        }
        Ok(Fixed { text: skillkit::diagnostic::apply_fixes(&args.text, fixes) })
    }

    pub fn render_prompt(&self, args: RenderPrompt) -> Result<PromptView, AppError> {
        let agent = agent(&args.agent)?;
        let options = skillkit::prompt::PromptOptions {
            context_window: args.context_window,
            char_budget: args.char_budget,
            loaded: args.loaded,
        };
        // The kept library when the sources are the opened ones (kept up to date by the watcher).
        let sources = resolve(&args.sources);
        self.check_folders(&sources)?;
        let render = |lib: &Library| agent.render(lib, &options);
        let rendered = match self.kept.with(&sources, agent, render) {
            Some(r) => r,
            None => render(&Library::open(&sources, agent)),
        };
        rendered.map(PromptView::from).ok_or_else(|| {
            AppError::new(ErrorCode::NoPrompt, format!("`{}` only lints; it injects no prompt", agent.id))
        })
    }

    pub fn run_session(&self, args: RunSession) -> Result<SessionView, AppError> {
        let agent = agent(&args.agent)?;
        if agent.prompt.is_none() {
            return Err(AppError::new(ErrorCode::NoPrompt, format!("`{}` has no sessions", agent.id)));
        }
        let sources = paths(&args.sources);
        self.check_folders(&sources)?;
        let settings = args.settings.to_engine();
        let steps = args.steps.iter().map(Step::to_engine).collect();
        Ok(simulate(agent, &sources, settings, steps))
    }

    pub fn run_session_script(&self, args: RunSessionScript) -> Result<SessionView, AppError> {
        let script = skillkit::session_script::parse(&args.text).map_err(|errors| AppError {
            code: ErrorCode::InvalidScript,
            message: format!("{}: {} mistake(s) in the session script", args.path, errors.len()),
            details: errors
                .into_iter()
                .map(|e| ErrorDetail { message: e.message, line: e.line as u32, column: e.column as u32 })
                .collect(),
        })?;
        let agent = agent(&script.agent)?;
        let dir = skillkit::session_script::folder_of(Path::new(&args.path));
        let sources = script.source_paths(dir);
        // A script names its sources relative to itself: they must be the opened library's.
        self.check_folders(&sources)?;
        Ok(simulate(agent, &sources, script.settings, script.steps))
    }

    /// Prompts and sessions read only the opened library's folders.
    fn check_folders(&self, sources: &[PathBuf]) -> Result<(), AppError> {
        let scope = self.scope();
        sources.iter().try_for_each(|s| scope.check_folder(s))
    }

    /// Reads a text file inside the opened library's sources (as the engine reads skill files:
    /// at most 10 MiB, UTF-8), with its version for a later save.
    pub fn read_file(&self, args: ReadFile) -> Result<FileText, AppError> {
        let path = self.scope().check(Path::new(&args.path))?;
        let (text, version) = self.scope().read_text(&path, skillkit::skill::MAX_FILE_BYTES)?;
        Ok(FileText { path: path_string(&path), text, version })
    }

    /// The body of unsaved skill text as the preview shows it (see `skillkit::preview`).
    pub fn render_preview(&self, args: RenderPreview) -> Result<PreviewView, AppError> {
        let path = self.scope().check(Path::new(&args.path))?;
        if !is_skill_file(&path) {
            return Err(AppError::new(ErrorCode::NotASkillFile, format!("{} is not a SKILL.md", args.path)));
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        let p = skillkit::preview::render(dir, &args.text, skillkit::preview::PreviewLimits::default());
        Ok(PreviewView {
            html: p.html,
            headings: p
                .outline
                .into_iter()
                .filter(|s| s.level > 0)
                .map(|s| Heading { level: s.level, title: s.title, id: s.id })
                .collect(),
            skipped_images: p.skipped_images.into_iter().map(|(path, reason)| SkippedImage { path, reason }).collect(),
        })
    }

    /// The frontmatter's top-level fields, for the form.
    pub fn frontmatter_form(&self, args: FrontmatterText) -> Result<FrontmatterForm, AppError> {
        let fields = skillkit::frontmatter_edit::form_fields(&args.text);
        Ok(FrontmatterForm { fields: fields.into_iter().map(|f| FormField { key: f.key, value: f.value }).collect() })
    }

    /// The text with one field's value rewritten (every other byte kept).
    pub fn set_frontmatter_field(&self, args: SetFrontmatterField) -> Result<Fixed, AppError> {
        skillkit::frontmatter_edit::set_field(&args.text, &args.key, &args.value)
            .map(|text| Fixed { text })
            .map_err(|e| AppError::new(ErrorCode::NotEditable, e.to_string()))
    }

    /// Where a new skill would go: `source/name`, when `source` is an opened source.
    fn new_skill_dir(&self, args: &NewSkill) -> Result<PathBuf, AppError> {
        let source = resolve(std::slice::from_ref(&args.source)).remove(0);
        if !self.kept.sources().contains(&source) || !source.is_dir() {
            return Err(AppError::new(
                ErrorCode::InvalidNewSkill,
                format!("{} is not a folder of the opened library", args.source),
            ));
        }
        let plain = !args.name.is_empty()
            && !matches!(args.name.as_str(), "." | "..")
            && !args.name.contains(['/', '\\', '\0']);
        Ok(if plain { source.join(&args.name) } else { source.join("_") })
    }

    /// What every profile's checks say about the proposed skill.
    pub fn check_new_skill(&self, args: NewSkill) -> Result<NewSkillCheck, AppError> {
        let dir = self.new_skill_dir(&args)?;
        let text = skillkit::scaffold::skill_md(&args.name, &args.description, &[]);
        let skill = skillkit::Skill::parse(&dir, "SKILL.md", text.clone());
        let field_of = |span: skillkit::Span| {
            skill
                .frontmatter
                .fields
                .iter()
                .find(|f| f.key_span.start <= span.start && span.end <= f.value.span.end.max(f.key_span.end))
                .map(|f| f.key.clone())
        };
        let problems = skillkit::scaffold::check(&args.name, &args.description)
            .into_iter()
            .map(|(d, agents)| NewSkillProblem {
                code: d.code.to_string(),
                severity: d.severity,
                message: d.message.clone(),
                field: field_of(d.span),
                agents: agents.into_iter().map(str::to_string).collect(),
            })
            .collect();
        Ok(NewSkillCheck { problems, path: path_string(&dir.join("SKILL.md")), exists: dir.exists() })
    }

    /// Creates the skill folder with its `SKILL.md` (the engine's scaffold) and the chosen resource
    /// folders, inside an opened source, only when every profile's checks pass.
    pub fn create_skill(&self, args: NewSkill) -> Result<FileText, AppError> {
        let check = self.check_new_skill(args.clone())?;
        if !check.problems.is_empty() {
            let mut err = AppError::new(
                ErrorCode::InvalidNewSkill,
                format!("`{}` would not pass every profile's checks", args.name),
            );
            err.details = check
                .problems
                .iter()
                .map(|p| ErrorDetail { message: format!("{} {}", p.code, p.message), line: 0, column: 0 })
                .collect();
            return Err(err);
        }
        let unknown: Vec<&String> =
            args.folders.iter().filter(|f| !skillkit::scaffold::FOLDERS.contains(&f.as_str())).collect();
        if !unknown.is_empty() {
            return Err(AppError::new(ErrorCode::InvalidNewSkill, format!("unknown resource folders: {unknown:?}")));
        }
        let dir = self.new_skill_dir(&args)?;
        std::fs::create_dir(&dir).map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => {
                AppError::new(ErrorCode::InvalidNewSkill, format!("{} already exists", dir.display()))
            }
            _ => AppError::io("cannot create", &dir, &e),
        })?;
        for f in &args.folders {
            std::fs::create_dir(dir.join(f)).map_err(|e| AppError::io("cannot create", &dir.join(f), &e))?;
        }
        let folders: Vec<&str> = args.folders.iter().map(String::as_str).collect();
        let text = skillkit::scaffold::skill_md(&args.name, &args.description, &folders);
        let path = dir.join("SKILL.md");
        let version = self.save_scoped(&path, &text, Some(None))?;
        Ok(FileText { path: path_string(&path), text, version })
    }

    /// Saves atomically, only inside the opened library's sources, and only over the version the
    /// text was based on (when given). The draft is dropped once the save is on disk.
    pub fn save_file(&self, args: SaveFile) -> Result<Saved, AppError> {
        let path = self.scope().check(Path::new(&args.path))?;
        let version = self.save_scoped(&path, &args.text, args.base.as_ref().map(Some))?;
        if let Ok(dir) = self.drafts_dir() {
            crate::drafts::remove(&dir, &path)?;
        }
        Ok(Saved { path: path_string(&path), bytes: args.text.len(), version })
    }
}

fn simulate(
    agent: &'static Agent,
    sources: &[PathBuf],
    settings: skillkit::session::Settings,
    steps: Vec<skillkit::session::Step>,
) -> SessionView {
    let session = skillkit::simulate::run(agent, sources, settings, steps);
    SessionView {
        agent: agent.id.into(),
        initial_prompt: session.initial_prompt.clone(),
        turns: session.turns.iter().map(Turn::from).collect(),
        prompt: session.prompt_text(),
        loaded: session.loaded.clone(),
    }
}

// The Session pane's script commands live in their own module.
pub use crate::session_commands::*;

fn state(app: &tauri::AppHandle) -> tauri::State<'_, AppState> {
    app.state::<AppState>()
}

#[tauri::command(async)]
pub fn startup(app: tauri::AppHandle, args: ()) -> Result<Startup, AppError> {
    let () = args;
    Ok(state(&app).startup())
}

#[tauri::command(async)]
pub fn agents(app: tauri::AppHandle, args: ()) -> Result<Vec<AgentInfo>, AppError> {
    let () = args;
    Ok(state(&app).agents())
}

#[tauri::command(async)]
pub fn open_library(app: tauri::AppHandle, args: OpenLibrary) -> Result<LibraryView, AppError> {
    let emitter = app.clone();
    let notify: Notify = Arc::new(move |changed: LibraryChanged| {
        if let Err(e) = emitter.emit(LIBRARY_CHANGED, changed) {
            eprintln!("skill-studio: cannot emit {LIBRARY_CHANGED}: {e}");
        }
    });
    state(&app).open_library_watched(args, Some(notify))
}

#[tauri::command(async)]
pub fn lint_text(app: tauri::AppHandle, args: LintText) -> Result<Linted, AppError> {
    state(&app).lint_text(args)
}

#[tauri::command(async)]
pub fn apply_fixes(app: tauri::AppHandle, args: ApplyFixes) -> Result<Fixed, AppError> {
    state(&app).apply_fixes(args)
}

#[tauri::command(async)]
pub fn render_prompt(app: tauri::AppHandle, args: RenderPrompt) -> Result<PromptView, AppError> {
    state(&app).render_prompt(args)
}

#[tauri::command(async)]
pub fn run_session(app: tauri::AppHandle, args: RunSession) -> Result<SessionView, AppError> {
    state(&app).run_session(args)
}

#[tauri::command(async)]
pub fn run_session_script(app: tauri::AppHandle, args: RunSessionScript) -> Result<SessionView, AppError> {
    state(&app).run_session_script(args)
}

#[tauri::command(async)]
pub fn read_file(app: tauri::AppHandle, args: ReadFile) -> Result<FileText, AppError> {
    state(&app).read_file(args)
}

#[tauri::command(async)]
pub fn save_file(app: tauri::AppHandle, args: SaveFile) -> Result<Saved, AppError> {
    state(&app).save_file(args)
}

#[tauri::command(async)]
pub fn render_preview(app: tauri::AppHandle, args: RenderPreview) -> Result<PreviewView, AppError> {
    state(&app).render_preview(args)
}

#[tauri::command(async)]
pub fn frontmatter_form(app: tauri::AppHandle, args: FrontmatterText) -> Result<FrontmatterForm, AppError> {
    state(&app).frontmatter_form(args)
}

#[tauri::command(async)]
pub fn set_frontmatter_field(app: tauri::AppHandle, args: SetFrontmatterField) -> Result<Fixed, AppError> {
    state(&app).set_frontmatter_field(args)
}

#[tauri::command(async)]
pub fn check_new_skill(app: tauri::AppHandle, args: NewSkill) -> Result<NewSkillCheck, AppError> {
    state(&app).check_new_skill(args)
}

#[tauri::command(async)]
pub fn create_skill(app: tauri::AppHandle, args: NewSkill) -> Result<FileText, AppError> {
    state(&app).create_skill(args)
}

#[tauri::command(async)]
pub fn save_draft(app: tauri::AppHandle, args: SaveFile) -> Result<(), AppError> {
    state(&app).save_draft(args)
}

#[tauri::command(async)]
pub fn discard_draft(app: tauri::AppHandle, args: ReadFile) -> Result<(), AppError> {
    state(&app).discard_draft(args)
}

#[tauri::command(async)]
pub fn drafts(app: tauri::AppHandle, args: ()) -> Result<Vec<Draft>, AppError> {
    let () = args;
    state(&app).drafts()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::LibraryEvent;

    fn bundled() -> String {
        path_string(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../skills").canonicalize().unwrap())
    }

    fn opened() -> (AppState, LibraryView) {
        let state = AppState::new(Startup { sources: vec![bundled()], agent: "spec".into() });
        let lib = state.open_library(OpenLibrary { sources: vec![bundled()], agent: "spec".into() }).unwrap();
        (state, lib)
    }

    #[test]
    fn open_library_lists_the_bundled_skills_without_errors() {
        let (_, lib) = opened();
        assert_eq!(lib.sources.len(), 1);
        assert!(lib.skills.len() >= 8);
        assert!(lib.skills.iter().all(|s| s.errors == 0 && s.hidden_by.is_none()));
    }

    #[test]
    fn lint_text_reports_a_typed_error_on_its_exact_span() {
        let (state, lib) = opened();
        let skill = &lib.skills[0];
        let text = state.read_file(ReadFile { path: skill.path.clone() }).unwrap().text;
        let broken = format!("x{text}");
        let linted =
            state.lint_text(LintText { path: skill.path.clone(), text: broken, agent: "spec".into() }).unwrap();
        let d = linted.diagnostics.iter().find(|d| d.code == "SK101").expect("SK101");
        assert_eq!((d.start.line, d.start.column), (1, 1));
        let clean = state.lint_text(LintText { path: skill.path.clone(), text, agent: "spec".into() }).unwrap();
        assert!(clean.diagnostics.iter().all(|d| d.severity != Severity::Error));
    }

    #[test]
    fn errors_carry_stable_codes() {
        let (state, lib) = opened();
        let code = |r: Result<_, AppError>| r.map(|_: ()| ()).unwrap_err().code;
        assert_eq!(
            code(state.open_library(OpenLibrary { sources: vec![], agent: "nope".into() }).map(|_| ())),
            ErrorCode::UnknownAgent
        );
        let render = RenderPrompt {
            sources: vec![bundled()],
            agent: "spec".into(),
            context_window: None,
            char_budget: None,
            loaded: vec![],
        };
        assert_eq!(code(state.render_prompt(render).map(|_| ())), ErrorCode::NoPrompt);
        let outside = SaveFile { path: "/tmp/skill-studio-outside/SKILL.md".into(), text: String::new(), base: None };
        assert_eq!(code(state.save_file(outside).map(|_| ())), ErrorCode::OutsideLibrary);
        let not_skill =
            LintText { path: format!("{}/README.md", lib.skills[0].dir), text: String::new(), agent: "spec".into() };
        assert_eq!(code(state.lint_text(not_skill).map(|_| ())), ErrorCode::NotASkillFile);
        let script = RunSessionScript { path: "s.yaml".into(), text: "agent: [".into() };
        let err = state.run_session_script(script).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidScript);
        assert!(!err.details.is_empty());
    }

    #[test]
    fn prompt_and_session_come_from_the_engine() {
        let (state, _) = opened();
        let render = RenderPrompt {
            sources: vec![bundled()],
            agent: "claude-code".into(),
            context_window: None,
            char_budget: None,
            loaded: vec![],
        };
        let p = state.render_prompt(render).unwrap();
        let agent = find_agent("claude-code").unwrap();
        let lib = Library::open(&[PathBuf::from(bundled())], agent);
        let expected = agent.render(&lib, &Default::default()).unwrap();
        assert_eq!(p.text, expected.text);
        let session = state
            .run_session(RunSession {
                sources: vec![bundled()],
                agent: "deepagents-v2".into(),
                settings: SessionSettings::default(),
                steps: vec![
                    Step::Load { skill: "commit-message".into() },
                    Step::Unload { skill: "commit-message".into() },
                ],
            })
            .unwrap();
        assert_eq!(session.turns.len(), 2);
        assert_eq!(session.turns[0].loaded, vec!["commit-message".to_string()]);
        assert!(session.loaded.is_empty());
    }

    const DEMO: &str =
        "---\nname: demo\ndescription: Shows a demo. Use when testing the app.\n---\n\n# Demo\n\nBody.\n";

    fn demo_library() -> (tempfile::TempDir, String) {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("skills/demo")).unwrap();
        std::fs::write(tmp.path().join("skills/demo/SKILL.md"), DEMO).unwrap();
        let src = path_string(&tmp.path().join("skills").canonicalize().unwrap());
        (tmp, src)
    }

    fn channel() -> (Notify, std::sync::mpsc::Receiver<LibraryChanged>) {
        let (tx, rx) = std::sync::mpsc::channel();
        (Arc::new(move |c| tx.send(c).unwrap()), rx)
    }

    #[test]
    fn an_external_edit_updates_the_kept_libraries_until_another_library_is_opened() {
        let (_tmp, src) = demo_library();
        let state = AppState::new(Startup { sources: vec![], agent: "spec".into() });
        let (notify, rx) = channel();
        let lib =
            state.open_library_watched(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }, Some(notify));
        assert_eq!(lib.unwrap().skills[0].errors, 0);
        assert!(state.kept.watching());
        let render = || RenderPrompt {
            sources: vec![src.clone()],
            agent: "claude-code".into(),
            context_window: None,
            char_budget: None,
            loaded: vec![],
        };
        let before = state.render_prompt(render()).unwrap();
        assert_eq!(before.skills[0].decision, Decision::Full);

        std::fs::write(format!("{src}/demo/SKILL.md"), DEMO.replace("name: demo", "name: Demo_Bad")).unwrap();
        state.kept.flush().unwrap();
        let changed = rx.recv_timeout(std::time::Duration::from_secs(10)).unwrap();
        let dir = format!("{src}/demo");
        assert!(
            changed.events.contains(&LibraryEvent::SkillChanged { dir, name: "Demo_Bad".into() }),
            "{:?}",
            changed.events
        );
        assert!(changed.library.skills[0].errors > 0);
        // The prompt comes from the kept library of that agent, which the watcher updated too.
        let after = state.render_prompt(render()).unwrap();
        let agent = find_agent("claude-code").unwrap();
        let fresh = agent.render(&Library::open(&[PathBuf::from(&src)], agent), &Default::default());
        assert_eq!(after.text, fresh.unwrap().text);
        assert_ne!(after.text, before.text);

        // Another library: the old watcher and its thread stop, so the channel disconnects.
        state.open_library(OpenLibrary { sources: vec![bundled()], agent: "spec".into() }).unwrap();
        assert!(!state.kept.watching());
        assert!(matches!(
            rx.recv_timeout(std::time::Duration::from_secs(10)),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected)
        ));
    }

    #[test]
    fn lint_text_sees_the_skill_folder_as_the_watcher_keeps_it() {
        let (_tmp, src) = demo_library();
        let state = AppState::new(Startup { sources: vec![], agent: "spec".into() });
        let (notify, rx) = channel();
        state
            .open_library_watched(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }, Some(notify))
            .unwrap();
        assert!(state.kept.watching());
        let path = format!("{src}/demo/SKILL.md");
        let text = format!("{DEMO}\nRead [the guide](references/guide.md).\n");
        let lint =
            || state.lint_text(LintText { path: path.clone(), text: text.clone(), agent: "spec".into() }).unwrap();
        let missing = |l: Linted| l.diagnostics.iter().any(|d| d.code == "SK601");
        assert!(missing(lint()));
        // The file appears: once the watcher has told the library, the next lint finds it.
        std::fs::create_dir_all(format!("{src}/demo/references")).unwrap();
        std::fs::write(format!("{src}/demo/references/guide.md"), "# Guide\n").unwrap();
        state.kept.flush().unwrap();
        rx.recv_timeout(std::time::Duration::from_secs(10)).unwrap();
        assert!(!missing(lint()));
    }

    #[test]
    fn a_missing_source_opens_without_a_watcher_and_without_panicking() {
        let state = AppState::new(Startup { sources: vec![], agent: "spec".into() });
        let (notify, _rx) = channel();
        let args = OpenLibrary { sources: vec!["/nonexistent/skill-studio".into()], agent: "spec".into() };
        let lib = state.open_library_watched(args, Some(notify)).unwrap();
        assert!(!lib.sources[0].exists);
        assert!(!state.kept.watching());
    }

    #[test]
    fn render_preview_embeds_images_of_the_skill_folder_only() {
        let (tmp, src) = demo_library();
        std::fs::create_dir_all(format!("{src}/demo/assets")).unwrap();
        std::fs::write(format!("{src}/demo/assets/d.png"), b"png").unwrap();
        std::fs::write(tmp.path().join("outside.png"), b"png").unwrap();
        let state = AppState::new(Startup { sources: vec![], agent: "spec".into() });
        state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }).unwrap();
        let text =
            format!("{DEMO}\n## Usage\n\n![d](assets/d.png) ![o](../../outside.png) ![r](https://x.test/r.png) ![m](assets/none.png)\n");
        let p = state.render_preview(RenderPreview { path: format!("{src}/demo/SKILL.md"), text }).unwrap();
        assert!(p.html.contains("src=\"data:image/png;base64,cG5n\""), "{}", p.html);
        assert_eq!(p.html.matches("<img").count(), 1, "{}", p.html);
        assert_eq!(p.headings.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(), ["demo", "usage"]);
        assert_eq!(p.skipped_images.len(), 1, "{:?}", p.skipped_images);
        assert_eq!(p.skipped_images[0].path, "assets/none.png");
        assert_eq!(p.skipped_images[0].reason, "no such file in the skill folder");
        let outside =
            RenderPreview { path: tmp.path().join("x/SKILL.md").to_string_lossy().into(), text: String::new() };
        assert_eq!(state.render_preview(outside).unwrap_err().code, ErrorCode::OutsideLibrary);
        let not_skill = RenderPreview { path: format!("{src}/demo/README.md"), text: String::new() };
        assert_eq!(state.render_preview(not_skill).unwrap_err().code, ErrorCode::NotASkillFile);
    }

    #[test]
    fn the_library_and_the_editor_show_the_chosen_agents_verdict_as_check_does() {
        let (_tmp, src) = demo_library();
        // Unquoted `: `: DeepAgents (PyYAML) skips the skill; Codex reads the rest of the line.
        let colon = "---\nname: colon\ndescription: Use when: the user asks\n---\nBody.\n";
        std::fs::create_dir_all(format!("{src}/colon")).unwrap();
        std::fs::write(format!("{src}/colon/SKILL.md"), colon).unwrap();
        let state = AppState::new(Startup { sources: vec![], agent: "spec".into() });
        let codes = |view: &LibraryView| -> Vec<(String, usize, Vec<&'static str>)> {
            let mut v: Vec<_> = view
                .skills
                .iter()
                .map(|s| {
                    let errors =
                        s.diagnostics.iter().filter(|d| d.severity == Severity::Error).map(|d| d.code).collect();
                    (s.name.clone(), s.errors, errors)
                })
                .collect();
            v.sort();
            v
        };
        let deep = state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "deepagents".into() }).unwrap();
        assert_eq!(codes(&deep), [("colon".into(), 1, vec!["SK702"]), ("demo".into(), 0, vec![])]);
        let codex = state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "codex".into() }).unwrap();
        assert_eq!(codes(&codex), [("colon".into(), 0, vec![]), ("demo".into(), 0, vec![])]);
        let lint = |agent: &str| {
            let args = LintText { path: format!("{src}/colon/SKILL.md"), text: colon.into(), agent: agent.into() };
            let d = state.lint_text(args).unwrap().diagnostics;
            d.iter().filter(|d| d.severity == Severity::Error).map(|d| d.code).collect::<Vec<_>>()
        };
        assert_eq!(lint("deepagents"), ["SK702"]);
        assert!(lint("codex").is_empty());
        assert_eq!(lint("spec"), ["SK301"]);
    }

    #[test]
    fn a_body_too_deep_to_preview_gets_a_sentence_not_a_freeze() {
        let (_tmp, src) = demo_library();
        let state = AppState::new(Startup { sources: vec![], agent: "spec".into() });
        state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }).unwrap();
        // 100,000 block quotes in one line: minutes in the sanitizer before the depth cap.
        let text = format!("{DEMO}\n{}x\n", "> ".repeat(100_000));
        let p = state.render_preview(RenderPreview { path: format!("{src}/demo/SKILL.md"), text }).unwrap();
        assert!(
            p.html.starts_with("<p class=\"preview-refused\">Preview too deep"),
            "{}",
            &p.html[..200.min(p.html.len())]
        );
        assert_eq!(p.headings.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(), ["demo"]);
    }

    #[test]
    fn the_form_reads_fields_and_sets_one_keeping_the_rest() {
        let state = AppState::new(Startup { sources: vec![], agent: "spec".into() });
        let text = "---\nname: demo # mine\ndescription: Old.\nmetadata:\n  a: b\n---\nBody\n".to_string();
        let form = state.frontmatter_form(FrontmatterText { text: text.clone() }).unwrap();
        assert_eq!(
            form.fields,
            vec![
                FormField { key: "name".into(), value: Some("demo".into()) },
                FormField { key: "description".into(), value: Some("Old.".into()) },
                FormField { key: "metadata".into(), value: None },
            ]
        );
        let set = |key: &str, value: &str| {
            state.set_frontmatter_field(SetFrontmatterField {
                text: text.clone(),
                key: key.into(),
                value: value.into(),
            })
        };
        assert_eq!(set("description", "New: better.").unwrap().text, text.replace("Old.", "\"New: better.\""));
        assert_eq!(set("metadata", "x").unwrap_err().code, ErrorCode::NotEditable);
    }

    #[test]
    fn a_new_skill_is_checked_then_created_inside_an_opened_source_only() {
        let (tmp, src) = demo_library();
        let state = AppState::new(Startup { sources: vec![], agent: "spec".into() });
        state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }).unwrap();
        let new = |name: &str, folders: &[&str]| NewSkill {
            source: src.clone(),
            name: name.into(),
            description: "Drafts release notes from merged changes. Use when asked for release notes.".into(),
            folders: folders.iter().map(|f| f.to_string()).collect(),
        };
        let bad = state.check_new_skill(new("Bad_Name", &[])).unwrap();
        assert!(
            bad.problems.iter().any(|p| p.severity == Severity::Error && p.field.as_deref() == Some("name")),
            "{bad:?}"
        );
        assert_eq!(state.create_skill(new("Bad_Name", &[])).unwrap_err().code, ErrorCode::InvalidNewSkill);
        assert!(!Path::new(&src).join("Bad_Name").exists());

        let good = state.check_new_skill(new("release-notes", &["scripts", "assets"])).unwrap();
        assert!(good.problems.is_empty() && !good.exists, "{good:?}");
        let created = state.create_skill(new("release-notes", &["scripts", "assets"])).unwrap();
        assert_eq!(created.path, format!("{src}/release-notes/SKILL.md"));
        assert_eq!(std::fs::read_to_string(&created.path).unwrap(), created.text);
        assert!(Path::new(&src).join("release-notes/scripts").is_dir());
        assert!(!Path::new(&src).join("release-notes/references").exists());
        // The library reads it with no error or warning.
        let lib = state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }).unwrap();
        let entry = lib.skills.iter().find(|s| s.name == "release-notes").unwrap();
        assert_eq!((entry.errors, entry.warnings), (0, 0));
        // Not twice, not outside the sources, not into a path.
        assert!(state.check_new_skill(new("release-notes", &[])).unwrap().exists);
        assert_eq!(state.create_skill(new("release-notes", &[])).unwrap_err().code, ErrorCode::InvalidNewSkill);
        let outside = NewSkill { source: path_string(tmp.path()), ..new("elsewhere", &[]) };
        assert_eq!(state.create_skill(outside).unwrap_err().code, ErrorCode::InvalidNewSkill);
        assert_eq!(state.create_skill(new("../escape", &[])).unwrap_err().code, ErrorCode::InvalidNewSkill);
        assert!(!tmp.path().join("escape").exists());
    }

    #[test]
    fn drafts_newer_than_their_file_are_offered_and_a_save_removes_them() {
        let (tmp, src) = demo_library();
        let file = format!("{src}/demo/SKILL.md");
        let state = AppState::new(Startup { sources: vec![], agent: "spec".into() });
        state.keep_drafts_in(tmp.path().join("data/drafts"));
        state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }).unwrap();
        assert!(state.drafts().unwrap().is_empty());
        // The file's time is set in the past, so the draft written now is newer.
        let past = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
        std::fs::File::options().write(true).open(&file).unwrap().set_modified(past).unwrap();
        state.save_draft(SaveFile { path: file.clone(), text: "unsaved".into(), base: None }).unwrap();
        let drafts = state.drafts().unwrap();
        assert_eq!(drafts.len(), 1);
        assert_eq!((drafts[0].path.as_str(), drafts[0].text.as_str()), (file.as_str(), "unsaved"));
        assert!(drafts[0].file_modified_ms.unwrap() < drafts[0].written_ms);
        // A file changed after the draft: the draft is stale and dropped.
        std::fs::File::options()
            .write(true)
            .open(&file)
            .unwrap()
            .set_modified(past + std::time::Duration::from_secs(3600))
            .unwrap();
        assert!(state.drafts().unwrap().is_empty());
        // A save removes the draft; outside the library nothing is written.
        std::fs::File::options().write(true).open(&file).unwrap().set_modified(past).unwrap();
        state.save_draft(SaveFile { path: file.clone(), text: "unsaved".into(), base: None }).unwrap();
        assert_eq!(state.drafts().unwrap().len(), 1);
        state.save_file(SaveFile { path: file.clone(), text: DEMO.into(), base: None }).unwrap();
        assert!(state.drafts().unwrap().is_empty());
        let outside =
            SaveFile { path: tmp.path().join("x/SKILL.md").to_string_lossy().into(), text: "x".into(), base: None };
        assert_eq!(state.save_draft(outside).unwrap_err().code, ErrorCode::OutsideLibrary);
    }

    #[test]
    fn the_last_opened_library_is_remembered_and_reopened() {
        let (tmp, src) = demo_library();
        let file = tmp.path().join("config").join(crate::last::FILE);
        let fallback = Startup { sources: vec![bundled()], agent: "spec".into() };
        let first = AppState::remembering(fallback.clone(), Some(file.clone()));
        assert_eq!(first.startup(), fallback, "the first start opens the bundled library");
        first.open_library(OpenLibrary { sources: vec![src.clone()], agent: "claude-code".into() }).unwrap();
        let next = AppState::remembering(fallback.clone(), Some(file.clone()));
        assert_eq!(next.startup(), Startup { sources: vec![src.clone()], agent: "claude-code".into() });
        // Started on explicit sources: the memory is neither used nor replaced.
        let explicit = AppState::new(fallback.clone());
        explicit.remember_in(file.clone());
        assert_eq!(explicit.startup(), fallback);
        explicit.open_library(OpenLibrary { sources: vec![bundled()], agent: "spec".into() }).unwrap();
        assert_eq!(crate::last::read(&file).unwrap().sources, vec![src]);
    }

    #[test]
    fn save_file_writes_inside_the_opened_library() {
        let tmp = std::env::temp_dir().join(format!("skill-studio-save-{}", std::process::id()));
        std::fs::create_dir_all(tmp.join("a")).unwrap();
        let src = path_string(&tmp);
        let state = AppState::new(Startup { sources: vec![], agent: "spec".into() });
        state.open_library(OpenLibrary { sources: vec![src], agent: "spec".into() }).unwrap();
        let saved = state
            .save_file(SaveFile { path: path_string(&tmp.join("a/SKILL.md")), text: "hi".into(), base: None })
            .unwrap();
        assert_eq!(saved.bytes, 2);
        assert_eq!(std::fs::read_to_string(tmp.join("a/SKILL.md")).unwrap(), "hi");
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    fn opened_on(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf, AppState) {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("skills");
        for (rel, text) in files {
            let p = src.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        let state = AppState::new(Startup { sources: vec![], agent: "spec".into() });
        state.open_library(OpenLibrary { sources: vec![path_string(&src)], agent: "spec".into() }).unwrap();
        (tmp, src, state)
    }

    #[test]
    fn a_save_over_an_external_edit_is_refused_as_a_conflict() {
        let (_tmp, src, state) = opened_on(&[("a/SKILL.md", "---\nname: a\n---\nold\n")]);
        let path = path_string(&src.join("a/SKILL.md"));
        let read = state.read_file(ReadFile { path: path.clone() }).unwrap();
        // Someone else writes the file between the editor's read and its save.
        std::fs::write(src.join("a/SKILL.md"), "---\nname: a\n---\ntheirs\n").unwrap();
        let err = state
            .save_file(SaveFile { path: path.clone(), text: "mine".into(), base: Some(read.version.clone()) })
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::Conflict, "{err:?}");
        assert!(std::fs::read_to_string(src.join("a/SKILL.md")).unwrap().contains("theirs"));
        // Based on the disk's version, the save goes through, and the next is based on its result.
        let disk = state.read_file(ReadFile { path: path.clone() }).unwrap();
        let saved =
            state.save_file(SaveFile { path: path.clone(), text: "mine".into(), base: Some(disk.version) }).unwrap();
        assert_eq!(std::fs::read_to_string(src.join("a/SKILL.md")).unwrap(), "mine");
        state.save_file(SaveFile { path, text: "mine again".into(), base: Some(saved.version) }).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_save_does_not_follow_a_planted_temporary_file_symlink() {
        let (tmp, src, state) = opened_on(&[("a/SKILL.md", "---\nname: a\n---\n")]);
        let outside = tmp.path().join("outside.txt");
        std::fs::write(&outside, "untouched").unwrap();
        // The names the old save used (`.SKILL.md.<pid>-<n>.tmp`) planted as links out.
        for n in 0..100 {
            let name = format!("a/.SKILL.md.{}-{n}.tmp", std::process::id());
            std::os::unix::fs::symlink(&outside, src.join(name)).unwrap();
        }
        let path = path_string(&src.join("a/SKILL.md"));
        state.save_file(SaveFile { path, text: "saved".into(), base: None }).unwrap();
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "untouched");
        assert_eq!(std::fs::read_to_string(src.join("a/SKILL.md")).unwrap(), "saved");
    }

    #[test]
    fn opening_a_library_removes_what_interrupted_saves_left() {
        let (_tmp, src, _state) = opened_on(&[
            ("a/SKILL.md", "---\nname: a\n---\n"),
            ("a/.SKILL.md.0011223344556677.skillkit-tmp", "half a save"),
            ("a/references/.guide.md.8899aabbccddeeff.skillkit-tmp", "half a save"),
            ("a/references/guide.md", "# Guide\n"),
        ]);
        assert!(!src.join("a/.SKILL.md.0011223344556677.skillkit-tmp").exists());
        assert!(!src.join("a/references/.guide.md.8899aabbccddeeff.skillkit-tmp").exists());
        assert!(src.join("a/references/guide.md").exists());
    }
}
