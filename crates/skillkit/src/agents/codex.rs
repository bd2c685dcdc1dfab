//! OpenAI Codex CLI: OpenAI Codex CLI 0.169.0 (@openai/codex, real program).
//! Work in progress: discovery and linting only; the prompt rendering is not written yet.

use crate::agent::Agent;
use crate::discover::DiscoveryPolicy;
use crate::library::NameKey;

pub static AGENT: Agent = Agent {
    id: "codex",
    title: "OpenAI Codex CLI",
    source: "OpenAI Codex CLI 0.169.0 (@openai/codex, real program)",
    skills_ref_messages: false,
    levels: &[],
    discovery: DiscoveryPolicy::CHILDREN,
    key: NameKey::Frontmatter,
    prompt: None,
};
