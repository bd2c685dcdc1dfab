//! One file per agent that advertises skills to a model. Each file states the program and version
//! (or seed document and section) it reproduces, and holds everything that agent does its own
//! way: discovery, how leniently it reads frontmatter, the exact text it injects and where, its
//! listing budget, and its skill tools. [`AGENTS`] is the registry; `spec`
//! (the default: the specification's MUSTs are errors, fields other agents know are warnings
//! naming them) lints only, and `agentskills` is as strict as skills-ref 0.1.1.

pub mod agentskills;
pub mod claude_code;
pub mod codex;
pub mod deepagents;
pub mod deepagents_read;
pub mod deepagents_v1;
pub mod deepagents_v2;
pub mod gemini_cli;
pub mod harness9;
pub mod python;

use crate::agent::{Agent, LintProfile};
use crate::library::discover::DiscoveryPolicy;
use crate::library::NameKey;

/// The agentskills.io specification (lint only): the default profile.
pub static SPEC: Agent = Agent {
    id: "spec",
    title: "Agent Skills specification",
    source: "agentskills.io docs/specification.mdx (agentskills/agentskills 69ef37e, 2026-08-09)",
    lint: LintProfile::DEFAULT,
    // The client guide's search, reporting nested skills too (`skillkit tree` shows every skill).
    discovery: DiscoveryPolicy { nested: true, ..DiscoveryPolicy::CLIENT_GUIDE },
    key: NameKey::Frontmatter,
    prompt: None,
    read: None,
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
    &harness9::AGENT,
];

pub fn find_agent(id: &str) -> Option<&'static Agent> {
    AGENTS.iter().copied().find(|a| a.id == id)
}

/// What the CLI and the app say of a profile that does not exist.
pub fn unknown_agent(id: &str) -> String {
    let known: Vec<&str> = AGENTS.iter().map(|a| a.id).collect();
    format!("unknown agent `{id}`; known agents: {}", known.join(", "))
}
