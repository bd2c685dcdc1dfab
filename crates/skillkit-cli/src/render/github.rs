//! GitHub Actions workflow commands: one `::error`/`::warning`/`::notice` annotation per
//! diagnostic, shown on the pull request's diff.

use skillkit::check::Checked;
use skillkit::Severity;
use std::io::Write;
use std::path::Path;

fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One annotation per finding, written as the check hands each skill over.
pub struct Github<'a> {
    pub display: &'a dyn Fn(&Path) -> String,
}

impl super::Report for Github<'_> {
    fn begin(&mut self, _: &mut dyn Write) -> std::io::Result<()> {
        Ok(())
    }

    fn skill(&mut self, out: &mut dyn Write, c: &Checked) -> std::io::Result<()> {
        let file = escape_property(&super::skill_file(c, self.display));
        for d in &c.diagnostics {
            let kind = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "notice",
            };
            let mut message = d.message.clone();
            if let Some(h) = &d.help {
                message.push_str(&format!("\nhelp: {h}"));
            }
            writeln!(
                out,
                "::{kind} file={file},line={},col={},endLine={},endColumn={},title={}::{}",
                d.start.line,
                d.start.column,
                d.end.line,
                d.end.column,
                escape_property(&format!("{} {}", d.code, d.rule)),
                escape_data(&message)
            )?;
        }
        Ok(())
    }

    fn end(&mut self, _: &mut dyn Write, _: &super::End<'_>) -> std::io::Result<()> {
        Ok(())
    }
}
