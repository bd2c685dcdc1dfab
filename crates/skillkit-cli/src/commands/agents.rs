//! `skillkit agents`: the agent profiles, and whether each renders a prompt or only lints.

use skillkit::AGENTS;
use std::io::Write;

pub(crate) fn agents(out: &mut dyn Write) -> std::io::Result<i32> {
    AGENTS
        .iter()
        .try_for_each(|a| {
            let kind = if a.prompt.is_some() { "lint, prompt" } else { "lint" };
            writeln!(out, "{:<14} {:<13} {}: {}", a.id, kind, a.title, a.source)
        })
        .map(|_| 0)
}
