//! Gemini CLI: Gemini CLI 0.61.0 (@google/gemini-cli, real program).
//! Work in progress: discovery and linting only; the prompt rendering is not written yet.

use crate::agent::Agent;
use crate::discover::DiscoveryPolicy;
use crate::library::NameKey;

pub static AGENT: Agent = Agent {
    id: "gemini-cli",
    title: "Gemini CLI",
    source: "Gemini CLI 0.61.0 (@google/gemini-cli, real program)",
    skills_ref_messages: false,
    levels: &[],
    discovery: DiscoveryPolicy::CHILDREN,
    key: NameKey::Frontmatter,
    prompt: None,
};
