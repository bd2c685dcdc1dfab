//! DeepAgents V1 (seed template): seed 004_3536bc534ef998c7.txt (the V1 template quoted there).
//! Work in progress: discovery and linting only; the prompt rendering is not written yet.

use crate::agent::Agent;
use crate::discover::DiscoveryPolicy;
use crate::library::NameKey;

pub static AGENT: Agent = Agent {
    id: "deepagents-v1",
    title: "DeepAgents V1 (seed template)",
    source: "seed 004_3536bc534ef998c7.txt (the V1 template quoted there)",
    skills_ref_messages: false,
    levels: &[],
    discovery: DiscoveryPolicy::CHILDREN,
    key: NameKey::Frontmatter,
    prompt: None,
};
