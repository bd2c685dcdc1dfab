//! What a rule is ([`Rule`], [`RuleMeta`], [`Group`], declared with `declare_rule!`) and what it
//! reports into ([`Context`]): below the rule files, which `mod.rs` lists in the rule table.

use crate::lint::diagnostic::{Applicability, Diagnostic, Edit, Fix, Label, Severity};
use crate::lint::profile::{Level, LintProfile};
use crate::skill::Skill;
use crate::syntax::text::{Position, Span};

/// The most diagnostics one file gets; see `too-many-findings` (SK009).
pub const MAX_DIAGNOSTICS: usize = 1_000;

/// Keep the `cap` diagnostics that come first by severity, then position, then code (ties in
/// the order they were reported). Rules report into a list that [`Context`] trims with this
/// whenever it reaches twice the cap, so memory stays bounded whatever a file holds; trimming
/// early keeps exactly what trimming once at the end would.
pub(crate) fn keep_most_severe(out: &mut Vec<Diagnostic>, cap: usize) {
    if out.len() > cap {
        out.sort_by(|a, b| (a.severity, a.span.start, a.code).cmp(&(b.severity, b.span.start, b.code)));
        out.truncate(cap);
    }
}

/// Families of rules, as the rule table (`docs/rules.md`) groups them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    /// Reading the file itself.
    File,
    /// Finding and parsing the frontmatter.
    Frontmatter,
    /// The agentskills.io specification's fields.
    Spec,
    /// YAML that agents read differently, or drop.
    Parity,
    /// Keys the specification does not define.
    Keys,
    /// Best practice for the body.
    Body,
    /// Checks across the skills of a library.
    Library,
    /// The packages skills ship in: upload archives, plugins, marketplaces (`crate::package`).
    Package,
}

impl Group {
    pub fn title(self) -> &'static str {
        match self {
            Group::File => "File",
            Group::Frontmatter => "Frontmatter",
            Group::Spec => "Specification",
            Group::Parity => "Loader parity",
            Group::Keys => "Keys",
            Group::Body => "Body",
            Group::Library => "Library",
            Group::Package => "Packages",
        }
    }
}

/// Whether a rule offers a fix, and how safe it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixKind {
    None,
    Safe,
    Unsafe,
    DisplayOnly,
}

/// A rule's static description.
#[derive(Debug)]
pub struct RuleMeta {
    pub code: &'static str,
    pub name: &'static str,
    pub group: Group,
    /// Severity under the default `spec` profile.
    pub severity: Severity,
    pub fix: FixKind,
    /// Where the rule comes from: spec clauses, loader behaviour, skills-ref messages.
    pub sources: &'static [&'static str],
    /// The rule's doc comment, Markdown.
    pub docs: &'static str,
}

impl RuleMeta {
    /// The first line of the docs: a one-sentence summary.
    pub fn summary(&self) -> &'static str {
        self.docs.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#')).unwrap_or("")
    }

    /// The doc comment with the one leading space of each `///` line removed.
    pub fn docs_text(&self) -> String {
        self.docs.lines().map(|l| l.strip_prefix(' ').unwrap_or(l)).collect::<Vec<_>>().join("\n")
    }

    pub fn docs_path(&self) -> String {
        format!("docs/rules/{}.md", self.name)
    }

    /// A finding of this rule on `span` of `skill`, made outside a lint run (the library-level
    /// rules: duplicate names, an agent's verdict, nesting), positions filled in.
    pub fn diagnostic(
        &self,
        skill: &Skill,
        severity: Severity,
        span: Span,
        message: String,
        help: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            code: self.code,
            rule: self.name,
            severity,
            message,
            span,
            start: skill.lines.position(&skill.text, span.start),
            end: skill.lines.position(&skill.text, span.end),
            labels: vec![],
            help: Some(help.into()),
            docs: self.docs_path(),
            fix: None,
        }
    }
}

