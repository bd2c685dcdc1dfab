//! One file per agent that advertises skills to a model. Each file states the program and version
//! (or seed document and section) it reproduces, and holds everything that agent does its own
//! way: discovery, how leniently it reads frontmatter, the exact text it injects and where, its
//! listing budget, and its skill tools. [`AGENTS`] is the registry; `spec`
//! (the default: the specification's MUSTs are errors, fields other agents know are warnings
//! naming them) lints only, and `agentskills` is as strict as skills-ref 0.1.1.

mod activation;
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

use crate::agent::{Agent, AgentKind, LintProfile};
use crate::library::discover::DiscoveryPolicy;
use crate::library::NameKey;
use crate::prompt::RenderInput;
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
    installs: &[],
};

pub use agentskills::AGENT as AGENTSKILLS;

/// Every profile, in the order `skillkit agents` lists them.
pub static AGENTS: &[&Agent] = &[
    &SPEC,
    &AGENTSKILLS,
    &deepagents::AGENT,
    &deepagents::v1::AGENT,
    &deepagents::v2::AGENT,
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

pub fn find_agent(id: &str) -> Option<&'static Agent> {
    AGENTS.iter().copied().find(|a| a.id == id)
}

/// A profile's session code: how it handles a step, and, for an agent whose skills prompt
/// changes as skills load, the incremental prompt the session keeps current (with the agent's
/// default context window).
pub struct SessionHooks {
    pub step: fn(&mut Session, &Step) -> Outcome,
    pub prompt: Option<IncrementalPromptFn>,
}

/// Builds the incremental skills prompt a session keeps current
/// ([`crate::session::SkillsPrompt::Incremental`]), with the agent's default context window.
pub type IncrementalPromptFn = fn(&RenderInput<'_>) -> (Box<dyn IncrementalPrompt>, u64);

/// Every profile that simulates sessions, with its session code.
static SESSIONS: &[(&Agent, SessionHooks)] = &[
    (&deepagents::AGENT, SessionHooks { step: deepagents::session_step, prompt: None }),
    (&deepagents::v1::AGENT, SessionHooks { step: deepagents::session_step, prompt: None }),
    (
        &deepagents::v2::AGENT,
        SessionHooks { step: deepagents::v2::session_step, prompt: Some(deepagents::v2::session_prompt) },
    ),
    (&claude_code::AGENT, SessionHooks { step: claude_code::session_step, prompt: None }),
    (&codex::AGENT, SessionHooks { step: codex::session_step, prompt: None }),
    (&gemini_cli::AGENT, SessionHooks { step: gemini_cli::session_step, prompt: None }),
    (&copilot_cli::AGENT, SessionHooks { step: copilot_cli::session_step, prompt: None }),
    (&harness9::AGENT, SessionHooks { step: harness9::session_step, prompt: None }),
    (&opencode::AGENT, SessionHooks { step: opencode::session_step, prompt: None }),
    (&cline::AGENT, SessionHooks { step: cline::session_step, prompt: None }),
    (&qwen_code::AGENT, SessionHooks { step: qwen_code::session_step, prompt: None }),
    (&letta_code::AGENT, SessionHooks { step: letta_code::session_step, prompt: None }),
    (&kimi_cli::AGENT, SessionHooks { step: kimi_cli::session_step, prompt: None }),
    (&mistral_vibe::AGENT, SessionHooks { step: mistral_vibe::session_step, prompt: None }),
];

/// `agent`'s session code, `None` for profiles without sessions.
pub fn session_hooks(agent: &Agent) -> Option<&'static SessionHooks> {
    SESSIONS.iter().find(|(a, _)| std::ptr::eq(*a, agent)).map(|(_, h)| h)
}

/// The one sentence for a profile that only lints (`spec`) where an agent with a prompt is needed
/// (a prompt, a session, an eval): every front end says it this way.
pub fn only_lints(id: &str) -> String {
    let with: Vec<&str> = AGENTS.iter().filter(|a| a.prompt.is_some()).map(|a| a.id).collect();
    format!("`{id}` only lints; it injects no prompt (agents with a prompt: {})", with.join(", "))
}

/// The profile a session runs as: `id` must name one with a prompt. The mistake otherwise, as a
/// session script reports it at its `agent:` (the script parser keeps the id; this checks it).
pub fn session_agent(id: &str) -> Result<&'static Agent, String> {
    match find_agent(id) {
        Some(agent) if agent.prompt.is_some() => Ok(agent),
        Some(_) => Err(only_lints(id)),
        None => {
            let known: Vec<&str> = AGENTS.iter().filter(|a| a.prompt.is_some()).map(|a| a.id).collect();
            Err(format!("unknown agent `{id}`; known: {}", known.join(", ")))
        }
    }
}

/// What the CLI and the app say of a profile that does not exist.
pub fn unknown_agent(id: &str) -> String {
    let known: Vec<&str> = AGENTS.iter().map(|a| a.id).collect();
    format!("unknown agent `{id}`; known agents: {}", known.join(", "))
}
