//! Claude Code: Claude Code CLI 2.1.330 (@anthropic-ai/claude-code, real program).
//! Work in progress: discovery and linting only; the prompt rendering is not written yet.

use crate::agent::Agent;
use crate::discover::DiscoveryPolicy;
use crate::library::NameKey;

pub static AGENT: Agent = Agent {
    id: "claude-code",
    title: "Claude Code",
    source: "Claude Code CLI 2.1.330 (@anthropic-ai/claude-code, real program)",
    skills_ref_messages: false,
    levels: &[],
    discovery: DiscoveryPolicy::CHILDREN,
    key: NameKey::Folder,
    prompt: None,
};
