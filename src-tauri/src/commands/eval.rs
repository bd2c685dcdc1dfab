//! The Evals pane: a skill's trigger suite opened, imported and saved inside the opened library,
//! run against a model on the library as saved and, for A/B, with the open skill's unsaved text;
//! the API keys in the system keyring; the provider settings remembered in the config folder.
//! The suite format, the requests, the judging, the counts, the A/B and which key a run uses are
//! the engine's (`skillkit::eval`, `skillkit::model`); this file checks paths and translates.
//!
//! A key is only ever written to the keyring and read back from it for a run (wrapped at once in
//! the engine's `ApiKey`, which prints as `ApiKey(***)`): no reply, file or log line holds it. The
//! UI learns only whether a key is stored and whether the environment has one.

use super::*;
use crate::events::EvalProgress;
use skillkit::eval::suite::{parse_skill_creator, parse_yaml};
use skillkit::eval::{EvalError, Options};
use skillkit::model::{ApiKey, Cancel, KeyOrigin, ProviderConfig, ProviderKind};
use skillkit::scope::{ScopeError, MAX_FILE_BYTES};
use std::sync::Arc;

pub use skillkit::eval::{Case, CaseReport, Report, SkillReport, Suite, Summary, Variant};

/// Where the provider settings are remembered, in the config folder.
pub const SETTINGS_FILE: &str = "eval-settings.json";
/// The keyring service the keys are stored under (one entry per API, named after it).
const KEYRING_SERVICE: &str = "skill-studio";

/// Which API the model is reached through: the engine's kind (`openai`, `anthropic`).
pub use skillkit::model::ProviderKind as ModelApi;

/// How a suite is run, the key aside: remembered in the config folder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ProviderSettings {
    pub api: ModelApi,
    /// Blank: the provider's own API.
    pub base_url: String,
    pub model: String,
    /// `null`: the provider's default.
    pub temperature: Option<f32>,
    /// Times each case is asked (1 to 100).
    pub runs: u32,
    /// Requests in flight at most (1 to 32).
    pub concurrency: u32,
    /// Seconds one request may take.
    pub timeout_secs: u32,
}

impl Default for ProviderSettings {
    fn default() -> ProviderSettings {
        let engine = Options::default();
        ProviderSettings {
            api: ModelApi::OpenAi,
            base_url: String::new(),
            model: String::new(),
            temperature: None,
            runs: engine.runs,
            concurrency: engine.concurrency as u32,
            timeout_secs: 120,
        }
    }
}

/// The open skill's suite.
#[derive(Clone, Debug, Deserialize, TS)]
pub struct OpenSuite {
    /// The skill's `SKILL.md`.
    pub skill: String,
}

/// A skill-creator list (`[{"query", "should_trigger"}]`) to turn into the skill's suite.
#[derive(Clone, Debug, Deserialize, TS)]
pub struct ImportSuite {
    /// The skill's `SKILL.md`.
    pub skill: String,
    /// The skill's name: what the list's `should_trigger: true` queries expect.
    pub name: String,
    /// A JSON file inside the skill's folder.
    pub from: String,
}

/// A skill's suite as the engine reads it.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct SuiteFile {
    /// `<skill folder>/evals/triggers.yaml`.
    pub path: String,
    /// The file exists; otherwise `text` is a new suite (or an import), not saved yet.
    pub exists: bool,
    pub text: String,
    pub suite: Suite,
    /// The file's version on disk, the base of the next save; `null` when there is no file.
    pub version: Option<skillkit::scope::Version>,
}

/// A suite's text in the YAML format.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct SuiteText {
    pub text: String,
}

/// A skill file and the editor's unsaved text of it.
#[derive(Clone, Debug, Deserialize, TS)]
pub struct UnsavedSkill {
    pub path: String,
    pub text: String,
}

#[derive(Clone, Debug, Deserialize, TS)]
pub struct RunEval {
    /// Where the suite is (it need not be saved): its `sources` are relative to its folder.
    pub path: String,
    /// The suite, in the YAML format.
    pub text: String,
    /// The agent whose prompt and skill tools the model sees.
    pub agent: String,
    pub provider: ProviderSettings,
    /// A/B: the suite also runs with this skill's unsaved text in place of the saved one.
    pub compare: Option<UnsavedSkill>,
}

/// Where a run's key came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum KeyUse {
    Keyring,
    Environment,
    /// No key: a local server at an explicit base URL.
    None,
}

/// A run's reports: on the library as saved and, with `compare`, with the unsaved text.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct EvalReply {
    pub saved: Report,
    pub unsaved: Option<Report>,
    pub key: KeyUse,
}

#[derive(Clone, Debug, Deserialize, TS)]
pub struct ApiArg {
    pub api: ModelApi,
}

#[derive(Clone, Deserialize, TS)]
pub struct SetApiKey {
    pub api: ModelApi,
    pub key: String,
}

/// Never prints the key (Tauri's and our own logs see only this).
impl std::fmt::Debug for SetApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SetApiKey {{ api: {:?}, key: *** }}", self.api)
    }
}

/// What the UI may know about an API's key: whether one is stored, not what it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct KeyStatus {
    pub api: ModelApi,
    /// A key is stored in the system keyring.
    pub stored: bool,
    /// The environment variable read when none is stored (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`).
    pub env: String,
    pub env_set: bool,
    /// Why the keyring could not be asked (`stored` is then false).
    pub keyring_error: Option<String>,
}

