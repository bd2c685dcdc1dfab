//! Running a suite: each case's query is sent `runs` times, as the agent would send it, and each
//! reply is judged by the agent's [`Activation`] rule.

use super::report::{Report, RunResult};
use super::suite::Suite;
use crate::agent::{Activation, Agent};
use crate::library::Library;
use crate::model::{Cancel, ChatRequest, Message, Provider, ProviderConfig, ProviderError, Tool};
use crate::prompt::Prompt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// How a suite is run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Times each case is asked (at least 1).
    pub runs: u32,
    /// Requests in flight at most (at least 1).
    pub concurrency: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options { runs: 3, concurrency: 4 }
    }
}

/// Why a suite could not run.
#[derive(Debug)]
pub enum EvalError {
    /// The agent offers the model no way to activate a skill.
    NoActivation { agent: String },
    /// The agent refused to produce its prompt (skills-ref's `to-prompt` on a bad skill).
    NoPrompt { agent: String, message: String },
    /// A request failed for good (after the provider's retries).
    Provider { case: String, error: ProviderError },
    /// The skill file whose unsaved text an A/B run compares is not in the library.
    NotInLibrary { path: std::path::PathBuf },
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalError::NoActivation { agent } => {
                let with: Vec<&str> =
                    crate::agents::AGENTS.iter().filter(|a| a.activation.is_some()).map(|a| a.id).collect();
                write!(f, "`{agent}` offers the model no skill tool to evaluate; use one of: {}", with.join(", "))
            }
            EvalError::NoPrompt { message, .. } => f.write_str(message),
            EvalError::Provider { case, error } => write!(f, "case `{case}`: {error}"),
            EvalError::NotInLibrary { path } => {
                write!(f, "{} is not a skill of the suite's sources, so its text cannot be compared", path.display())
            }
        }
    }
}

impl std::error::Error for EvalError {}

/// What the model is sent for `query` under the agent whose render is `prompt`: the skills text
/// where the agent puts it (the system prompt, or a developer message for Codex), the agent's
/// skill tools with their exact schemas, and the query as the first user turn.
pub fn request(prompt: &Prompt, activation: &Activation, query: &str, config: &ProviderConfig) -> ChatRequest {
    let (system, mut messages) = crate::live::frame(prompt.placement, &prompt.text);
    messages.push(Message::user(query));
    let tools = (activation.tools)(prompt)
        .into_iter()
        .map(|t| Tool { name: t.name, description: t.description, parameters: t.parameters })
        .collect();
    config.request(system, messages, tools)
}

/// The skill the reply's first activating tool call names (`None`: no skill).
pub fn activated(prompt: &Prompt, activation: &Activation, reply: &crate::model::ChatResponse) -> Option<String> {
    reply
        .tool_calls
        .iter()
        .find_map(|c| (activation.call)(prompt, &c.name, &c.arguments)?.activates().map(str::to_string))
}

