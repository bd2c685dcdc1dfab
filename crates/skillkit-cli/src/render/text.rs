//! Human output: rustc-style diagnostics with the source line and the span underlined
//! (codespan-reporting), then a summary line. A line too long to print whole (a minified or
//! generated file, one line of megabytes) is shown as a window around the finding, so the output
//! stays proportional to the number of findings, not to the file.
//!
//! Everything goes through `Colored`: the source lines, messages and names as
//! [`skillkit::syntax::shown::Lines`] shows them, the colours as they are. A control character on a
//! source line is shown escaped (`\u{1b}`), so the carets under such a line are that many columns
//! short of it.

use codespan_reporting::diagnostic::{Diagnostic as Report, Label, Severity as Level};
use codespan_reporting::files::{Error as FilesError, Files, SimpleFile};
use codespan_reporting::term::{
    self,
    termcolor::{Ansi, ColorSpec, NoColor, WriteColor},
};
use skillkit::check::Checked;
use skillkit::syntax::shown::Lines;
use skillkit::syntax::text::floor_char_boundary;
use skillkit::{Agent, Applicability, Diagnostic, Severity};
use std::io::Write;
use std::ops::Range;
use std::path::Path;

/// Lines longer than this many bytes are shown as a window of about this size.
const LONG_LINE: usize = 400;
/// How much of a long line is shown before the finding.
const BEFORE: usize = 80;

fn level(s: Severity) -> Level {
    match s {
        Severity::Error => Level::Error,
        Severity::Warning => Level::Warning,
        Severity::Info => Level::Note,
    }
}

/// rustc-style diagnostics, each skill's as the check hands it over, then the summary.
pub struct Text<'a> {
    pub agent: &'a Agent,
    pub display: &'a dyn Fn(&Path) -> String,
    pub color: bool,
}

impl super::Report for Text<'_> {
    fn begin(&mut self, _: &mut dyn Write) -> std::io::Result<()> {
        Ok(())
    }

    fn skill(&mut self, out: &mut dyn Write, c: &Checked) -> std::io::Result<()> {
        let mut colored;
        let mut plain;
        let w: &mut dyn WriteColor = if self.color {
            colored = Colored(Lines::new(Ansi::new(&mut *out)));
            &mut colored
        } else {
            plain = Colored(Lines::new(NoColor::new(&mut *out)));
            &mut plain
        };
        let config = term::Config::default();
        let name = super::one_line(&super::skill_file(c, self.display)).into_owned();
        let text = c.skill.text.as_str();
        let file = SimpleFile::new(name.as_str(), text);
        for d in &c.diagnostics {
            let excerpt = touches_long_line(text, d).then(|| Excerpt::new(&name, text, d));
            let mut labels = vec![];
            let mut notes = vec![];
            match &excerpt {
                None => {
                    labels.push(Label::primary((), d.span.start..d.span.end));
                    labels.extend(
                        d.labels
                            .iter()
                            .map(|l| Label::secondary((), l.span.start..l.span.end).with_message(&l.message)),
                    );
                }
                Some(e) => {
                    labels.push(Label::primary((), e.range(d.span.start, d.span.end).expect("the window holds it")));
                    for l in &d.labels {
                        match e.range(l.span.start, l.span.end) {
                            Some(r) => labels.push(Label::secondary((), r).with_message(&l.message)),
                            None => notes.push(format!("{} ({}:{})", l.message, l.start.line, l.start.column)),
                        }
                    }
                }
            }
            if let Some(h) = &d.help {
                notes.push(format!("help: {h}"));
            }
            if let Some(f) = &d.fix {
                let how = match f.applicability {
                    Applicability::Safe => "fix",
                    Applicability::Unsafe => "fix (unsafe)",
                    Applicability::DisplayOnly => "suggestion",
                };
                notes.push(format!("{how}: {}", f.message));
            }
            notes.push(format!("rule: {} (skillkit explain {})", d.rule, d.code));
            let report = Report::new(level(d.severity))
                .with_code(d.code)
                .with_message(&d.message)
                .with_labels(labels)
                .with_notes(notes);
            match &excerpt {
                None => term::emit_to_write_style(w, &config, &file, &report),
                Some(e) => term::emit_to_write_style(w, &config, e, &report),
            }
            .map_err(std::io::Error::other)?;
        }
        // Dropping the writer writes what it holds back: a skill's report ends with a newline.
        Ok(())
    }

    fn end(&mut self, out: &mut dyn Write, end: &super::End<'_>) -> std::io::Result<()> {
        let out = &mut Lines::new(out);
        let s = &end.summary;
        let plural = |n: usize, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
        writeln!(
            out,
            "checked {} with `{}`: {}, {}, {}; {} valid, {} invalid",
            plural(s.skills, "skill"),
            self.agent.id,
            plural(s.errors, "error"),
            plural(s.warnings, "warning"),
            plural(s.infos, "note"),
            s.valid,
            s.invalid
        )?;
        if let Some(v) = end.verdict {
            writeln!(out, "{}", v.sentence())?;
            for f in &v.skipped {
                let reason = f.reason.as_deref().unwrap_or("not loaded");
                writeln!(out, "  {}: {}", super::one_line(&(self.display)(&f.dir)), super::one_line(reason))?;
            }
        }
        out.finish()
    }
}

