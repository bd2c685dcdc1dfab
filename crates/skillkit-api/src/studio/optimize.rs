//! The description optimizer and drafted suites for the app: a skill's suite run through the
//! engine's loop (`skillkit::eval::optimize`) and queries drafted by the model
//! (`skillkit::eval::draft`) as a suite to review. Paths are checked to lie in the opened
//! library; the settings go through [`ProviderSettings::check`] and the key through
//! [`Studio::provider_config`]; the run holds the eval slot (`cancel_eval` stops it, keeping the
//! iterations measured in full) and reports `eval-progress` over the whole optimization.
//! Nothing is saved: the app puts the chosen description in the editor
//! (`set_frontmatter_field`) and a drafted suite in the suite table (`save_suite`).

use crate::events::EvalProgress;
use crate::prelude::*;
use crate::settings::ProviderSettings;
use crate::studio::eval::SuiteFile;
use crate::studio::provider::KeyUse;
use skillkit::eval::optimize::{OptimizeError, OptimizeOptions};
use skillkit::eval::suite::parse_yaml;
use skillkit::eval::{Suite, Variant};
use skillkit::scope::MAX_FILE_BYTES;

pub use skillkit::eval::optimize::{
    AgentResult, Best, Change, Iteration, OptimizeReport, QueryResult, Scores, Split, SplitName, Stop, StopReason,
};

/// An optimization of the open skill's description.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OptimizeDescription {
    /// Where the suite is (it need not be saved): its `sources` are relative to its folder.
    pub path: String,
    /// The suite, in the YAML format.
    pub text: String,
    /// The skill's `SKILL.md`: the description optimized is its saved one.
    pub skill: String,
    /// The target agents, each candidate measured under each one's exact prompt.
    pub agents: Vec<String>,
    /// The model measured (runs, concurrency and the rest).
    pub provider: ProviderSettings,
    /// The improver's model on the same provider; blank: the measured model.
    pub improver_model: String,
    /// The share of runs that counts as triggered (0.5).
    pub threshold: f64,
    /// Improvements at most (5; 0 to 50).
    pub iterations: u32,
    /// The test split's share of each class (0.4).
    pub holdout: f64,
    pub seed: u32,
}

/// The report, and which key the run used.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OptimizeReply {
    pub report: OptimizeReport,
    pub key: KeyUse,
}

/// Queries to draft for the open skill.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DraftSuite {
    /// The skill's `SKILL.md`.
    pub skill: String,
    /// Queries asked for (2 to 200): half should trigger, half are near misses.
    pub count: u32,
    pub provider: ProviderSettings,
}

/// The most improvements one optimization may ask for.
pub const MAX_ITERATIONS: u32 = 50;

fn invalid_suite(path: &str, errors: Vec<skillkit::session::script::ScriptError>) -> AppError {
    AppError::located(
        ErrorCode::InvalidSuite,
        format!("{path}: {} in the eval suite", crate::error::mistakes(errors.len())),
        errors,
    )
}

fn from_optimize(e: OptimizeError) -> AppError {
    let code = match &e {
        OptimizeError::Options(_) => ErrorCode::InvalidSettings,
        OptimizeError::NoSkill { .. } | OptimizeError::Suite(_) => ErrorCode::InvalidSuite,
        OptimizeError::Eval(skillkit::eval::EvalError::NoActivation { .. }) => ErrorCode::NoSkillTool,
        OptimizeError::Eval(skillkit::eval::EvalError::NoPrompt { .. }) => ErrorCode::NoPrompt,
        OptimizeError::Eval(_) => ErrorCode::Provider,
        OptimizeError::Edit(_) => ErrorCode::NotEditable,
    };
    AppError::new(code, e.to_string())
}

/// The skill's name as the library knows it: its `name` field, else its folder's name.
fn skill_name(text: &str, dir: &Path) -> String {
    skillkit::frontmatter_edit::form_fields(text)
        .into_iter()
        .find(|f| f.key == "name")
        .and_then(|f| f.value)
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default())
}

impl Studio {
    /// The skill file `skill` (inside the opened library): its name and folder.
    fn named_skill(&self, skill: &str) -> Result<(String, PathBuf), AppError> {
        let file = self.check_path(skill)?;
        if !is_skill_file(&file) {
            return Err(AppError::new(ErrorCode::NotASkillFile, format!("{skill} is not a SKILL.md")));
        }
        let (text, _) = self.scope().read_text(&file)?;
        let dir = file.parent().unwrap_or(Path::new("/")).to_path_buf();
        Ok((skill_name(&text, &dir), dir))
    }

