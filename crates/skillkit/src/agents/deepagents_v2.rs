//! DeepAgents V2 (seed design): seed 000_248ad29e8601cff1.txt (V2 template, load_skill) and seed 003_32eee1f43a409d1e.txt (RESTRICT).
//! Work in progress: discovery and linting only; the prompt rendering is not written yet.

use crate::agent::Agent;
use crate::discover::DiscoveryPolicy;
use crate::library::NameKey;

pub static AGENT: Agent = Agent {
    id: "deepagents-v2",
    title: "DeepAgents V2 (seed design)",
    source: "seed 000_248ad29e8601cff1.txt (V2 template, load_skill) and seed 003_32eee1f43a409d1e.txt (RESTRICT)",
    skills_ref_messages: false,
    levels: &[],
    discovery: DiscoveryPolicy::CHILDREN,
    key: NameKey::Frontmatter,
    prompt: None,
};
