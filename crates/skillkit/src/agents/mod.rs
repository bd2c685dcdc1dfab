//! One file per agent that advertises skills to a model. Each file states the program and version
//! (or seed document and section) it reproduces, and holds everything that agent does its own
//! way: discovery, how leniently it reads frontmatter, the exact text it injects and where, its
//! listing budget, and its skill tools. [`AGENTS`] is the registry; `spec`
//! (the default: the specification's MUSTs are errors, fields other agents know are warnings
//! naming them) lints only, and `agentskills` is as strict as skills-ref 0.1.1.

pub mod agentskills;
pub mod claude_code;
pub mod cline;
pub mod codex;
pub mod compat;
pub mod copilot_cli;
pub mod deepagents;
pub mod gemini_cli;
pub mod harness9;
pub mod kimi_cli;
pub mod letta_code;
pub mod mistral_vibe;
pub mod opencode;
pub mod qwen_code;

pub use compat::python;
pub use deepagents::{read_file as deepagents_read, v1 as deepagents_v1, v2 as deepagents_v2};

use crate::agent::{Agent, AgentKind, LintProfile};
use crate::library::discover::DiscoveryPolicy;
use crate::library::NameKey;
use crate::prompt::{Prompt, RenderInput};
use crate::session::{IncrementalPrompt, Outcome, Session, Step};

/// The agentskills.io specification (lint only): the default profile.
pub static SPEC: Agent = Agent {
    id: "spec",
    title: "Agent Skills specification",
    kind: AgentKind::Format,
    label: "Agent Skills spec",
    source: "agentskills.io docs/specification.mdx (agentskills/agentskills 69ef37e, 2026-08-09)",
    lint: LintProfile::DEFAULT,
    // The client guide's search, reporting nested skills too (`skillkit tree` shows every skill).
    discovery: DiscoveryPolicy { nested: true, ..DiscoveryPolicy::CLIENT_GUIDE },
    key: NameKey::Frontmatter,
    prompt: None,
    read: None,
    activation: None,
};

pub use agentskills::AGENT as AGENTSKILLS;

/// Every profile, in the order `skillkit agents` lists them.
pub static AGENTS: &[&Agent] = &[
    &SPEC,
    &AGENTSKILLS,
    &deepagents::AGENT,
    &deepagents_v1::AGENT,
    &deepagents_v2::AGENT,
    &claude_code::AGENT,
    &codex::AGENT,
    &gemini_cli::AGENT,
    &copilot_cli::AGENT,
    &harness9::AGENT,
    &opencode::AGENT,
    &cline::AGENT,
    &qwen_code::AGENT,
    &letta_code::AGENT,
    &kimi_cli::AGENT,
    &mistral_vibe::AGENT,
];

/// The skill a tool call's string argument `key` names (activation by name).
pub(crate) fn skill_named_by(prompt: &Prompt, arguments: &serde_json::Value, key: &str) -> Option<String> {
    let name = arguments.get(key)?.as_str()?;
    prompt.skill_named(name.trim()).map(|s| s.name.clone())
}

/// The skill whose `SKILL.md` a tool call's string argument `key` is the path of (activation by
/// reading the file).
pub(crate) fn skill_file_in(prompt: &Prompt, arguments: &serde_json::Value, key: &str) -> Option<String> {
    let path = arguments.get(key)?.as_str()?;
    prompt.skill_at_path(path.trim()).map(|s| s.name.clone())
}

pub fn find_agent(id: &str) -> Option<&'static Agent> {
    AGENTS.iter().copied().find(|a| a.id == id)
}

/// A profile's session code: how it handles a step, and, for an agent whose skills prompt
/// changes as skills load, the prompt model the session keeps current (with the agent's default
/// context window).
pub struct SessionHooks {
    pub step: fn(&mut Session, &Step) -> Outcome,
    pub model: Option<SessionModel>,
}

/// Builds the prompt model a session keeps current, with the agent's default context window.
pub type SessionModel = fn(&RenderInput<'_>) -> (Box<dyn IncrementalPrompt>, u64);

/// Every profile that simulates sessions, with its session code.
static SESSIONS: &[(&Agent, SessionHooks)] = &[
    (&deepagents::AGENT, SessionHooks { step: deepagents::session_step, model: None }),
    (&deepagents_v1::AGENT, SessionHooks { step: deepagents::session_step, model: None }),
    (
        &deepagents_v2::AGENT,
        SessionHooks { step: deepagents_v2::session_step, model: Some(deepagents_v2::session_model) },
    ),
    (&claude_code::AGENT, SessionHooks { step: claude_code::session_step, model: None }),
    (&codex::AGENT, SessionHooks { step: codex::session_step, model: None }),
    (&gemini_cli::AGENT, SessionHooks { step: gemini_cli::session_step, model: None }),
    (&copilot_cli::AGENT, SessionHooks { step: copilot_cli::session_step, model: None }),
    (&harness9::AGENT, SessionHooks { step: harness9::session_step, model: None }),
    (&opencode::AGENT, SessionHooks { step: opencode::session_step, model: None }),
    (&cline::AGENT, SessionHooks { step: cline::session_step, model: None }),
    (&qwen_code::AGENT, SessionHooks { step: qwen_code::session_step, model: None }),
    (&letta_code::AGENT, SessionHooks { step: letta_code::session_step, model: None }),
    (&kimi_cli::AGENT, SessionHooks { step: kimi_cli::session_step, model: None }),
    (&mistral_vibe::AGENT, SessionHooks { step: mistral_vibe::session_step, model: None }),
];

/// `agent`'s session code, `None` for profiles without sessions.
pub fn session_hooks(agent: &Agent) -> Option<&'static SessionHooks> {
    SESSIONS.iter().find(|(a, _)| std::ptr::eq(*a, agent)).map(|(_, h)| h)
}

/// What the CLI and the app say of a profile that does not exist.
pub fn unknown_agent(id: &str) -> String {
    let known: Vec<&str> = AGENTS.iter().map(|a| a.id).collect();
    format!("unknown agent `{id}`; known agents: {}", known.join(", "))
}
