//! skillkit: the Skill Studio engine. It reads Agent Skills (`SKILL.md` folders), lints them with
//! exact positions under an agent's profile, and explains each rule. No UI, no printing: the CLI
//! and the desktop app render what it returns.
//!
//! The pipeline, one folder (or file) per stage, each using only the ones before it:
//! - [`syntax`]: text positions, the split into frontmatter and body, YAML with spans, the
//!   frontmatter's fields, Markdown and its references, the JSON Schema, token counts;
//! - [`read`], [`scope`], [`files`], [`resources`], [`skill`]: a skill read from disk, within the
//!   library; the library's own files (scripts, suites, configuration) read and named safely;
//! - [`mod@lint`]: the rules (`lint/rules/`, one file each), the lint profile, diagnostics;
//! - [`library`]: sources, discovery, the watcher (a discovery policy, a name key, a lint profile);
//! - [`package`]: the packages skills ship in (plugins, marketplaces, upload archives);
//! - [`agent_settings`] (each agent's listing settings and where they come from), [`prompt`]
//!   (shared prompt types) and [`agent`] (the profile type), then [`session`] (the state a
//!   session step works on);
//! - [`agents`]: one folder or file per agent profile, and the registry;
//! - [`verdict`], [`check`], [`simulate`], [`preview`], [`frontmatter_edit`], [`scaffold`],
//!   [`docs`]: what the CLI and the app ask for;
//! - [`workspace`]: an editor's view of a library (what `skillkit lsp` translates).
//!
//! The modules of the early stages are also re-exported at the crate root (`skillkit::syntax::text`,
//! `skillkit::lint::rules`, …), the paths the CLI, the app and the tests use.

pub mod agent;
pub mod agent_settings;
pub mod agents;
pub mod check;
pub mod config;
pub mod docs;
pub mod eval;
pub mod files;
pub mod frontmatter_edit;
pub mod library;
pub mod lint;
pub mod live;
pub mod matrix;
pub mod model;
pub mod package;
pub mod preview;
pub mod prompt;
pub mod read;
pub mod resources;
pub mod scaffold;
pub mod scope;
pub mod session;
pub mod simulate;
pub mod skill;
pub mod syntax;
pub mod verdict;
pub mod workspace;

#[cfg(test)]
mod testing;

pub use agent::{Agent, AgentKind};
pub use agents::{find_agent, AGENTS};
pub use lint::diagnostic::{Applicability, Diagnostic, Edit, Fix, Label, Severity};
pub use lint::{is_valid, lint};
pub use skill::Skill;
pub use syntax::text::{Position, Span};
