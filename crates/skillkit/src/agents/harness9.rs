//! harness9 (seed design): seed 002_246df5754482a3d2.txt (## Available Skills, use_skill).
//! Work in progress: discovery and linting only; the prompt rendering is not written yet.

use crate::agent::Agent;
use crate::discover::DiscoveryPolicy;
use crate::library::NameKey;

pub static AGENT: Agent = Agent {
    id: "harness9",
    title: "harness9 (seed design)",
    source: "seed 002_246df5754482a3d2.txt (## Available Skills, use_skill)",
    skills_ref_messages: false,
    levels: &[],
    discovery: DiscoveryPolicy::CHILDREN,
    key: NameKey::Frontmatter,
    prompt: None,
};
