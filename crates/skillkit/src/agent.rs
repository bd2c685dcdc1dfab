//! Agent profiles: which rules apply and how strictly, how the agent discovers skills, and how it
//! advertises them to the model. `spec` (the default: the specification's MUSTs are errors, fields
//! other agents know are warnings naming them) and `agentskills` (as strict as skills-ref 0.1.1,
//! with its exact messages) are defined here; each agent with a prompt has its own file under
//! [`crate::agents`], citing the program and version (or seed document) it was verified against.

use crate::diagnostic::Severity;
use crate::discover::DiscoveryPolicy;
use crate::library::NameKey;
use crate::prompt::{Prompt, RenderInput};
use crate::rules::RuleMeta;

/// A profile's setting for one rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Off,
    /// The severity the rule chooses (its default, or per case).
    Default,
    Set(Severity),
}

#[derive(Debug)]
pub struct Agent {
    pub id: &'static str,
    pub title: &'static str,
    /// The program and version, or document, the profile was verified against.
    pub source: &'static str,
    /// Report skills-ref's exact wording as the message.
    pub skills_ref_messages: bool,
    /// Rule name → level; rules not listed run at their default.
    pub levels: &'static [(&'static str, Level)],
    /// How the agent finds skills in a source.
    pub discovery: DiscoveryPolicy,
    /// How the agent keys skills when sources clash.
    pub key: NameKey,
    /// Renders the exact text the agent injects to advertise skills; `None` for profiles that
    /// only lint (`spec`).
    pub prompt: Option<fn(&RenderInput<'_>) -> Prompt>,
    /// Reads every skill of a library the way the agent's loader does and remembers each reading
    /// in its entry ([`crate::library::Entry::reading`]), so that renders only format and count.
    /// [`crate::library::Library::open`] runs it.
    pub read: Option<fn(&crate::library::Library)>,
}

impl Agent {
    pub fn level(&self, rule: &RuleMeta) -> Level {
        self.levels.iter().find(|(n, _)| *n == rule.name).map_or(Level::Default, |(_, l)| *l)
    }
}

pub static SPEC: Agent = Agent {
    id: "spec",
    title: "Agent Skills specification",
    source: "agentskills.io docs/specification.mdx (agentskills/agentskills 69ef37e, 2026-08-09)",
    skills_ref_messages: false,
    levels: &[],
    // The client guide's search, reporting nested skills too (`skillkit tree` shows every skill).
    discovery: DiscoveryPolicy { nested: true, ..DiscoveryPolicy::CLIENT_GUIDE },
    key: NameKey::Frontmatter,
    prompt: None,
    read: None,
};

pub use crate::agents::agentskills::AGENT as AGENTSKILLS;

/// Every profile, in the order `skillkit agents` lists them.
pub static AGENTS: &[&Agent] = &[
    &SPEC,
    &AGENTSKILLS,
    &crate::agents::deepagents::AGENT,
    &crate::agents::deepagents_v1::AGENT,
    &crate::agents::deepagents_v2::AGENT,
    &crate::agents::claude_code::AGENT,
    &crate::agents::codex::AGENT,
    &crate::agents::gemini_cli::AGENT,
    &crate::agents::harness9::AGENT,
];

pub fn find_agent(id: &str) -> Option<&'static Agent> {
    AGENTS.iter().copied().find(|a| a.id == id)
}
