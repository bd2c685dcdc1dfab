//! Session scripts for the Session pane: save the steps the user took as the engine's YAML
//! script format, and open a script to continue from. Both touch files only inside the opened
//! library's sources (the same scope as `read_file` and `save_file`). The YAML written is checked
//! by parsing it back with the engine (`skillkit::simulate::parse_script`): a script that would not
//! read back as the same session is refused, never written.

use crate::error::{AppError, ErrorCode};
use crate::state::Studio;
use crate::studio::session::{Policy, RunSession, RunSessionScript, SessionSettings};
use crate::studio::source_files::Saved;
use crate::views::{path_string, SessionView, Step};
use serde::{Deserialize, Serialize};
use skillkit::session::script::relative;
use std::path::Path;

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SaveSessionScript {
    /// Where to write the script (inside an opened source).
    pub path: String,
    pub agent: String,
    /// Absolute source folders, lowest priority first; written relative to the script's folder.
    pub sources: Vec<String>,
    pub settings: SessionSettings,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OpenSessionScript {
    pub path: String,
}

/// A session script as read by the engine, ready to continue in the Session pane.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SessionScript {
    pub path: String,
    pub text: String,
    pub agent: String,
    /// Resolved against the script's folder.
    pub sources: Vec<String>,
    pub settings: ScriptSettings,
    pub steps: Vec<Step>,
    /// The simulated session.
    pub view: SessionView,
}

/// The settings a script gives (the engine's defaults filled in).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ScriptSettings {
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub context_window: Option<u64>,
    pub max_loaded_skills: usize,
    pub policy: String,
    pub char_budget: Option<usize>,
    pub allow: Vec<String>,
}

/// The script text for a session, in the engine's format ([`skillkit::session::script::Script::to_text`]).
pub fn script_text(agent: &str, sources: &[String], settings: &SessionSettings, steps: &[Step]) -> String {
    skillkit::session::script::Script {
        agent: agent.into(),
        sources: sources.to_vec(),
        settings: settings.to_engine(),
        steps: steps.to_vec(),
        agent_settings: vec![],
    }
    .to_text()
}

pub(super) fn invalid(path: &str, errors: Vec<skillkit::session::script::ScriptError>) -> AppError {
    AppError::located(
        ErrorCode::InvalidScript,
        format!("{path}: {} in the session script", crate::error::mistakes(errors.len())),
        errors,
    )
}

fn policy_name(p: skillkit::session::Policy) -> String {
    match p {
        skillkit::session::Policy::Recommend => "recommend".into(),
        skillkit::session::Policy::Restrict => "restrict".into(),
    }
}

impl Studio {
    pub fn run_session_script(&self, args: RunSessionScript) -> Result<SessionView, AppError> {
        let script = skillkit::simulate::parse_script(&args.text).map_err(|errors| invalid(&args.path, errors))?;
        let agent = crate::resolve::agent(&script.agent)?;
        let dir = skillkit::session::script::folder_of(Path::new(&args.path));
        let sources = script.source_paths(dir);
        // A script names its sources relative to itself: they must be the opened library's.
        self.check_folders(&sources)?;
        Ok(crate::studio::session::simulate(agent, &sources, script.settings, script.steps))
    }

    /// Writes the session as a script (inside an opened source), after checking that the engine
    /// reads it back as the same session.
    pub fn save_session_script(&self, args: SaveSessionScript) -> Result<Saved, AppError> {
        let path = self.check_path(&args.path)?;
        if path.extension().and_then(|e| e.to_str()).is_none_or(|e| e != "yaml" && e != "yml") {
            return Err(AppError::new(
                ErrorCode::Io,
                format!("{} : a session script ends in .yaml or .yml", args.path),
            ));
        }
        let dir = path.parent().unwrap_or(Path::new("/"));
        let sources: Vec<String> = args
            .sources
            .iter()
            .map(|s| {
                let p = Path::new(s);
                let real = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
                path_string(&relative(&real, dir))
            })
            .collect();
        let text = script_text(&args.agent, &sources, &args.settings, &args.steps);
        let script = skillkit::simulate::parse_script(&text).map_err(|e| invalid(&args.path, e))?;
        let steps: Vec<Step> = script.steps.clone();
        if steps != args.steps {
            return Err(AppError::new(
                ErrorCode::InvalidScript,
                "the session does not read back as the same steps (a slash command's name with a space?)",
            ));
        }
        let version = self.save_scoped(&path, &text, None)?;
        Ok(Saved { path: path_string(&path), bytes: text.len(), version })
    }