    /// Optimizes the skill's description against the suite (see `skillkit::eval::optimize`);
    /// `eval-progress` events follow the whole run (done of the most requests it can take), and
    /// `cancel_eval` stops it with the iterations measured in full reported. Nothing is saved.
    pub fn optimize_description(&self, args: OptimizeDescription) -> Result<OptimizeReply, AppError> {
        let agents = args.agents.iter().map(|a| agent(a)).collect::<Result<Vec<_>, _>>()?;
        if agents.is_empty() {
            return Err(AppError::new(ErrorCode::InvalidSettings, "pick at least one target agent"));
        }
        if args.iterations > MAX_ITERATIONS {
            return Err(AppError::new(ErrorCode::InvalidSettings, format!("iterations: 0 to {MAX_ITERATIONS}")));
        }
        let suite = parse_yaml(&args.text).map_err(|e| invalid_suite(&args.path, e))?;
        let (name, _) = self.named_skill(&args.skill)?;
        let (config, key) = self.provider_config(&args.provider)?;
        let mut improver = config.clone();
        if !args.improver_model.trim().is_empty() {
            improver.model = args.improver_model.trim().to_string();
        }
        let sources = self.suite_sources(&args.path, &suite)?;
        let provider = skillkit::model::provider(&config);
        let options = OptimizeOptions {
            runs: args.provider.runs,
            concurrency: args.provider.concurrency as usize,
            threshold: args.threshold,
            iterations: args.iterations,
            holdout: args.holdout,
            seed: u64::from(args.seed),
        };
        let per_iteration = agents.len() * suite.cases.len() * args.provider.runs.max(1) as usize;
        let total = (per_iteration * (args.iterations as usize + 1)) as u32;
        let o = skillkit::eval::optimize::Optimization {
            skill: &name,
            agents: &agents,
            sources: &sources,
            suite: &suite,
            eval: &config,
            improver: &improver,
            options,
        };
        let running = self.start_run()?;
        let notify = self.host.eval_progress();
        let progress = |p: skillkit::eval::optimize::OptimizeProgress| {
            if let Some(n) = &notify {
                let done = (p.iteration as usize * per_iteration + p.done) as u32;
                n(EvalProgress { done, total, variant: Variant::Saved });
            }
        };
        let report = skillkit::eval::optimize::optimize(&o, provider.as_ref(), &running.cancel, &progress)
            .map_err(from_optimize)?;
        Ok(OptimizeReply { report, key })
    }

    /// The sources of the suite at `path` (relative to its folder, which may not exist yet),
    /// checked to be the opened library's; the opened library's when it names none.
    fn suite_sources(&self, path: &str, suite: &Suite) -> Result<Vec<PathBuf>, AppError> {
        let dir = skillkit::scope::resolve_lenient(skillkit::session::script::folder_of(Path::new(path)));
        let mut sources: Vec<PathBuf> =
            suite.source_paths(&dir).iter().map(|s| skillkit::scope::resolve_lenient(s)).collect();
        if sources.is_empty() {
            sources = self.library.sources();
        }
        self.check_folders(&sources)?;
        Ok(sources)
    }

