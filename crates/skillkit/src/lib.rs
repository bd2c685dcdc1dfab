//! skillkit: the Skill Studio engine. It reads Agent Skills (`SKILL.md` folders), lints them with
//! exact positions under an agent's profile, and explains each rule. No UI, no printing: the CLI
//! and the desktop app render what it returns.
//!
//! The pipeline: [`read`] (disk) → [`skill::Skill`] ([`split`] → [`yaml`] → [`frontmatter`]) →
//! [`lint::lint`] under an [`agent::Agent`] → [`diagnostic::Diagnostic`]s.

pub mod agent;
pub mod agents;
pub mod check;
pub mod diagnostic;
pub mod discover;
pub mod docs;
pub mod fields;
pub mod frontmatter;
pub mod frontmatter_edit;
pub mod library;
pub mod lint;
pub mod markdown;
mod pretok;
pub mod preview;
pub mod profile;
pub mod prompt;
pub mod read;
pub mod resources;
pub mod rules;
pub mod scaffold;
pub mod schema;
pub mod scope;
pub mod session;
pub mod session_script;
pub mod simulate;
pub mod skill;
pub mod split;
pub mod text;
pub mod tokens;
pub mod verdict;
pub mod watch;
pub mod yaml;
pub mod yaml11;

#[cfg(test)]
mod testing;

pub use agent::Agent;
pub use agents::{find_agent, AGENTS};
pub use diagnostic::{Applicability, Diagnostic, Edit, Fix, Label, Severity};
pub use lint::{is_valid, lint};
pub use skill::Skill;
pub use text::{Position, Span};