    /// Reads a script (inside an opened source) and runs it.
    pub fn open_session_script(&self, args: OpenSessionScript) -> Result<SessionScript, AppError> {
        let file = self.read_file(crate::studio::source_files::ReadFile { path: args.path.clone() })?;
        let script = skillkit::simulate::parse_script(&file.text).map_err(|e| invalid(&args.path, e))?;
        let dir = Path::new(&file.path).parent().unwrap_or(Path::new("/"));
        let sources: Vec<String> = script
            .source_paths(dir)
            .iter()
            .map(|p| path_string(&std::fs::canonicalize(p).unwrap_or_else(|_| p.clone())))
            .collect();
        let s = &script.settings;
        let settings = ScriptSettings {
            context_window: s.context_window,
            max_loaded_skills: s.max_loaded_skills,
            policy: policy_name(s.policy),
            char_budget: s.char_budget,
            allow: s.allow.clone(),
        };
        let steps: Vec<Step> = script.steps.clone();
        let view = self.run_session(RunSession {
            sources: sources.clone(),
            agent: script.agent.clone(),
            settings: SessionSettings {
                context_window: s.context_window,
                max_loaded_skills: Some(s.max_loaded_skills),
                policy: match s.policy {
                    skillkit::session::Policy::Recommend => Policy::Recommend,
                    skillkit::session::Policy::Restrict => Policy::Restrict,
                },
                char_budget: s.char_budget,
                allow: s.allow.clone(),
            },
            steps: steps.clone(),
        })?;
        Ok(SessionScript { path: file.path, text: file.text, agent: script.agent, sources, settings, steps, view })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::MemoryHost;
    use crate::state::Startup;
    use crate::studio::library::OpenLibrary;
    use std::path::PathBuf;
    use std::sync::Arc;

    fn bundled() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skills").canonicalize().unwrap()
    }

    fn steps() -> Vec<Step> {
        vec![
            Step::Load { skill: "commit-message".into() },
            Step::Invoke { skill: "commit-message".into(), args: Some("a \"quoted\" é\nline".into()) },
            Step::Slash { name: "commit-message".into(), args: "fix: x".into() },
            Step::Tool { name: "Bash".into(), args: serde_json::json!({"command": "git status", "n": 5, "ok": true}) },
            Step::Edit {
                skill: "commit-message".into(),
                content: "---\nname: commit-message\n---\nbody: [x]\n".into(),
            },
            Step::Unload { skill: "commit-message".into() },
        ]
    }

    #[test]
    fn script_text_reads_back_through_the_engine() {
        let settings = SessionSettings {
            context_window: Some(32000),
            max_loaded_skills: Some(2),
            policy: Policy::Restrict,
            char_budget: Some(4000),
            allow: vec!["Bash(git:*)".into()],
        };
        let text = script_text("deepagents-v2", &["../skills".into()], &settings, &steps());
        let script = skillkit::simulate::parse_script(&text).unwrap();
        assert_eq!(script.agent, "deepagents-v2");
        assert_eq!(script.sources, ["../skills"]);
        assert_eq!(script.settings.context_window, Some(32000));
        assert_eq!(script.settings.max_loaded_skills, 2);
        assert_eq!(script.settings.policy, skillkit::session::Policy::Restrict);
        assert_eq!(script.settings.char_budget, Some(4000));
        assert_eq!(script.settings.allow, ["Bash(git:*)"]);
        assert_eq!(script.steps, steps());
        let empty = script_text("codex", &[], &SessionSettings::default(), &[]);
        assert!(skillkit::simulate::parse_script(&empty).unwrap().steps.is_empty());
    }

    fn copy_dir(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                copy_dir(&e.path(), &to.join(e.file_name()));
            } else {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    }