    /// Queries drafted by the model for the skill, as its suite (`<skill folder>/evals/triggers.yaml`,
    /// not saved: the app shows them in the suite table to edit, and `save_suite` saves them; an
    /// existing file is replaced only by that save, from its `version`).
    pub fn draft_suite(&self, args: DraftSuite) -> Result<SuiteFile, AppError> {
        let (name, dir) = self.named_skill(&args.skill)?;
        let source = self
            .library
            .sources()
            .into_iter()
            .filter(|s| dir.starts_with(s))
            .max_by_key(|s| s.as_os_str().len())
            .ok_or_else(|| {
                AppError::new(ErrorCode::OutsideLibrary, format!("{} is in no opened source", args.skill))
            })?;
        let (config, _) = self.provider_config(&args.provider)?;
        let library = Library::for_agent(&self.library.sources(), agent("claude-code")?);
        let running = self.start_run()?;
        let cases = skillkit::eval::draft::draft(
            &name,
            &library,
            args.count,
            skillkit::model::provider(&config).as_ref(),
            &config,
            &running.cancel,
        )
        .map_err(|e| match e {
            skillkit::eval::draft::DraftError::Count(_) => AppError::new(ErrorCode::InvalidSettings, e.to_string()),
            skillkit::eval::draft::DraftError::NoSkill { .. } => AppError::new(ErrorCode::InvalidSuite, e.to_string()),
            _ => AppError::new(ErrorCode::Provider, e.to_string()),
        })?;
        let (path, mut suite) = Suite::for_skill(&dir, &source);
        suite.cases = cases;
        let version = self.scope().engine().version(&path, MAX_FILE_BYTES)?;
        Ok(SuiteFile { path: path_string(&path), exists: version.is_some(), text: suite.to_yaml(), suite, version })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::MemoryHost;
    use crate::state::Startup;
    use crate::studio::library::OpenLibrary;
    use mock_provider::{Fault, MockServer, Reply, Rule, Script};
    use serde_json::json;
    use std::sync::{mpsc, Arc};

    const SUITE: &str = "sources: [\"../..\"]\ncases:\n\
        - {id: a, query: Make a table from sales.csv, expect: csv}\n\
        - {id: b, query: Render orders.csv for the README, expect: csv}\n\
        - {id: c, query: Tabulate prices.csv, expect: csv}\n\
        - {id: d, query: Pull the text out of report.pdf, expect: pdf}\n\
        - {id: e, query: What is the capital of France?, expect: none}\n\
        - {id: f, query: Plot sales.csv as a chart, expect: none}\n";

    /// A library of csv and pdf, opened on a host whose progress goes to the channel.
    fn opened() -> (tempfile::TempDir, PathBuf, Studio, mpsc::Receiver<EvalProgress>) {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("skills");
        for (name, description) in [("csv", "Reads CSV files."), ("pdf", "Extracts text from PDF files.")] {
            std::fs::create_dir_all(src.join(name)).unwrap();
            let text = format!("---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nSteps.\n");
            std::fs::write(src.join(name).join("SKILL.md"), text).unwrap();
        }
        let src = src.canonicalize().unwrap();
        let host = Arc::new(MemoryHost::in_dir(tmp.path()));
        let (tx, rx) = mpsc::channel();
        let tx = std::sync::Mutex::new(tx);
        host.on_progress(Arc::new(move |p| {
            let _ = tx.lock().unwrap().send(p);
        }));
        let state = Studio::new(Startup { sources: vec![], agent: "spec".into(), examples: None }, host);
        state.open_library(OpenLibrary { sources: vec![path_string(&src)], agent: "spec".into() }).unwrap();
        (tmp, src, state, rx)
    }

    fn rule(contains: &str, context: Option<&str>, replies: Vec<Reply>) -> Rule {
        Rule { contains: Some(contains.into()), context: context.map(str::to_string), replies, ..Rule::default() }
    }

    /// The saved description triggers nothing; the improver's ("… Markdown tables …") every csv
    /// query and nothing else.
    fn script() -> Script {
        let call = || Reply::tool("Skill", json!({"skill": "csv"}));
        let mut rules = vec![rule(
            "This is attempt 1.",
            None,
            vec![Reply::text("<description>Turns CSV files into Markdown tables.</description>")],
        )];
        for q in ["sales.csv for", "orders.csv", "prices.csv", "Make a table from sales.csv"] {
            rules.push(rule(q, Some("into Markdown tables."), vec![call()]));
        }
        Script { rules, default: Some(Reply::text("No skill.")), ..Script::default() }
    }

    fn args(src: &Path, server: &MockServer) -> OptimizeDescription {
        OptimizeDescription {
            path: path_string(&src.join("csv/evals/triggers.yaml")),
            text: SUITE.into(),
            skill: path_string(&src.join("csv/SKILL.md")),
            agents: vec!["claude-code".into()],
            provider: ProviderSettings {
                base_url: server.base_url(),
                model: "eval-model".into(),
                runs: 1,
                ..ProviderSettings::default()
            },
            improver_model: "improver-model".into(),
            threshold: 0.5,
            iterations: 3,
            holdout: 0.4,
            seed: 1,
        }
    }

    #[test]
    fn an_optimization_reports_every_iteration_and_the_pick_without_saving() {
        let (_tmp, src, state, progress) = opened();
        let server = MockServer::start(script());
        let reply = state.optimize_description(args(&src, &server)).unwrap();
        assert_eq!(reply.key, KeyUse::None);
        let r = reply.report;
        assert_eq!((r.split.train.len(), r.split.test.len()), (4, 2));
        assert_eq!(r.iterations.len(), 2);
        assert_eq!(r.iterations[1].agents[0].train.passed, 4);
        assert_eq!(r.iterations[1].test_passed, 2);
        assert_eq!(r.stop.reason, StopReason::AllTrainPass);
        assert_eq!(r.best.map(|b| b.description), Some("Turns CSV files into Markdown tables.".to_string()));
        assert_eq!(r.improver_model, "improver-model");
        let improver = server.requests().iter().filter(|q| q.body["model"] == "improver-model").count();
        assert_eq!(improver, 1);
        // Progress over the whole run: 6 requests an iteration, 4 iterations at most.
        let events: Vec<EvalProgress> = progress.try_iter().collect();
        assert_eq!(events.len(), 12);
        assert!(events.iter().all(|e| e.total == 24 && e.done <= 12 && e.variant == Variant::Saved));
        assert_eq!(events.iter().map(|e| e.done).max(), Some(12));
        // Nothing saved; the slot is free again.
        let text = std::fs::read_to_string(src.join("csv/SKILL.md")).unwrap();
        assert!(text.contains("description: Reads CSV files."));
        assert!(state.optimize_description(args(&src, &server)).is_ok());
    }

    #[test]
    fn mistakes_are_refused_before_any_request() {
        let (tmp, src, state, _) = opened();
        let server = MockServer::start(script());
        let err = |a: OptimizeDescription| state.optimize_description(a).unwrap_err();
        assert_eq!(err(OptimizeDescription { agents: vec![], ..args(&src, &server) }).code, ErrorCode::InvalidSettings);
        assert_eq!(
            err(OptimizeDescription { agents: vec!["nobody".into()], ..args(&src, &server) }).code,
            ErrorCode::UnknownAgent
        );
        assert_eq!(err(OptimizeDescription { iterations: 51, ..args(&src, &server) }).code, ErrorCode::InvalidSettings);
        let holdout = err(OptimizeDescription { holdout: 0.0, ..args(&src, &server) });
        assert_eq!(
            (holdout.code, holdout.message.as_str()),
            (ErrorCode::InvalidSettings, "--holdout 0: a share strictly between 0 and 1")
        );
        let outside = tmp.path().join("elsewhere.md");
        std::fs::write(&outside, "x").unwrap();
        assert_eq!(
            err(OptimizeDescription { skill: path_string(&outside), ..args(&src, &server) }).code,
            ErrorCode::OutsideLibrary
        );
        let one_class = "sources: [\"../..\"]\ncases:\n- {query: q, expect: csv}\n- {query: r, expect: none}\n";
        assert_eq!(
            err(OptimizeDescription { text: one_class.into(), ..args(&src, &server) }).code,
            ErrorCode::InvalidSuite
        );
        assert!(server.requests().is_empty());
    }

    #[test]
    fn cancel_keeps_the_iterations_measured_in_full() {
        let (_tmp, src, state, progress) = opened();
        let mut slow = script();
        slow.fault = Some(Fault { delay_ms: Some(100), ..Fault::default() });
        let server = MockServer::start(slow);
        let a = OptimizeDescription {
            provider: ProviderSettings { concurrency: 1, ..args(&src, &server).provider },
            ..args(&src, &server)
        };
        std::thread::scope(|s| {
            let running = s.spawn(|| state.optimize_description(a.clone()));
            // Iteration 1's first request is done: cancel there.
            loop {
                let p = progress.recv_timeout(std::time::Duration::from_secs(60)).expect("progress");
                if p.done > 6 {
                    break;
                }
            }
            state.cancel_eval().unwrap();
            let r = running.join().unwrap().unwrap().report;
            assert_eq!(r.stop.reason, StopReason::Cancelled);
            assert_eq!(r.iterations.len(), 1);
            assert_eq!(r.best.map(|b| b.iteration), Some(0));
        });
    }

    #[test]
    fn a_drafted_suite_is_shown_not_saved() {
        let (_tmp, src, state, _) = opened();
        let answer = r#"[{"query": "Make a table of a.csv", "should_trigger": true},
                         {"query": "Use the pdf skill on b.pdf", "should_trigger": false}]"#;
        let server = MockServer::start(Script::always(Reply::text(answer)));
        let provider =
            ProviderSettings { base_url: server.base_url(), model: "m".into(), ..ProviderSettings::default() };
        let file = state
            .draft_suite(DraftSuite {
                skill: path_string(&src.join("csv/SKILL.md")),
                count: 2,
                provider: provider.clone(),
            })
            .unwrap();
        assert_eq!(file.path, path_string(&src.join("csv/evals/triggers.yaml")));
        assert!(!file.exists && file.version.is_none());
        assert_eq!(file.suite.sources, ["../.."]);
        let got: Vec<(&str, &str)> = file.suite.cases.iter().map(|c| (c.id.as_str(), c.expect.as_str())).collect();
        assert_eq!(got, [("trigger-1", "csv"), ("near-miss-1", "none")]);
        assert_eq!(parse_yaml(&file.text).unwrap(), file.suite);
        assert!(!src.join("csv/evals").exists());
        let body = server.requests()[0].body.to_string();
        assert!(body.contains("- pdf: Extracts text from PDF files."), "{body}");
        let bad = state.draft_suite(DraftSuite { skill: path_string(&src.join("csv/SKILL.md")), count: 1, provider });
        assert_eq!(bad.unwrap_err().code, ErrorCode::InvalidSettings);
    }
}
