//! The Evals pane: a skill's trigger suite opened, imported and saved inside the opened library,
//! run against a model on the library as saved and, for A/B, with the open skill's unsaved text.
//! The suite format, the requests, the judging, the counts, the A/B and which key a run uses are
//! the engine's (`skillkit::eval`, `skillkit::model`); the settings are checked by
//! [`ProviderSettings::check`]; this file checks paths and translates.

use crate::events::EvalProgress;
use crate::prelude::*;
use crate::settings::ProviderSettings;
use crate::studio::provider::KeyUse;
use crate::studio::source_files::{SaveFile, Saved};
use skillkit::eval::suite::{parse_skill_creator, parse_yaml};
use skillkit::eval::EvalError;
use skillkit::scope::{ScopeError, MAX_FILE_BYTES};

pub use skillkit::eval::{Case, CaseReport, Confusion, Report, SkillReport, Suite, Summary, Variant};

/// The open skill's suite.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OpenSuite {
    /// The skill's `SKILL.md`.
    pub skill: String,
}

/// A skill-creator list (`[{"query", "should_trigger"}]`) to turn into the skill's suite.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ImportSuite {
    /// The skill's `SKILL.md`.
    pub skill: String,
    /// The skill's name: what the list's `should_trigger: true` queries expect.
    pub name: String,
    /// A JSON file inside the skill's folder.
    pub from: String,
}

/// A skill's suite as the engine reads it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SuiteText {
    pub text: String,
}

/// A skill file and the editor's unsaved text of it.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct UnsavedSkill {
    pub path: String,
    pub text: String,
}

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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

/// A run's reports: on the library as saved and, with `compare`, with the unsaved text.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EvalReply {
    pub saved: Report,
    pub unsaved: Option<Report>,
    pub key: KeyUse,
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

impl Studio {
    /// The skill file `skill` (inside the opened library), its folder and the opened source
    /// holding it.
    fn skill_and_source(&self, skill: &str) -> Result<(PathBuf, PathBuf), AppError> {
        let file = self.check_path(skill)?;
        if !is_skill_file(&file) {
            return Err(AppError::new(ErrorCode::NotASkillFile, format!("{skill} is not a SKILL.md")));
        }
        let dir = file.parent().unwrap_or(Path::new("/")).to_path_buf();
        let source =
            self.library.sources().into_iter().filter(|s| dir.starts_with(s)).max_by_key(|s| s.as_os_str().len());
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
            sources = self.library.sources();
        }
        self.check_folders(&sources)?;
        let compare = match args.compare {
            Some(c) => Some((self.check_path(&c.path)?, c.text)),
            None => None,
        };
        let library = Library::for_agent(&sources, agent);
        let provider = skillkit::model::provider(&config);
        let options = args.provider.options();
        let running = self.start_run()?;
        let notify = self.host.eval_progress();
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::MemoryHost;
    use crate::settings::ModelApi;
    use crate::state::Startup;
    use crate::studio::library::OpenLibrary;
    use crate::studio::provider::{ApiArg, SetApiKey, SETTINGS_FILE};
    use crate::studio::session::{RunSession, RunSessionLive, SessionSettings};
    use mock_provider::{Fault, MockServer, Reply, Rule, Script};
    use serde_json::json;
    use std::sync::mpsc;
    use std::sync::Arc;

    const KEY: &str = "sk-never-shown-7f3a";

    fn skill(name: &str, description: &str) -> String {
        format!("---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nSteps.\n")
    }

    /// A library of two skills, opened, with keys in memory; the state remembers its settings
    /// in the temporary folder.
    fn opened() -> (tempfile::TempDir, PathBuf, Studio) {
        let (tmp, src, state, _) = opened_on_host();
        (tmp, src, state)
    }

    /// [`opened`], with its host (where a test listens to the progress).
    fn opened_on_host() -> (tempfile::TempDir, PathBuf, Studio, Arc<MemoryHost>) {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("skills");
        for (name, description) in
            [("pdf", "Reads PDF files. Use for PDF files."), ("csv", "Turns CSV files into tables.")]
        {
            std::fs::create_dir_all(src.join(name)).unwrap();
            std::fs::write(src.join(name).join("SKILL.md"), skill(name, description)).unwrap();
        }
        let src = src.canonicalize().unwrap();
        let host = Arc::new(MemoryHost::in_dir(tmp.path()));
        let state = Studio::new(Startup { sources: vec![], agent: "spec".into(), examples: None }, host.clone());
        state.open_library(OpenLibrary { sources: vec![path_string(&src)], agent: "spec".into() }).unwrap();
        (tmp, src, state, host)
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
    fn saved_suite(state: &Studio, src: &Path, cases: &[(&str, &str, &str)]) -> SuiteFile {
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
        state: &Studio,
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

    fn progress_channel(host: &MemoryHost) -> mpsc::Receiver<EvalProgress> {
        let (tx, rx) = mpsc::channel();
        let tx = std::sync::Mutex::new(tx);
        host.on_progress(Arc::new(move |p| {
            let _ = tx.lock().unwrap().send(p);
        }));
        rx
    }

    fn activated(r: &Report) -> Vec<(String, Vec<(String, u32)>)> {
        r.cases.iter().map(|c| (c.id.clone(), c.activated.iter().map(|(k, v)| (k.clone(), *v)).collect())).collect()
    }

    #[test]
    fn a_run_against_the_mock_gives_the_counts_its_script_implies_with_the_stored_key() {
        let (_tmp, src, state, host) = opened_on_host();
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
        let progress = progress_channel(&host);
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
        let (_tmp, src, state, host) = opened_on_host();
        let file = saved_suite(&state, &src, &[("tables", "Pull the tables out of report.pdf", "pdf")]);
        // The model picks pdf only when the prompt describes it as extracting tables.
        let server = MockServer::start(Script {
            rules: vec![
                rule("tables", Some("Extracts tables from PDF files"), vec![call("pdf")]),
                rule("tables", None, vec![Reply::text("I cannot read PDFs.")]),
            ],
            ..Script::default()
        });
        let progress = progress_channel(&host);
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
        let (_tmp, src, state, host) = opened_on_host();
        let cases: Vec<(String, String)> = (1..=5).map(|i| (format!("c{i}"), format!("read the pdf {i}"))).collect();
        let cases: Vec<(&str, &str, &str)> = cases.iter().map(|(id, q)| (id.as_str(), q.as_str(), "pdf")).collect();
        let file = saved_suite(&state, &src, &cases);
        let slow = Rule {
            fault: Some(Fault { delay_ms: Some(200), ..Fault::default() }),
            ..rule("pdf", None, vec![call("pdf")])
        };
        let server = MockServer::start(Script { rules: vec![slow], ..Script::default() });
        let progress = progress_channel(&host);
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
