//! The SKILL.md body as Markdown: file references ([`references`], their destinations parsed by
//! [`target`], most read by the fast scanner [`references_fast`]), the heading outline
//! ([`outline`]), and the sanitized HTML preview ([`html`], with its depth check [`depth`] and its
//! policy [`sanitize`]). Every function takes the whole file text and the body's span, and every span it
//! returns is into the whole file text, so diagnostics and editor marks need no translation.

use pulldown_cmark::Options;

pub mod depth;
pub mod html;
pub mod outline;
pub mod references;
mod references_fast;
mod sanitize;
pub mod target;
#[cfg(test)]
mod testing;

/// The Markdown dialect used everywhere here (GitHub's: tables, strikethrough, task lists).
pub(crate) fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}
