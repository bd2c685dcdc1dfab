//! One file per agent that advertises skills to a model. Each file states the program and version
//! (or seed document and section) it reproduces, and holds everything that agent does its own
//! way: discovery, how leniently it reads frontmatter, the exact text it injects and where, its
//! listing budget, and its skill tools. [`crate::agent::AGENTS`] is the registry.

pub mod deepagents;
pub mod python;