/// A colour writer whose text is shown as [`Lines`] shows it, its colours written as they are.
struct Colored<W: WriteColor>(Lines<W>);

impl<W: WriteColor> Write for Colored<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

impl<W: WriteColor> WriteColor for Colored<W> {
    fn supports_color(&self) -> bool {
        self.0.get_ref().supports_color()
    }

    // A colour's escape sequence breaks a `::` or `##[` by itself, so what is held back can go
    // before it; without colours nothing is written, and nothing is released.
    fn set_color(&mut self, spec: &ColorSpec) -> std::io::Result<()> {
        if !self.supports_color() {
            return Ok(());
        }
        self.0.release()?;
        self.0.get_mut().set_color(spec)
    }

    fn reset(&mut self) -> std::io::Result<()> {
        if !self.supports_color() {
            return Ok(());
        }
        self.0.release()?;
        self.0.get_mut().reset()
    }
}

/// The line holding `offset`, looked for within [`LONG_LINE`] bytes either side of it (so that a
/// finding costs the same on any line): from its start, or where the search stopped, to its end,
/// or where the search stopped.
struct Nearby {
    range: Range<usize>,
    /// The line starts where `range` does (else it starts before).
    whole_start: bool,
    /// The line ends where `range` does (else it goes on).
    whole_end: bool,
}

impl Nearby {
    fn new(text: &str, offset: usize) -> Self {
        let b = text.as_bytes();
        let offset = offset.min(b.len());
        let from = offset.saturating_sub(LONG_LINE + 1);
        let to = (offset + LONG_LINE + 1).min(b.len());
        let start = b[from..offset].iter().rposition(|&c| c == b'\n').map(|i| from + i + 1);
        let end = b[offset..to].iter().position(|&c| c == b'\n').map(|i| offset + i);
        Nearby {
            range: start.unwrap_or(from)..end.unwrap_or(to),
            whole_start: start.is_some() || from == 0,
            whole_end: end.is_some() || to == b.len(),
        }
    }

    fn is_long(&self) -> bool {
        !self.whole_start || !self.whole_end || self.range.len() > LONG_LINE
    }
}

fn is_long_line(text: &str, offset: usize) -> bool {
    Nearby::new(text, offset).is_long()
}

/// Whether codespan would print a long line for `d`: one where a span starts or ends.
fn touches_long_line(text: &str, d: &Diagnostic) -> bool {
    std::iter::once(d.span)
        .chain(d.labels.iter().map(|l| l.span))
        .any(|s| is_long_line(text, s.start) || is_long_line(text, s.end))
}

/// The lines of one diagnostic as shown when one of them is long: each label's first line
/// only, a long one as a window from a little before the primary span (or the first label on
/// it), with `…` where cut. Line and column numbers are the file's; labels starting outside
/// the window are given as notes instead.
struct Excerpt<'a> {
    name: &'a str,
    text: String,
    lines: Vec<Shown>,
}

struct Shown {
    /// The window in the file.
    window: Range<usize>,
    /// Where it is in the excerpt's text, with the `…` around it.
    range: Range<usize>,
    /// Where the window's text starts in the excerpt.
    at: usize,
    /// 1-based line number in the file.
    number: usize,
    /// Characters of the file's line before the window.
    columns_before: usize,
}

impl<'a> Excerpt<'a> {
    fn new(name: &'a str, text: &str, d: &Diagnostic) -> Self {
        // Each label's first line, around its start; the primary first, so that a line holding
        // it is shown around it.
        let mut anchors = vec![(d.span.start, d.start)];
        anchors.extend(d.labels.iter().map(|l| (l.span.start, l.start)));
        let mut shown: Vec<(Shown, bool, bool)> = vec![];
        for (offset, at) in anchors {
            if shown.iter().any(|(s, ..)| s.number == at.line) {
                continue;
            }
            let near = Nearby::new(text, offset);
            let window = if near.is_long() {
                let start = floor_char_boundary(text, offset.saturating_sub(BEFORE).max(near.range.start));
                start..floor_char_boundary(text, (start + LONG_LINE).min(near.range.end))
            } else {
                near.range.clone()
            };
            let cut_before = window.start > near.range.start || !near.whole_start;
            let cut_after = window.end < near.range.end || !near.whole_end;
            let columns_before = at.column - 1 - text[window.start..offset.max(window.start)].chars().count();
            let line = Shown { window, range: 0..0, at: 0, number: at.line, columns_before };
            shown.push((line, cut_before, cut_after));
        }
        shown.sort_by_key(|(s, ..)| s.number);
        let mut out = String::new();
        let mut lines = Vec::with_capacity(shown.len());
        for (mut s, cut_before, cut_after) in shown {
            let start = out.len();
            if cut_before {
                out.push('…');
            }
            s.at = out.len();
            out.push_str(&text[s.window.clone()]);
            if cut_after {
                out.push('…');
            }
            s.range = start..out.len();
            out.push('\n');
            lines.push(s);
        }
        Excerpt { name, text: out, lines }
    }

