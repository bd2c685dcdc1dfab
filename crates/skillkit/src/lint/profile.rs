//! A lint profile: how strictly the rules apply (a level per rule) and whose wording they use.
//! Every agent profile ([`crate::agent::Agent`]) has one; the rules, [`crate::lint::lint()`] and the
//! library see only this, never the whole agent.

use crate::lint::diagnostic::Severity;

/// A profile's setting for one rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Off,
    /// The severity the rule chooses (its default, or per case).
    Default,
    Set(Severity),
}

#[derive(Clone, Copy, Debug)]
pub struct LintProfile {
    /// Report skills-ref's exact wording as the message.
    pub skills_ref_messages: bool,
    /// Rule name → level; rules not listed run at their default.
    pub levels: &'static [(&'static str, Level)],
}

impl LintProfile {
    /// Every rule at its default level, in the engine's own words.
    pub const DEFAULT: LintProfile = LintProfile { skills_ref_messages: false, levels: &[] };

    /// The level of the rule named `rule` (`name-format`).
    pub fn level(&self, rule: &str) -> Level {
        self.levels.iter().find(|(n, _)| *n == rule).map_or(Level::Default, |(_, l)| *l)
    }
}

impl AsRef<LintProfile> for LintProfile {
    fn as_ref(&self) -> &LintProfile {
        self
    }
}
