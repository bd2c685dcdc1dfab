//! Human output: rustc-style diagnostics with the source line and the span underlined
//! (codespan-reporting), then a summary line.

use codespan_reporting::diagnostic::{Diagnostic as Report, Label, Severity as Level};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{
    self,
    termcolor::{Ansi, NoColor, WriteColor},
};
use skillkit::check::CheckRun;
use skillkit::{Agent, Applicability, Severity};
use std::io::Write;
use std::path::Path;

fn level(s: Severity) -> Level {
    match s {
        Severity::Error => Level::Error,
        Severity::Warning => Level::Warning,
        Severity::Info => Level::Note,
    }
}

pub fn render(
    run: &CheckRun,
    agent: &Agent,
    display: &dyn Fn(&Path) -> String,
    color: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut colored;
    let mut plain;
    let w: &mut dyn WriteColor = if color {
        colored = Ansi::new(&mut *out);
        &mut colored
    } else {
        plain = NoColor::new(&mut *out);
        &mut plain
    };
    let config = term::Config::default();
    for c in &run.skills {
        let file = SimpleFile::new(super::skill_file(c, display), c.skill.text.as_str());
        for d in &c.diagnostics {
            let mut labels = vec![Label::primary((), d.span.start..d.span.end)];
            labels.extend(
                d.labels.iter().map(|l| Label::secondary((), l.span.start..l.span.end).with_message(&l.message)),
            );
            let mut notes = vec![];
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
            term::emit_to_write_style(w, &config, &file, &report).map_err(std::io::Error::other)?;
        }
    }
    let s = run.summary();
    let plural = |n: usize, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    writeln!(
        w,
        "checked {} with `{}`: {}, {}, {}; {} valid, {} invalid",
        plural(s.skills, "skill"),
        agent.id,
        plural(s.errors, "error"),
        plural(s.warnings, "warning"),
        plural(s.infos, "note"),
        s.valid,
        s.invalid
    )
}