    #[test]
    fn save_then_open_gives_the_same_session_inside_the_library_only() {
        let tmp = tempfile::tempdir().unwrap();
        let lib = tmp.path().join("skills");
        copy_dir(&bundled(), &lib);
        let src = path_string(&lib);
        let state = Studio::new(
            Startup { sources: vec![src.clone()], agent: "spec".into(), examples: None },
            Arc::new(MemoryHost::default()),
        );
        state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }).unwrap();
        let settings = SessionSettings { policy: Policy::Restrict, ..Default::default() };
        let path = path_string(&lib.join("commit-message/session.yaml"));
        let steps =
            vec![Step::Load { skill: "commit-message".into() }, Step::Unload { skill: "commit-message".into() }];
        let save = |path: String, steps: Vec<Step>| {
            state.save_session_script(SaveSessionScript {
                path,
                agent: "deepagents-v2".into(),
                sources: vec![src.clone()],
                settings: settings.clone(),
                steps,
            })
        };
        let saved = save(path.clone(), steps.clone()).unwrap();
        let text = std::fs::read_to_string(&saved.path).unwrap();
        assert!(text.contains("sources: [\"..\"]"), "{text}");
        let opened = state.open_session_script(OpenSessionScript { path: path.clone() }).unwrap();
        assert_eq!(opened.agent, "deepagents-v2");
        assert_eq!(opened.sources, vec![src.clone()]);
        assert_eq!(opened.steps, steps);
        assert_eq!(opened.settings.policy, "restrict");
        assert_eq!(opened.view.turns.len(), 2);
        assert_eq!(opened.view.turns[0].loaded, ["commit-message"]);
        // The same session as the one saved, over the library as opened (sources resolved to
        // real paths, so the prompt names them as the Prompt pane does).
        let again = state
            .run_session(RunSession {
                sources: vec![src.clone()],
                agent: "deepagents-v2".into(),
                settings: SessionSettings { max_loaded_skills: Some(10), ..settings.clone() },
                steps: steps.clone(),
            })
            .unwrap();
        assert_eq!(again, opened.view);

        let code = |r: Result<Saved, AppError>| r.unwrap_err().code;
        assert_eq!(code(save(path_string(&tmp.path().join("out.yaml")), vec![])), ErrorCode::OutsideLibrary);
        assert_eq!(code(save(path_string(&lib.join("s.txt")), vec![])), ErrorCode::Io);
        let lead = vec![Step::Slash { name: "a b".into(), args: "c".into() }];
        assert_eq!(code(save(path_string(&lib.join("s.yaml")), lead)), ErrorCode::InvalidScript);
        assert!(!lib.join("s.yaml").exists());

        std::fs::write(lib.join("bad.yaml"), "agent: nobody\nsteps: []\n").unwrap();
        let err =
            state.open_session_script(OpenSessionScript { path: path_string(&lib.join("bad.yaml")) }).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidScript);
        assert_eq!(err.details[0].line, 1);
        let outside = state.open_session_script(OpenSessionScript { path: "/etc/hostname".into() }).unwrap_err();
        assert_eq!(outside.code, ErrorCode::OutsideLibrary);
    }

    #[test]
    fn sessions_and_scripts_read_only_the_opened_library() {
        let tmp = tempfile::tempdir().unwrap();
        let lib = tmp.path().join("skills");
        let other = tmp.path().join("other");
        copy_dir(&bundled(), &lib);
        copy_dir(&bundled(), &other);
        let src = path_string(&lib);
        let state = Studio::new(
            Startup { sources: vec![src.clone()], agent: "spec".into(), examples: None },
            Arc::new(MemoryHost::default()),
        );
        state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }).unwrap();
        let session = |sources: Vec<String>| {
            state.run_session(RunSession {
                sources,
                agent: "deepagents-v2".into(),
                settings: SessionSettings::default(),
                steps: vec![],
            })
        };
        assert!(session(vec![src.clone()]).is_ok());
        assert!(session(vec![path_string(&lib.join("commit-message"))]).is_ok());
        let err = session(vec![src.clone(), path_string(&other)]).unwrap_err();
        assert_eq!(err.code, ErrorCode::OutsideLibrary);
        assert!(err.message.contains("other"), "{}", err.message);

        // A script inside the library naming a folder outside it, relative to itself.
        let script = "agent: deepagents-v2\nsources: [\"../other\"]\nsteps:\n  - load: commit-message\n";
        let path = path_string(&lib.join("escape.yaml"));
        let run = state.run_session_script(RunSessionScript { path: path.clone(), text: script.into() });
        assert_eq!(run.unwrap_err().code, ErrorCode::OutsideLibrary);
        std::fs::write(lib.join("escape.yaml"), script).unwrap();
        let open = state.open_session_script(OpenSessionScript { path }).unwrap_err();
        assert_eq!(open.code, ErrorCode::OutsideLibrary);
        let inside = script.replace("../other", ".");
        let ok = state.run_session_script(RunSessionScript { path: path_string(&lib.join("ok.yaml")), text: inside });
        assert_eq!(ok.unwrap().turns.len(), 1);
    }
}