/// The API keys in the system keyring (the backend is chosen in Cargo.toml). One entry per API,
/// made once and kept: the tests' mock store keeps a key in its entry.
pub struct Keys {
    /// `None`: the platform's store.
    builder: Option<Box<keyring::CredentialBuilder>>,
    entries: Mutex<Vec<(ProviderKind, Arc<keyring::Entry>)>>,
}

fn keyring_error(e: keyring::Error) -> AppError {
    // The errors describe the store, never the secret (`BadEncoding` prints no bytes).
    AppError::new(ErrorCode::Keyring, format!("the system keyring: {e}"))
}

impl Keys {
    /// The platform's keyring.
    pub fn system() -> Keys {
        Keys { builder: None, entries: Mutex::new(vec![]) }
    }

    /// A store made by `builder` (`keyring::mock::default_credential_builder()` in tests).
    pub fn with_builder(builder: Box<keyring::CredentialBuilder>) -> Keys {
        Keys { builder: Some(builder), entries: Mutex::new(vec![]) }
    }

    fn entry(&self, kind: ProviderKind) -> Result<Arc<keyring::Entry>, AppError> {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, e)) = entries.iter().find(|(k, _)| *k == kind) {
            return Ok(Arc::clone(e));
        }
        let entry = match &self.builder {
            Some(b) => {
                keyring::Entry::new_with_credential(b.build(None, KEYRING_SERVICE, kind.name()).map_err(keyring_error)?)
            }
            None => keyring::Entry::new(KEYRING_SERVICE, kind.name()).map_err(keyring_error)?,
        };
        let entry = Arc::new(entry);
        entries.push((kind, Arc::clone(&entry)));
        Ok(entry)
    }

    /// The stored key, if there is one.
    fn get(&self, kind: ProviderKind) -> Result<Option<ApiKey>, AppError> {
        match self.entry(kind)?.get_password() {
            Ok(key) => Ok(Some(ApiKey::new(key))),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(keyring_error(e)),
        }
    }

    fn set(&self, kind: ProviderKind, key: &str) -> Result<(), AppError> {
        self.entry(kind)?.set_password(key).map_err(keyring_error)
    }

    fn forget(&self, kind: ProviderKind) -> Result<(), AppError> {
        match self.entry(kind)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(keyring_error(e)),
        }
    }
}

/// Receives each progress step of the eval in flight.
pub type Progress = Arc<dyn Fn(EvalProgress) + Send + Sync>;

/// The shell's eval state: the keys, the run in flight, where settings and progress go.
pub struct EvalState {
    pub keys: Keys,
    running: Mutex<Option<Cancel>>,
    progress: Mutex<Option<Progress>>,
    settings: Mutex<Option<PathBuf>>,
}

impl Default for EvalState {
    fn default() -> EvalState {
        EvalState {
            keys: Keys::system(),
            running: Mutex::new(None),
            progress: Mutex::new(None),
            settings: Mutex::new(None),
        }
    }
}

impl EvalState {
    /// Sends each run's progress to `progress` (the window's event).
    pub fn notify_with(&self, progress: Progress) {
        *self.progress.lock().unwrap_or_else(|e| e.into_inner()) = Some(progress);
    }

    /// Remembers the provider settings in `file` (in the config folder, known once the app runs).
    pub fn remember_in(&self, file: PathBuf) {
        *self.settings.lock().unwrap_or_else(|e| e.into_inner()) = Some(file);
    }

    fn settings_file(&self) -> Option<PathBuf> {
        self.settings.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The token of a new run; `busy` while another runs. The run ends when the token drops.
    fn start(&self) -> Result<Running<'_>, AppError> {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if running.is_some() {
            return Err(AppError::new(ErrorCode::Busy, "an eval is already running: cancel it or wait for its report"));
        }
        let cancel = Cancel::new();
        *running = Some(cancel.clone());
        Ok(Running { state: self, cancel })
    }
}

/// The run in flight; dropping it (the run is over, however it ended) frees the slot.
struct Running<'a> {
    state: &'a EvalState,
    cancel: Cancel,
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        *self.state.running.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

fn invalid_suite(path: &str, errors: Vec<skillkit::session::script::ScriptError>) -> AppError {
    AppError::located(
        ErrorCode::InvalidSuite,
        format!("{path}: {} in the eval suite", crate::error::mistakes(errors.len())),
        errors,
    )
}

fn from_eval(e: EvalError) -> AppError {
    let code = match &e {
        EvalError::NoActivation { .. } => ErrorCode::NoSkillTool,
        EvalError::NoPrompt { .. } => ErrorCode::NoPrompt,
        EvalError::Provider { .. } => ErrorCode::Provider,
        EvalError::NotInLibrary { .. } => ErrorCode::InvalidSuite,
    };
    AppError::new(code, e.to_string())
}

fn invalid_settings(message: &str) -> AppError {
    AppError::new(ErrorCode::InvalidSettings, message)
}

impl AppState {
    /// The skill file `skill` (inside the opened library), its folder and the opened source
    /// holding it.
    fn skill_and_source(&self, skill: &str) -> Result<(PathBuf, PathBuf), AppError> {
        let file = self.check_path(skill)?;
        if !is_skill_file(&file) {
            return Err(AppError::new(ErrorCode::NotASkillFile, format!("{skill} is not a SKILL.md")));
        }
        let dir = file.parent().unwrap_or(Path::new("/")).to_path_buf();
        let source = self.kept.sources().into_iter().filter(|s| dir.starts_with(s)).max_by_key(|s| s.as_os_str().len());
        let source = source
            .ok_or_else(|| AppError::new(ErrorCode::OutsideLibrary, format!("{skill} is in no opened source")))?;
        Ok((dir, source))
    }

