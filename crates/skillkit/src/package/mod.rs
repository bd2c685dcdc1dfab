//! Packages: the forms skills ship in, a set of skills plus a manifest. After the library in the
//! pipeline: a package's skills are read and linted as any library's, then judged as installed
//! from the package.
//!
//! - [`detect`]: what a path holds (an upload `.zip`, a Claude Code plugin or marketplace, an
//!   Agent Plugins 1.0 package, a Codex plugin, a Copilot root `plugin.json`, a folder of
//!   plugins) and each plugin's skills as installed;
//! - [`format`]: the formats, as the agent profiles name the ones they install from;
//! - [`json`]: JSON with spans, so that a manifest's findings point at their node;
//! - [`manifest`]: the manifests read safely and judged against their formats;
//! - [`archive`]: an upload archive read with its limits checked before inflating;
//! - [`upload`]: the skill upload's rules, with its own messages;
//! - [`check`]: `skillkit check` on a package;
//! - [`digest`]: `skills-lock.json` digests, and verifying an installed copy;
//! - [`pack`]: building the packages (`skillkit pack`).
//!
//! The rules are in `lint/rules/package/`, one file each; their examples (```` ```package ````
//! blocks: files after `-- path` lines, zipped for ```` ```package zip ````) run as tests here.

pub mod archive;
pub mod check;
pub mod detect;
pub mod digest;
pub mod format;
pub mod json;
pub mod manifest;
pub mod pack;
pub mod upload;

#[cfg(test)]
mod doc_examples;