    /// Where the file's `start..end` is shown: within the window holding its start, cut at the
    /// window's end; `None` when its start is not shown.
    fn range(&self, start: usize, end: usize) -> Option<Range<usize>> {
        let s = self.lines.iter().find(|s| s.window.start <= start && start <= s.window.end)?;
        let at = |o: usize| s.at + (o.clamp(s.window.start, s.window.end) - s.window.start);
        Some(at(start)..at(end.max(start)))
    }
}

impl<'a> Files<'a> for Excerpt<'_> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, _: ()) -> Result<&'a str, FilesError> {
        Ok(self.name)
    }

    fn source(&'a self, _: ()) -> Result<&'a str, FilesError> {
        Ok(&self.text)
    }

    fn line_index(&'a self, _: (), byte_index: usize) -> Result<usize, FilesError> {
        Ok(self.lines.iter().rposition(|s| s.range.start <= byte_index).unwrap_or(0))
    }

    fn line_number(&'a self, _: (), line_index: usize) -> Result<usize, FilesError> {
        Ok(self.lines.get(line_index).map_or(line_index + 1, |s| s.number))
    }

    fn column_number(&'a self, _: (), line_index: usize, byte_index: usize) -> Result<usize, FilesError> {
        let s =
            self.lines.get(line_index).ok_or(FilesError::LineTooLarge { given: line_index, max: self.lines.len() })?;
        let from = s.at;
        let shown = self.text.get(from..byte_index.max(from)).map_or(0, |t| t.chars().count());
        Ok(s.columns_before + shown + 1)
    }

    fn line_range(&'a self, _: (), line_index: usize) -> Result<Range<usize>, FilesError> {
        let s =
            self.lines.get(line_index).ok_or(FilesError::LineTooLarge { given: line_index, max: self.lines.len() })?;
        Ok(s.range.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillkit::agents::SPEC;
    use skillkit::check::CheckRun;
    use skillkit::Skill;

    fn rendered(text: &str) -> String {
        let skill = Skill::parse("/skills/my-skill", "SKILL.md", text.to_string());
        let diagnostics = skillkit::lint(&skill, &SPEC);
        let run =
            CheckRun { skills: vec![Checked { skill: Box::new(skill), diagnostics }], issues: vec![], verdict: None };
        let mut out = Vec::new();
        let display = |_: &Path| "SKILL.md".to_string();
        super::super::whole(&mut Text { agent: &SPEC, display: &display, color: false }, &run, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_finding_on_a_long_line_shows_a_window_of_it_with_the_files_line_and_column() {
        // An unquoted `: ` 30,000 characters into a description: the error is on the value, its
        // label on the second colon, far outside the value's window. Three findings, each
        // shown in a window, not the whole 60 KB line.
        let long = format!("{}: more", "é".repeat(30_000));
        let out = rendered(&format!("---\nname: my-skill\ndescription: {long}\n---\nBody.\n"));
        assert!(out.contains("┌─ SKILL.md:3:14\n"), "{out}");
        assert!(out.contains(&format!("3 │ description: {}…\n", "é".repeat(LONG_LINE / 2 - 7))), "{out}");
        assert!(out.contains("= YAML reads a second key here (3:30014)"), "{out}");
        assert!(out.len() < 10_000, "{} bytes:\n{out}", out.len());
    }

    #[test]
    fn a_window_starts_a_little_before_the_finding() {
        // A flow-style list 2,000 characters into a line: shown from BEFORE bytes before it.
        let out = rendered(&format!(
            "---\nname: my-skill\ndescription: d\nmetadata: {{a: {}, b: [x]}}\n---\nBody.\n",
            "y".repeat(2000)
        ));
        let flow = out.split("\n\n").find(|r| r.contains("flow-style list")).expect(&out);
        assert!(
            flow.contains(&format!("┌─ SKILL.md:4:{}\n", 2 + "metadata: {a: ".len() + 2000 + ", b: ".len() - 1)),
            "{flow}"
        );
        assert!(flow.contains(&format!("4 │ …{}, b: [x]}}\n", "y".repeat(BEFORE - ", b: ".len()))), "{flow}");
    }
}