pub trait Rule: Sync {
    fn meta(&self) -> &'static RuleMeta;
    fn check(&self, cx: &mut Context<'_>);
}

/// Declare a rule: its doc comment becomes [`RuleMeta::docs`].
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])*
        pub $ty:ident {
            code: $code:literal,
            name: $name:literal,
            group: $group:ident,
            severity: $sev:ident,
            fix: $fix:ident,
            sources: [$($src:literal),* $(,)?] $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        // The examples' info strings (`skill folder=…`, `skill eof`) are read by this crate's own
        // docs tests and renderer, not by rustdoc.
        #[allow(rustdoc::invalid_codeblock_attributes)]
        pub struct $ty;
        impl $ty {
            pub const META: $crate::lint::rules::RuleMeta = $crate::lint::rules::RuleMeta {
                code: $code,
                name: $name,
                group: $crate::lint::rules::Group::$group,
                severity: $crate::lint::diagnostic::Severity::$sev,
                fix: $crate::lint::rules::FixKind::$fix,
                sources: &[$($src),*],
                docs: concat!($($doc, "\n"),*),
            };
        }
    };
}

/// What a rule sees, and where its findings go.
pub struct Context<'a> {
    pub skill: &'a Skill,
    pub profile: &'a LintProfile,
    pub(crate) rule: &'static RuleMeta,
    /// The findings so far, trimmed to the most severe [`MAX_DIAGNOSTICS`] whenever it reaches
    /// twice that (see [`crate::lint::lint`]).
    pub(crate) out: Vec<Diagnostic>,
    /// How many findings were reported, by severity, trimmed or not.
    pub(crate) reported: [usize; 3],
}

/// The most labels one diagnostic carries; a rule listing more (skills-ref's one error for every
/// unexpected key) stops labelling there.
pub const MAX_LABELS: usize = 100;

/// Adds details to a reported diagnostic; does nothing when the profile turned the rule off.
pub struct Report<'a>(Option<&'a mut Diagnostic>);

impl Report<'_> {
    pub fn help(mut self, help: impl Into<String>) -> Self {
        if let Some(d) = self.0.as_deref_mut() {
            d.help = Some(help.into());
        }
        self
    }
    pub fn label(mut self, span: Span, message: impl Into<String>) -> Self {
        if let Some(d) = self.0.as_deref_mut().filter(|d| d.labels.len() < MAX_LABELS) {
            d.labels.push(Label {
                span,
                message: message.into(),
                start: Position::default(),
                end: Position::default(),
            });
        }
        self
    }
    pub fn fix(mut self, message: impl Into<String>, applicability: Applicability, edits: Vec<Edit>) -> Self {
        if let Some(d) = self.0.as_deref_mut() {
            d.fix = Some(Fix { message: message.into(), applicability, edits });
        }
        self
    }
}

impl<'a> Context<'a> {
    pub fn text(&self) -> &'a str {
        &self.skill.text
    }

    /// Whether messages should be skills-ref's exact wording (the `agentskills` profile).
    pub fn skills_ref(&self) -> bool {
        self.profile.skills_ref_messages
    }

    /// Report at the rule's default severity (or the profile's override).
    pub fn report(&mut self, span: Span, message: impl Into<String>) -> Report<'_> {
        self.report_as(self.rule.severity, span, message)
    }

    /// Report at a severity chosen for this case; a profile override still wins.
    pub fn report_as(&mut self, severity: Severity, span: Span, message: impl Into<String>) -> Report<'_> {
        let severity = match self.profile.level(self.rule.name) {
            Level::Off => return Report(None),
            Level::Default => severity,
            Level::Set(s) => s,
        };
        debug_assert!(self.skill.text.is_char_boundary(span.start) && self.skill.text.is_char_boundary(span.end));
        if self.out.len() >= 2 * MAX_DIAGNOSTICS {
            keep_most_severe(&mut self.out, MAX_DIAGNOSTICS);
        }
        self.reported[severity as usize] += 1;
        self.out.push(Diagnostic {
            code: self.rule.code,
            rule: self.rule.name,
            severity,
            message: message.into(),
            span,
            start: Position::default(),
            end: Position::default(),
            labels: vec![],
            help: None,
            docs: self.rule.docs_path(),
            fix: None,
        });
        Report(self.out.last_mut())
    }
}
