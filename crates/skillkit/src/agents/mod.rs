//! One file per agent that advertises skills to a model. Each file states the program and version
//! (or seed document and section) it reproduces, and holds everything that agent does its own
//! way: discovery, how leniently it reads frontmatter, the exact text it injects and where, its
//! listing budget, and its skill tools. [`crate::agent::AGENTS`] is the registry.

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