    /// The skill's suite (`<skill folder>/evals/triggers.yaml`), or a new one naming the skill's
    /// source when there is no file yet.
    pub fn open_suite(&self, args: OpenSuite) -> Result<SuiteFile, AppError> {
        let (dir, source) = self.skill_and_source(&args.skill)?;
        let (path, fresh) = Suite::for_skill(&dir, &source);
        let shown = path_string(&path);
        match self.scope().engine().read_text(&path) {
            Ok((text, version)) => {
                let suite = parse_yaml(&text).map_err(|e| invalid_suite(&shown, e))?;
                Ok(SuiteFile { path: shown, exists: true, text, suite, version: Some(version) })
            }
            Err(ScopeError::Missing { .. }) => {
                Ok(SuiteFile { path: shown, exists: false, text: fresh.to_yaml(), suite: fresh, version: None })
            }
            Err(e) => Err(e.into()),
        }
    }

    /// A skill-creator list of the skill's folder as the skill's suite (not saved yet; an
    /// existing suite file is replaced by the next save).
    pub fn import_suite(&self, args: ImportSuite) -> Result<SuiteFile, AppError> {
        let (dir, source) = self.skill_and_source(&args.skill)?;
        let from = self.check_path(&args.from)?;
        if !from.starts_with(&dir) {
            return Err(AppError::new(
                ErrorCode::OutsideLibrary,
                format!("{}: pick a JSON file of the skill's folder", args.from),
            ));
        }
        if args.name.trim().is_empty() {
            return Err(AppError::new(ErrorCode::InvalidSuite, "the skill's name is empty"));
        }
        let (text, _) = self.scope().read_text(&from)?;
        let imported = parse_skill_creator(&text, Some(args.name.trim())).map_err(|e| invalid_suite(&args.from, e))?;
        let (path, mut suite) = Suite::for_skill(&dir, &source);
        suite.cases = imported.cases;
        let version = self.scope().engine().version(&path, MAX_FILE_BYTES)?;
        Ok(SuiteFile { path: path_string(&path), exists: version.is_some(), text: suite.to_yaml(), suite, version })
    }

    /// The suite as YAML text (the table's edits), checked to read back as the same suite.
    pub fn suite_yaml(&self, suite: Suite) -> Result<SuiteText, AppError> {
        let text = suite.to_yaml();
        match parse_yaml(&text) {
            Ok(back) if back == suite => Ok(SuiteText { text }),
            Ok(_) => {
                Err(AppError::new(ErrorCode::InvalidSuite, "an `expect` with spaces around it does not read back"))
            }
            Err(e) => Err(invalid_suite("the suite", e)),
        }
    }

    /// Saves a suite (YAML that the engine reads without a mistake) inside the opened library,
    /// creating its folder (`evals/`) when needed.
    pub fn save_suite(&self, args: SaveFile) -> Result<Saved, AppError> {
        let given = Path::new(&args.path);
        if given.extension().and_then(|e| e.to_str()).is_none_or(|e| e != "yaml" && e != "yml") {
            return Err(AppError::new(
                ErrorCode::InvalidSuite,
                format!("{}: a suite ends in .yaml or .yml", args.path),
            ));
        }
        parse_yaml(&args.text).map_err(|e| invalid_suite(&args.path, e))?;
        if let Some(dir) = given.parent().filter(|d| !d.exists()) {
            self.scope().engine().create_dir(dir)?;
        }
        self.save_file(args)
    }

    /// Runs the suite (and, for A/B, again with the unsaved text); `eval-progress` events follow
    /// it, and `cancel_eval` stops it with the completed runs reported.
    pub fn run_eval(&self, args: RunEval) -> Result<EvalReply, AppError> {
        let agent = agent(&args.agent)?;
        let suite = parse_yaml(&args.text).map_err(|e| invalid_suite(&args.path, e))?;
        let (config, key) = self.provider_config(&args.provider)?;
        self.remember_eval_settings(args.provider.clone())?;
        // The sources, relative to the suite (whose folder may not exist yet), must be the opened
        // library's; a suite naming none runs on the opened library.
        let dir = skillkit::scope::resolve_lenient(skillkit::session::script::folder_of(Path::new(&args.path)));
        let mut sources: Vec<PathBuf> =
            suite.source_paths(&dir).iter().map(|s| skillkit::scope::resolve_lenient(s)).collect();
        if sources.is_empty() {
            sources = self.kept.sources();
        }
        self.check_folders(&sources)?;
        let compare = match args.compare {
            Some(c) => Some((self.check_path(&c.path)?, c.text)),
            None => None,
        };
        let library = Library::open(&sources, agent);
        let provider = skillkit::model::provider(&config);
        let options = Options { runs: args.provider.runs, concurrency: args.provider.concurrency as usize };
        let running = self.evals.start()?;
        let notify = self.evals.progress.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let progress = |variant: Variant, done: usize, total: usize| {
            if let Some(n) = &notify {
                n(EvalProgress { done: done as u32, total: total as u32, variant });
            }
        };
        let (saved, unsaved) = match compare {
            Some((path, text)) => {
                let c = skillkit::eval::compare(
                    agent,
                    &library,
                    &path,
                    &text,
                    &suite,
                    provider.as_ref(),
                    &config,
                    &options,
                    &running.cancel,
                    &progress,
                )
                .map_err(from_eval)?;
                (c.saved, Some(c.unsaved))
            }
            None => {
                let saved = skillkit::eval::run_library(
                    agent,
                    &library,
                    &suite,
                    provider.as_ref(),
                    &config,
                    &options,
                    &running.cancel,
                    &|done, total| progress(Variant::Saved, done, total),
                )
                .map_err(from_eval)?;
                (saved, None)
            }
        };
        Ok(EvalReply { saved, unsaved, key })
    }