/// Runs `suite` against `provider`: every case `runs` times, at most `concurrency` requests at
/// once, `progress(done, total)` after each. When `cancel` is cancelled, the runs in flight
/// finish and the report covers the completed ones (`cancelled: true`). The first request that
/// fails for good stops the suite with its error (and cancels `cancel`, stopping the others).
#[allow(clippy::too_many_arguments)]
pub fn run(
    agent: &Agent,
    prompt: &Prompt,
    suite: &Suite,
    provider: &dyn Provider,
    config: &ProviderConfig,
    options: &Options,
    cancel: &Cancel,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Report, EvalError> {
    let activation = agent.activation.as_ref().ok_or_else(|| EvalError::NoActivation { agent: agent.id.into() })?;
    if let Some(message) = &prompt.failure {
        return Err(EvalError::NoPrompt { agent: agent.id.into(), message: message.clone() });
    }
    let runs = options.runs.max(1);
    let jobs: Vec<(usize, u32)> = (0..suite.cases.len()).flat_map(|c| (0..runs).map(move |r| (c, r))).collect();
    let total = jobs.len();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Vec<Option<RunResult>>>> =
        Mutex::new(suite.cases.iter().map(|_| vec![None; runs as usize]).collect());
    let failure: Mutex<Option<EvalError>> = Mutex::new(None);
    let requests: Vec<ChatRequest> =
        suite.cases.iter().map(|c| request(prompt, activation, &c.query, config)).collect();
    let worker = || loop {
        if cancel.is_cancelled() {
            return;
        }
        let i = next.fetch_add(1, Ordering::SeqCst);
        let Some(&(case, run)) = jobs.get(i) else { return };
        match provider.complete_with(&requests[case], cancel) {
            Ok(reply) => {
                let result = RunResult {
                    activated: activated(prompt, activation, &reply),
                    input_tokens: reply.usage.input_tokens,
                    output_tokens: reply.usage.output_tokens,
                };
                lock(&results)[case][run as usize] = Some(result);
                progress(done.fetch_add(1, Ordering::SeqCst) + 1, total);
            }
            Err(ProviderError::Cancelled) => return,
            Err(error) => {
                let mut f = lock(&failure);
                if f.is_none() {
                    *f = Some(EvalError::Provider { case: suite.cases[case].id.clone(), error });
                }
                // The other workers stop too (the caller's token: its suite is over).
                cancel.cancel();
                return;
            }
        }
    };
    std::thread::scope(|s| {
        for _ in 0..options.concurrency.clamp(1, total.max(1)) {
            s.spawn(worker);
        }
    });
    if let Some(e) = lock(&failure).take() {
        return Err(e);
    }
    let results: Vec<Vec<RunResult>> =
        lock(&results).iter().map(|runs| runs.iter().flatten().cloned().collect()).collect();
    let cancelled = results.iter().map(Vec::len).sum::<usize>() < total;
    Ok(Report::new(agent.id, provider.wire().kind().name(), &config.model, runs, &suite.cases, &results, cancelled))
}

/// Runs `suite` over `library` as `agent` sees it: the agent's prompt rendered with the suite's
/// settings ([`Suite::prompt_options`]), then [`run`].
#[allow(clippy::too_many_arguments)]
pub fn run_library(
    agent: &Agent,
    library: &Library,
    suite: &Suite,
    provider: &dyn Provider,
    config: &ProviderConfig,
    options: &Options,
    cancel: &Cancel,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Report, EvalError> {
    if agent.activation.is_none() {
        return Err(EvalError::NoActivation { agent: agent.id.into() });
    }
    let Some(prompt) = agent.render(library, &suite.prompt_options()) else {
        return Err(EvalError::NoPrompt { agent: agent.id.into(), message: crate::agents::only_lints(agent.id) });
    };
    run(agent, &prompt, suite, provider, config, options, cancel, progress)
}

/// `library` with the skill file `path` holding `text` instead of what is saved ([`Library::set_text`]):
/// the other side of an A/B run.
pub fn with_text(library: &Library, path: &std::path::Path, text: &str, agent: &Agent) -> Result<Library, EvalError> {
    let i = library.entry_at(path).ok_or_else(|| EvalError::NotInLibrary { path: path.to_path_buf() })?;
    let mut edited = library.clone();
    edited.set_text(i, text, agent);
    Ok(edited)
}

/// Which library an A/B run is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// The library as saved on disk.
    Saved,
    /// The library with one skill's unsaved text.
    Unsaved,
}

/// The two reports of an A/B run.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Comparison {
    pub saved: Report,
    pub unsaved: Report,
}

/// Runs `suite` on `library` as saved, then with the skill file `path` holding `text`
/// ([`with_text`]), with the same provider and settings; `progress` says which side the count is
/// of. Once `cancel` is cancelled the side running stops and the other runs nothing, both
/// reports marked `cancelled`.
#[allow(clippy::too_many_arguments)]
pub fn compare(
    agent: &Agent,
    library: &Library,
    path: &std::path::Path,
    text: &str,
    suite: &Suite,
    provider: &dyn Provider,
    config: &ProviderConfig,
    options: &Options,
    cancel: &Cancel,
    progress: &(dyn Fn(Variant, usize, usize) + Sync),
) -> Result<Comparison, EvalError> {
    let edited = with_text(library, path, text, agent)?;
    let side = |lib: &Library, variant: Variant| {
        run_library(agent, lib, suite, provider, config, options, cancel, &|done, total| progress(variant, done, total))
    };
    let saved = side(library, Variant::Saved)?;
    let unsaved = side(&edited, Variant::Unsaved)?;
    Ok(Comparison { saved, unsaved })
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ChatResponse, ProviderKind, Role, ToolCall};
    use serde_json::json;

    fn library() -> (tempfile::TempDir, crate::library::Library, &'static Agent) {
        let tmp = tempfile::tempdir().unwrap();
        for name in ["pdf", "csv"] {
            let dir = tmp.path().join("skills").join(name);
            std::fs::create_dir_all(&dir).unwrap();
            let text = format!("---\nname: {name}\ndescription: Handles {name} files. Use for {name}.\n---\n\nBody.\n");
            std::fs::write(dir.join("SKILL.md"), text).unwrap();
        }
        let agent = crate::agents::find_agent("codex").unwrap();
        let lib = crate::library::Library::for_agent(&[tmp.path().join("skills")], agent);
        (tmp, lib, agent)
    }

    fn reply(calls: &[(&str, serde_json::Value)]) -> ChatResponse {
        let tool_calls = calls
            .iter()
            .enumerate()
            .map(|(i, (name, arguments))| ToolCall {
                id: i.to_string(),
                name: name.to_string(),
                arguments: arguments.clone(),
            })
            .collect();
        ChatResponse { tool_calls, ..ChatResponse::default() }
    }

    #[test]
    fn codex_gets_a_developer_message_and_activates_by_reading_the_file() {
        let (_tmp, lib, agent) = library();
        let prompt = agent.render(&lib, &Default::default()).unwrap();
        let activation = agent.activation.unwrap();
        let req = request(&prompt, &activation, "read my pdf", &ProviderConfig::new(ProviderKind::OpenAi, "m"));
        assert_eq!(req.system, None);
        assert_eq!(req.messages[0], Message::text(Role::Developer, prompt.text.clone()));
        assert_eq!(req.messages[1], Message::user("read my pdf"));
        assert_eq!(req.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), vec!["exec_command"]);
        let pdf = prompt.skill_named("pdf").unwrap().path.clone();
        for cmd in [format!("cat {pdf}"), format!("sed -n '1,200p' '{pdf}'"), "cat r0/pdf/SKILL.md".to_string()] {
            let got = activated(&prompt, &activation, &reply(&[("exec_command", json!({ "cmd": cmd }))]));
            assert_eq!(got.as_deref(), Some("pdf"), "{cmd}");
        }
        // Other commands, other tools and files that are no skill's activate nothing; the first
        // activating call counts.
        for (name, args) in [
            ("exec_command", json!({"cmd": "ls"})),
            ("exec_command", json!({"cmd": "cat r0/other/SKILL.md"})),
            ("read_file", json!({"file_path": pdf})),
        ] {
            assert_eq!(activated(&prompt, &activation, &reply(&[(name, args.clone())])), None, "{name} {args}");
        }
        let two =
            reply(&[("exec_command", json!({"cmd": "ls"})), ("exec_command", json!({"cmd": "cat r0/csv/SKILL.md"}))]);
        assert_eq!(activated(&prompt, &activation, &two).as_deref(), Some("csv"));
    }

    #[test]
    fn agents_without_a_skill_tool_cannot_be_evaluated() {
        let with: Vec<&str> = crate::agents::AGENTS.iter().filter(|a| a.activation.is_some()).map(|a| a.id).collect();
        assert_eq!(
            with,
            [
                "deepagents",
                "deepagents-v1",
                "deepagents-v2",
                "claude-code",
                "codex",
                "gemini-cli",
                "copilot-cli",
                "harness9",
                "opencode",
                "cline",
                "qwen-code",
                "letta-code",
                "kimi-cli",
                "mistral-vibe"
            ]
        );
        let e = EvalError::NoActivation { agent: "agentskills".into() };
        assert!(e
            .to_string()
            .starts_with("`agentskills` offers the model no skill tool to evaluate; use one of: deepagents,"));
    }
}