    /// Cancels the eval in flight (its requests on the wire finish; the report then says
    /// `cancelled`). Nothing happens when none runs.
    pub fn cancel_eval(&self) -> Result<(), AppError> {
        if let Some(c) = self.evals.running.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            c.cancel();
        }
        Ok(())
    }

    /// The engine's provider config for the settings, with the key the engine's rule picks: the
    /// keyring's, else the environment's, else none (only with an explicit base URL).
    pub(super) fn provider_config(&self, s: &ProviderSettings) -> Result<(ProviderConfig, KeyUse), AppError> {
        if s.model.trim().is_empty() {
            return Err(invalid_settings("name the model (e.g. gpt-4o-mini, claude-sonnet-4-5, llama3.2)"));
        }
        if !(1..=100).contains(&s.runs) {
            return Err(invalid_settings("runs per case: 1 to 100"));
        }
        if !(1..=32).contains(&s.concurrency) {
            return Err(invalid_settings("requests at once: 1 to 32"));
        }
        if s.temperature.is_some_and(|t| !(0.0..=2.0).contains(&t)) {
            return Err(invalid_settings("temperature: 0 to 2, or blank for the provider's default"));
        }
        let base = Some(s.base_url.trim()).filter(|u| !u.is_empty());
        if base.is_some_and(|u| !u.starts_with("http://") && !u.starts_with("https://")) {
            return Err(invalid_settings("the base URL starts with http:// or https://"));
        }
        let kind = s.api;
        let (stored, trouble) = match self.evals.keys.get(kind) {
            Ok(key) => (key, None),
            Err(e) => (None, Some(e.message)),
        };
        let (key, origin) = skillkit::model::choose_key(stored, kind.key_env(), base).map_err(|e| {
            let why = trouble.map(|t| format!(" ({t})")).unwrap_or_default();
            AppError::new(
                ErrorCode::NoKey,
                format!("no API key for {kind}: store one, set {}, or give the base URL of a local server{why}", e.env),
            )
        })?;
        let mut config = ProviderConfig::new(kind, s.model.trim());
        config.base_url = base.map(str::to_string);
        config.temperature = s.temperature;
        config.timeout = std::time::Duration::from_secs(u64::from(s.timeout_secs.max(1)));
        config.api_key = key;
        let key = match origin {
            KeyOrigin::Stored => KeyUse::Keyring,
            KeyOrigin::Env => KeyUse::Environment,
            KeyOrigin::None => KeyUse::None,
        };
        Ok((config, key))
    }

    /// The remembered provider settings (the defaults for what the file lacks).
    pub fn eval_settings(&self) -> Result<ProviderSettings, AppError> {
        let Some(file) = self.evals.settings_file() else { return Ok(ProviderSettings::default()) };
        let Ok(text) = skillkit::files::read_text(&file, 1 << 20) else { return Ok(ProviderSettings::default()) };
        let mut merged = serde_json::to_value(ProviderSettings::default()).unwrap_or_default();
        if let (Some(m), Ok(serde_json::Value::Object(saved))) = (merged.as_object_mut(), serde_json::from_str(&text)) {
            m.extend(saved);
        }
        Ok(serde_json::from_value(merged).unwrap_or_else(|e| {
            eprintln!("skill-studio: ignoring {}: {e}", file.display());
            ProviderSettings::default()
        }))
    }

    /// Remembers the provider settings (they hold no key).
    pub fn remember_eval_settings(&self, settings: ProviderSettings) -> Result<(), AppError> {
        let Some(file) = self.evals.settings_file() else { return Ok(()) };
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| AppError::io("cannot create", dir, &e))?;
        }
        let text =
            serde_json::to_string_pretty(&settings).map_err(|e| AppError::new(ErrorCode::Internal, e.to_string()))?;
        crate::files::write_own(&file, &text)
    }

    fn key_status(&self, api: ModelApi) -> KeyStatus {
        let kind = api;
        let (stored, keyring_error) = match self.evals.keys.get(kind) {
            Ok(key) => (key.is_some(), None),
            Err(e) => (false, Some(e.message)),
        };
        let env_set = ApiKey::from_env(kind.key_env()).is_some();
        KeyStatus { api, stored, env: kind.key_env().into(), env_set, keyring_error }
    }

    /// Whether each API has a key stored or in the environment (never the keys).
    pub fn api_keys(&self) -> Result<Vec<KeyStatus>, AppError> {
        Ok([ModelApi::OpenAi, ModelApi::Anthropic].into_iter().map(|a| self.key_status(a)).collect())
    }

    /// Stores the key in the system keyring (surrounding whitespace, such as a pasted newline,
    /// trimmed).
    pub fn set_api_key(&self, args: SetApiKey) -> Result<KeyStatus, AppError> {
        let key = args.key.trim();
        if key.is_empty() {
            return Err(invalid_settings("the key is empty"));
        }
        self.evals.keys.set(args.api, key)?;
        Ok(self.key_status(args.api))
    }

    /// Removes the stored key (the environment's, if any, is used from then on).
    pub fn forget_api_key(&self, args: ApiArg) -> Result<KeyStatus, AppError> {
        self.evals.keys.forget(args.api)?;
        Ok(self.key_status(args.api))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mock_provider::{Fault, MockServer, Reply, Rule, Script};
    use serde_json::json;
    use std::sync::mpsc;

    const KEY: &str = "sk-never-shown-7f3a";

    fn skill(name: &str, description: &str) -> String {
        format!("---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nSteps.\n")
    }

    /// A library of two skills, opened, with the mock keyring; the state remembers its settings
    /// in the temporary folder.
    fn opened() -> (tempfile::TempDir, PathBuf, AppState) {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("skills");
        for (name, description) in
            [("pdf", "Reads PDF files. Use for PDF files."), ("csv", "Turns CSV files into tables.")]
        {
            std::fs::create_dir_all(src.join(name)).unwrap();
            std::fs::write(src.join(name).join("SKILL.md"), skill(name, description)).unwrap();
        }
        let src = src.canonicalize().unwrap();
        let mut state = AppState::new(Startup { sources: vec![], agent: "spec".into(), examples: None });
        state.evals.keys = Keys::with_builder(keyring::mock::default_credential_builder());
        state.evals.remember_in(tmp.path().join("config").join(SETTINGS_FILE));
        state.open_library(OpenLibrary { sources: vec![path_string(&src)], agent: "spec".into() }).unwrap();
        (tmp, src, state)
    }

    fn skill_path(src: &Path, name: &str) -> String {
        path_string(&src.join(name).join("SKILL.md"))
    }

    fn rule(contains: &str, context: Option<&str>, replies: Vec<Reply>) -> Rule {
        Rule { contains: Some(contains.into()), context: context.map(str::to_string), replies, ..Rule::default() }
    }

    fn call(skill: &str) -> Reply {
        Reply::tool("Skill", json!({ "skill": skill }))
    }

    fn settings(server: &MockServer) -> ProviderSettings {
        ProviderSettings { base_url: server.base_url(), model: "mock-model".into(), ..ProviderSettings::default() }
    }

    /// The pdf skill's suite, made from scratch and saved as the pane does it.
    fn saved_suite(state: &AppState, src: &Path, cases: &[(&str, &str, &str)]) -> SuiteFile {
        let fresh = state.open_suite(OpenSuite { skill: skill_path(src, "pdf") }).unwrap();
        assert!(!fresh.exists);
        let mut suite = fresh.suite.clone();
        suite.agent = Some("claude-code".into());
        suite.cases = cases
            .iter()
            .map(|(id, query, expect)| Case {
                id: id.to_string(),
                query: query.to_string(),
                expect: expect.to_string(),
            })
            .collect();
        let text = state.suite_yaml(suite).unwrap().text;
        state.save_suite(SaveFile { path: fresh.path.clone(), text, base: None }).unwrap();
        let file = state.open_suite(OpenSuite { skill: skill_path(src, "pdf") }).unwrap();
        assert!(file.exists);
        file
    }

    fn run(
        state: &AppState,
        file: &SuiteFile,
        provider: ProviderSettings,
        compare: Option<UnsavedSkill>,
    ) -> Result<EvalReply, AppError> {
        state.run_eval(RunEval {
            path: file.path.clone(),
            text: file.text.clone(),
            agent: "claude-code".into(),
            provider,
            compare,
        })
    }

    fn progress_channel(state: &AppState) -> mpsc::Receiver<EvalProgress> {
        let (tx, rx) = mpsc::channel();
        let tx = Mutex::new(tx);
        state.evals.notify_with(Arc::new(move |p| {
            let _ = tx.lock().unwrap().send(p);
        }));
        rx
    }

    fn activated(r: &Report) -> Vec<(String, Vec<(String, u32)>)> {
        r.cases.iter().map(|c| (c.id.clone(), c.activated.iter().map(|(k, v)| (k.clone(), *v)).collect())).collect()
    }

    #[test]
    fn a_run_against_the_mock_gives_the_counts_its_script_implies_with_the_stored_key() {
        let (_tmp, src, state) = opened();
        let file = saved_suite(
            &state,
            &src,
            &[
                ("pdf-tables", "Pull the tables out of report.pdf", "pdf"),
                ("csv", "Make a table from data.csv", "csv"),
                ("weather", "What is the weather like?", "none"),
            ],
        );
        assert_eq!(file.suite.sources, ["../.."]);
        // pdf: 2 of 3 runs; csv: always; weather: never. The mock refuses requests without the key.
        let server = MockServer::start(Script {
            rules: vec![
                rule("report.pdf", None, vec![call("pdf"), Reply::text("Sure."), call("pdf")]),
                rule("data.csv", None, vec![call("csv")]),
                rule("weather", None, vec![Reply::text("Sunny.")]),
            ],
            api_key: Some(KEY.into()),
            ..Script::default()
        });
        assert!(!state.api_keys().unwrap()[0].stored);
        let status = state.set_api_key(SetApiKey { api: ModelApi::OpenAi, key: format!("  {KEY}\n") }).unwrap();
        assert!(status.stored && status.env == "OPENAI_API_KEY");
        let progress = progress_channel(&state);
        let reply = run(&state, &file, settings(&server), None).unwrap();
        assert_eq!(reply.key, KeyUse::Keyring);
        assert!(reply.unsaved.is_none());
        let r = &reply.saved;
        assert_eq!(
            activated(r),
            [
                ("pdf-tables".into(), vec![("none".into(), 1), ("pdf".into(), 2)]),
                ("csv".into(), vec![("csv".into(), 3)]),
                ("weather".into(), vec![("none".into(), 3)]),
            ]
        );
        assert_eq!(r.cases.iter().map(|c| c.pass).collect::<Vec<_>>(), [true, true, true]);
        assert_eq!((r.cases[0].rate, r.summary.requests, r.cancelled), (0.6667, 9, false));
        assert_eq!(
            (r.agent.as_str(), r.provider.as_str(), r.model.as_str(), r.runs),
            ("claude-code", "openai", "mock-model", 3)
        );
        assert_eq!(server.requests().len(), 9);
        let events: Vec<EvalProgress> = progress.try_iter().collect();
        assert_eq!(events.len(), 9);
        assert!(events.iter().all(|e| e.total == 9 && e.variant == Variant::Saved));
        assert_eq!(events.iter().map(|e| e.done).max(), Some(9));
        // The settings are remembered (without the key); the run slot is free again.
        assert_eq!(state.eval_settings().unwrap(), settings(&server));
        assert!(run(&state, &file, settings(&server), None).is_ok());
    }

    #[test]
    fn a_b_runs_the_saved_library_and_the_unsaved_description() {
        let (_tmp, src, state) = opened();
        let file = saved_suite(&state, &src, &[("tables", "Pull the tables out of report.pdf", "pdf")]);
        // The model picks pdf only when the prompt describes it as extracting tables.
        let server = MockServer::start(Script {
            rules: vec![
                rule("tables", Some("Extracts tables from PDF files"), vec![call("pdf")]),
                rule("tables", None, vec![Reply::text("I cannot read PDFs.")]),
            ],
            ..Script::default()
        });
        let progress = progress_channel(&state);
        let pdf = skill_path(&src, "pdf");
        let typed = skill("pdf", "Extracts tables from PDF files. Use for PDF files.");
        let compare = UnsavedSkill { path: pdf.clone(), text: typed.clone() };
        let reply = run(&state, &file, settings(&server), Some(compare)).unwrap();
        assert_eq!(reply.key, KeyUse::None, "a local server at an explicit base URL needs no key");
        let unsaved = reply.unsaved.unwrap();
        assert_eq!(activated(&reply.saved), [("tables".into(), vec![("none".into(), 3)])]);
        assert_eq!(activated(&unsaved), [("tables".into(), vec![("pdf".into(), 3)])]);
        assert!(!reply.saved.cases[0].pass && unsaved.cases[0].pass);
        let variants: Vec<Variant> = progress.try_iter().map(|e| e.variant).collect();
        assert_eq!(variants, [[Variant::Saved; 3], [Variant::Unsaved; 3]].concat());
        // The file on disk is untouched.
        assert!(std::fs::read_to_string(&pdf).unwrap().contains("Reads PDF files."));
        // A skill the suite's sources do not hold cannot be compared.
        let mut narrow = file.clone();
        narrow.text = narrow.text.replace("\"../..\"", "\"../../csv\"");
        let err = run(&state, &narrow, settings(&server), Some(UnsavedSkill { path: pdf, text: typed })).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidSuite, "{err:?}");
        assert!(err.message.contains("is not a skill of the suite's sources"), "{}", err.message);
    }

    #[test]
    fn cancel_stops_the_run_with_the_completed_runs_reported() {
        let (_tmp, src, state) = opened();
        let cases: Vec<(String, String)> = (1..=5).map(|i| (format!("c{i}"), format!("read the pdf {i}"))).collect();
        let cases: Vec<(&str, &str, &str)> = cases.iter().map(|(id, q)| (id.as_str(), q.as_str(), "pdf")).collect();
        let file = saved_suite(&state, &src, &cases);
        let slow = Rule {
            fault: Some(Fault { delay_ms: Some(200), ..Fault::default() }),
            ..rule("pdf", None, vec![call("pdf")])
        };
        let server = MockServer::start(Script { rules: vec![slow], ..Script::default() });
        let progress = progress_channel(&state);
        let provider = ProviderSettings { runs: 4, concurrency: 1, ..settings(&server) };
        std::thread::scope(|s| {
            let running = s.spawn(|| run(&state, &file, provider.clone(), None));
            // Once a request has completed, the run is in flight: another is refused, then cancel.
            let first = progress.recv_timeout(std::time::Duration::from_secs(60)).expect("a first request completes");
            assert_eq!((first.done, first.total), (1, 20));
            assert_eq!(run(&state, &file, provider.clone(), None).unwrap_err().code, ErrorCode::Busy);
            state.cancel_eval().unwrap();
            let report = running.join().unwrap().unwrap().saved;
            assert!(report.cancelled);
            assert!((1..20).contains(&report.summary.requests), "{}", report.summary.requests);
            assert_eq!(report.cases.iter().map(|c| c.runs as u64).sum::<u64>(), report.summary.requests);
        });
        // Nothing runs now: cancelling is a no-op, and the next run completes.
        state.cancel_eval().unwrap();
        let quick = ProviderSettings { runs: 1, concurrency: 4, ..settings(&server) };
        assert!(!run(&state, &file, quick, None).unwrap().saved.cancelled);
    }

    #[test]
    fn the_key_is_in_no_reply_no_file_and_no_debug_output() {
        let (tmp, src, state) = opened();
        let file = saved_suite(&state, &src, &[("a", "Pull the tables out of report.pdf", "pdf")]);
        let server =
            MockServer::start(Script { default: Some(call("pdf")), api_key: Some(KEY.into()), ..Script::default() });
        let mut replies = vec![];
        let args = SetApiKey { api: ModelApi::OpenAi, key: KEY.into() };
        assert!(!format!("{args:?}").contains(KEY));
        replies.push(serde_json::to_string(&state.set_api_key(args).unwrap()).unwrap());
        replies.push(serde_json::to_string(&state.api_keys().unwrap()).unwrap());
        let ok = run(&state, &file, settings(&server), None).unwrap();
        assert_eq!(ok.saved.cases[0].activated.get("pdf"), Some(&3));
        replies.push(serde_json::to_string(&ok).unwrap());
        // A key the server refuses: the provider's error names no key.
        state.set_api_key(SetApiKey { api: ModelApi::OpenAi, key: format!("{KEY}-wrong") }).unwrap();
        let refused = run(&state, &file, settings(&server), None).unwrap_err();
        assert_eq!(refused.code, ErrorCode::Provider, "{refused:?}");
        replies.push(serde_json::to_string(&refused).unwrap());
        replies.push(serde_json::to_string(&state.eval_settings().unwrap()).unwrap());
        let forgotten = state.forget_api_key(ApiArg { api: ModelApi::OpenAi }).unwrap();
        assert!(!forgotten.stored);
        replies.push(serde_json::to_string(&forgotten).unwrap());
        assert!(state.forget_api_key(ApiArg { api: ModelApi::OpenAi }).is_ok(), "forgetting twice is fine");
        for r in &replies {
            assert!(!r.contains(KEY), "{r}");
        }
        // No file written anywhere holds it (the suite, the settings).
        fn files(dir: &Path, out: &mut Vec<PathBuf>) {
            for e in std::fs::read_dir(dir).unwrap().flatten() {
                if e.path().is_dir() {
                    files(&e.path(), out)
                } else {
                    out.push(e.path())
                }
            }
        }
        let mut all = vec![];
        files(tmp.path(), &mut all);
        assert!(all.iter().any(|f| f.ends_with(SETTINGS_FILE)), "{all:?}");
        for f in all {
            assert!(!std::fs::read_to_string(&f).unwrap_or_default().contains(KEY), "{}", f.display());
        }
        // The request carried it (the mock accepted it) and the mock's record masks it.
        assert!(server.requests().iter().all(|r| r.header("authorization") == Some("***")));
        // Without a stored key, the environment's or none: the provider's own API needs one.
        let own = ProviderSettings { base_url: String::new(), ..settings(&server) };
        if std::env::var_os("OPENAI_API_KEY").is_none() {
            let err = run(&state, &file, own, None).unwrap_err();
            assert_eq!(err.code, ErrorCode::NoKey);
            assert!(err.message.contains("set OPENAI_API_KEY"), "{}", err.message);
        }
        assert!(state.set_api_key(SetApiKey { api: ModelApi::Anthropic, key: " \n".into() }).is_err());
    }

    #[test]
    fn suites_are_created_imported_and_saved_inside_the_library_only() {
        let (tmp, src, state) = opened();
        let pdf = skill_path(&src, "pdf");
        let fresh = state.open_suite(OpenSuite { skill: pdf.clone() }).unwrap();
        assert_eq!(fresh.path, path_string(&src.join("pdf/evals/triggers.yaml")));
        assert!(!fresh.exists && fresh.version.is_none() && fresh.suite.cases.is_empty());
        assert_eq!(skillkit::eval::suite::parse_yaml(&fresh.text), Ok(fresh.suite.clone()));
        // skill-creator's list, from the skill's folder.
        std::fs::create_dir_all(src.join("pdf/evals")).unwrap();
        let list = r#"[{"query": "Pull the tables out of report.pdf", "should_trigger": true}, {"query": "Hi", "should_trigger": false}]"#;
        std::fs::write(src.join("pdf/evals/evals.json"), list).unwrap();
        let from = path_string(&src.join("pdf/evals/evals.json"));
        let imported =
            state.import_suite(ImportSuite { skill: pdf.clone(), name: "pdf".into(), from: from.clone() }).unwrap();
        assert_eq!(imported.path, fresh.path);
        assert_eq!(imported.suite.cases.iter().map(|c| c.expect.as_str()).collect::<Vec<_>>(), ["pdf", "none"]);
        assert_eq!(imported.suite.sources, ["../.."]);
        state.save_suite(SaveFile { path: imported.path.clone(), text: imported.text.clone(), base: None }).unwrap();
        let reopened = state.open_suite(OpenSuite { skill: pdf.clone() }).unwrap();
        assert_eq!((reopened.exists, &reopened.suite), (true, &imported.suite));
        // A stale base is a conflict; mistakes are located; nothing outside is read or written.
        std::fs::write(src.join("pdf/evals/triggers.yaml"), format!("{}\n", imported.text)).unwrap();
        let stale =
            SaveFile { path: reopened.path.clone(), text: reopened.text.clone(), base: reopened.version.clone() };
        assert_eq!(state.save_suite(stale).unwrap_err().code, ErrorCode::Conflict);
        let bad = state.save_suite(SaveFile {
            path: reopened.path.clone(),
            text: "cases:\n  - query: q\n".into(),
            base: None,
        });
        let bad = bad.unwrap_err();
        assert_eq!((bad.code, bad.details[0].line), (ErrorCode::InvalidSuite, 2));
        let not_yaml =
            SaveFile { path: path_string(&src.join("pdf/evals/x.json")), text: reopened.text.clone(), base: None };
        assert_eq!(state.save_suite(not_yaml).unwrap_err().code, ErrorCode::InvalidSuite);
        let outside =
            SaveFile { path: path_string(&tmp.path().join("evals/t.yaml")), text: reopened.text.clone(), base: None };
        assert_eq!(state.save_suite(outside).unwrap_err().code, ErrorCode::OutsideLibrary);
        assert!(!tmp.path().join("evals").exists());
        std::fs::write(tmp.path().join("list.json"), list).unwrap();
        let far =
            ImportSuite { skill: pdf.clone(), name: "pdf".into(), from: path_string(&tmp.path().join("list.json")) };
        assert_eq!(state.import_suite(far).unwrap_err().code, ErrorCode::OutsideLibrary);
        let other_skill = ImportSuite { skill: skill_path(&src, "csv"), name: "csv".into(), from };
        assert_eq!(state.import_suite(other_skill).unwrap_err().code, ErrorCode::OutsideLibrary);
        std::fs::write(src.join("pdf/evals/bad.json"), r#"{"skill_name": "pdf"}"#).unwrap();
        let wrong =
            ImportSuite { skill: pdf.clone(), name: "pdf".into(), from: path_string(&src.join("pdf/evals/bad.json")) };
        assert_eq!(state.import_suite(wrong).unwrap_err().code, ErrorCode::InvalidSuite);
        assert_eq!(
            state.open_suite(OpenSuite { skill: path_string(&src.join("pdf/README.md")) }).unwrap_err().code,
            ErrorCode::NotASkillFile
        );
        // The table's edits: an empty query or a repeated id is the engine's located mistake.
        let mut suite = reopened.suite.clone();
        suite.cases[1].query = "  ".into();
        assert_eq!(state.suite_yaml(suite.clone()).unwrap_err().code, ErrorCode::InvalidSuite);
        suite.cases[1].query = "Hello".into();
        suite.cases[1].id = suite.cases[0].id.clone();
        let twice = state.suite_yaml(suite).unwrap_err();
        assert!(twice.details[0].message.contains("used twice"), "{twice:?}");
    }

    #[test]
    fn bad_settings_agents_and_sources_get_clear_errors() {
        let (_tmp, src, state) = opened();
        let file = saved_suite(&state, &src, &[("a", "Pull the tables out of report.pdf", "pdf")]);
        let server = MockServer::start(Script { default: Some(call("pdf")), ..Script::default() });
        let good = settings(&server);
        let code = |provider: ProviderSettings| run(&state, &file, provider, None).unwrap_err().code;
        assert_eq!(code(ProviderSettings { model: " ".into(), ..good.clone() }), ErrorCode::InvalidSettings);
        assert_eq!(code(ProviderSettings { runs: 0, ..good.clone() }), ErrorCode::InvalidSettings);
        assert_eq!(code(ProviderSettings { concurrency: 1000, ..good.clone() }), ErrorCode::InvalidSettings);
        assert_eq!(code(ProviderSettings { temperature: Some(f32::NAN), ..good.clone() }), ErrorCode::InvalidSettings);
        assert_eq!(code(ProviderSettings { base_url: "ftp://x".into(), ..good.clone() }), ErrorCode::InvalidSettings);
        let with_agent = |agent: &str, text: &str| {
            state.run_eval(RunEval {
                path: file.path.clone(),
                text: text.into(),
                agent: agent.into(),
                provider: good.clone(),
                compare: None,
            })
        };
        assert_eq!(with_agent("agentskills", &file.text).unwrap_err().code, ErrorCode::NoSkillTool);
        assert_eq!(with_agent("nobody", &file.text).unwrap_err().code, ErrorCode::UnknownAgent);
        assert_eq!(with_agent("claude-code", "cases: [").unwrap_err().code, ErrorCode::InvalidSuite);
        let escape = file.text.replace("\"../..\"", "\"../../..\"");
        assert_eq!(with_agent("claude-code", &escape).unwrap_err().code, ErrorCode::OutsideLibrary);
        // A suite not saved yet, in a folder that does not exist yet, runs on its sources.
        let csv = state.open_suite(OpenSuite { skill: skill_path(&src, "csv") }).unwrap();
        let text =
            csv.text.replace("cases: []", "cases:\n  - {id: a, query: Pull the tables out of report.pdf, expect: pdf}");
        let reply =
            state.run_eval(RunEval { path: csv.path, text, agent: "codex".into(), provider: good, compare: None });
        assert_eq!(reply.unwrap().saved.summary.requests, 3);
        assert!(server.requests().len() >= 3);
    }

    #[test]
    fn a_live_session_turn_loads_a_skill_through_the_model_and_returns_its_steps() {
        let (_tmp, src, state) = opened();
        let server = MockServer::start(Script {
            rules: vec![rule(
                "PDF",
                None,
                vec![Reply::tool("load_skill", json!({"skill_name": "pdf"})), Reply::text("Done.")],
            )],
            ..Script::default()
        });
        let session = RunSession {
            sources: vec![path_string(&src)],
            agent: "deepagents-v2".into(),
            settings: SessionSettings::default(),
            steps: vec![Step::User { text: "Read this PDF for me".into() }],
        };
        let live =
            state.run_session_live(RunSessionLive { session: session.clone(), provider: settings(&server) }).unwrap();
        assert_eq!(live.error, None);
        let actions: Vec<String> = live
            .view
            .turns
            .iter()
            .map(|t| serde_json::to_value(&t.step).unwrap()["action"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(actions, ["user", "model", "load", "model"]);
        assert_eq!(live.view.loaded, ["pdf"]);
        assert_eq!(server.requests().len(), 2);
        // The returned steps replay without the model.
        let replay = state.run_session(RunSession { steps: live.steps.clone(), ..session }).unwrap();
        assert_eq!(replay, live.view);
        assert_eq!(server.requests().len(), 2);
    }
}
