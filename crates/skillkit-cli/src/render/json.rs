//! Machine output: `{"agent": ..., "skills": [...], "issues": [...], "summary": {...}}`, one
//! entry per skill with its diagnostics, lines and columns 1-based (columns in characters, and in
//! UTF-16 units).

use serde_json::{json, Value};
use skillkit::check::Checked;
use skillkit::{Agent, Diagnostic};
use std::io::Write;
use std::path::Path;

/// A byte span as the report writes it.
#[derive(serde::Serialize)]
struct SpanJson {
    end: usize,
    start: usize,
}

/// A label of a diagnostic; keys sorted, as `serde_json` writes a map's.
#[derive(serde::Serialize)]
struct LabelJson<'a> {
    column: usize,
    end_column: usize,
    end_line: usize,
    line: usize,
    message: &'a str,
    span: SpanJson,
}

/// A diagnostic of the report, written straight from the diagnostic (no `Value` tree per
/// finding: a library's report has tens of thousands). Keys sorted, as `serde_json` writes a
/// map's, so the output is what a `json!` object gave.
#[derive(serde::Serialize)]
struct DiagnosticJson<'a> {
    code: &'a str,
    column: usize,
    column_utf16: usize,
    docs: &'a str,
    end_column: usize,
    end_column_utf16: usize,
    end_line: usize,
    /// Through a `Value`, whose keys are sorted (the fix's own field order is not).
    fix: Option<Value>,
    help: Option<&'a str>,
    labels: Vec<LabelJson<'a>>,
    line: usize,
    message: &'a str,
    rule: &'a str,
    severity: skillkit::Severity,
    span: SpanJson,
}

impl<'a> DiagnosticJson<'a> {
    fn of(d: &'a Diagnostic) -> Self {
        DiagnosticJson {
            code: d.code,
            column: d.start.column,
            column_utf16: d.start.column_utf16,
            docs: &d.docs,
            end_column: d.end.column,
            end_column_utf16: d.end.column_utf16,
            end_line: d.end.line,
            fix: d.fix.as_ref().map(|f| serde_json::to_value(f).expect("a fix serializes")),
            help: d.help.as_deref(),
            labels: d
                .labels
                .iter()
                .map(|l| LabelJson {
                    column: l.start.column,
                    end_column: l.end.column,
                    end_line: l.end.line,
                    line: l.start.line,
                    message: &l.message,
                    span: SpanJson { end: l.span.end, start: l.span.start },
                })
                .collect(),
            line: d.start.line,
            message: &d.message,
            rule: d.rule,
            severity: d.severity,
            span: SpanJson { end: d.span.end, start: d.span.start },
        }
    }
}

/// One skill of the report. Fields are in the order `serde_json` writes a map's keys (sorted), so
/// the output is the same as for a `json!` object, without building one per skill.
#[derive(serde::Serialize)]
struct SkillJson<'a> {
    diagnostics: Vec<DiagnosticJson<'a>>,
    name: &'a str,
    path: String,
    valid: bool,
}

/// `serde_json`'s pretty format (two-space indents, `": "` after keys) for a value written
/// `level` levels deep in a document: parts of one report, written apart (as the check goes) and
/// joined, come out as one `to_writer_pretty` of the whole.
struct Nested {
    level: usize,
    has_value: bool,
}

impl Nested {
    fn at(level: usize) -> Self {
        Nested { level, has_value: false }
    }

    fn indent<W: ?Sized + Write>(w: &mut W, level: usize) -> std::io::Result<()> {
        for _ in 0..level {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    fn open<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.level += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.level -= 1;
        if self.has_value {
            w.write_all(b"\n")?;
            Self::indent(w, self.level)?;
        }
        w.write_all(bracket)
    }

    fn item<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        w.write_all(if first { b"\n" } else { b",\n" })?;
        Self::indent(w, self.level)
    }
}

impl serde_json::ser::Formatter for Nested {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// `value` in the pretty format, `level` levels deep, appended to `buf`.
pub(crate) fn write_at(buf: &mut Vec<u8>, level: usize, value: &impl serde::Serialize) -> std::io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(&mut *buf, Nested::at(level));
    value.serialize(&mut ser).map_err(std::io::Error::from)
}

/// The report in `serde_json`'s pretty format: an object of `agent`, `skills` (each written as
/// the check hands it over), then what is known only at the end: `issues`, `agent_verdict` when
/// there is one, and `summary`.
pub struct Json<'a> {
    pub agent: &'a Agent,
    pub display: &'a dyn Fn(&Path) -> String,
    /// Skills written so far.
    skills: usize,
}

impl<'a> Json<'a> {
    pub fn new(agent: &'a Agent, display: &'a dyn Fn(&Path) -> String) -> Self {
        Json { agent, display, skills: 0 }
    }
}

impl super::Report for Json<'_> {
    fn begin(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let mut head = Vec::with_capacity(64);
        head.extend_from_slice(b"{\n  \"agent\": ");
        write_at(&mut head, 1, &self.agent.id)?;
        head.extend_from_slice(b",\n  \"skills\": [");
        skillkit::syntax::shown::Json::new(&mut *out).write_all(&head)
    }

    fn skill(&mut self, out: &mut dyn Write, c: &Checked) -> std::io::Result<()> {
        let mut buf = Vec::with_capacity(1024);
        buf.extend_from_slice(if self.skills == 0 { b"\n    " } else { b",\n    " });
        let skill = SkillJson {
            diagnostics: c.diagnostics.iter().map(DiagnosticJson::of).collect(),
            name: c.skill.display_name(),
            path: super::skill_file(c, self.display),
            valid: c.is_valid(),
        };
        write_at(&mut buf, 2, &skill)?;
        self.skills += 1;
        skillkit::syntax::shown::Json::new(&mut *out).write_all(&buf)
    }

    fn end(&mut self, out: &mut dyn Write, end: &super::End<'_>) -> std::io::Result<()> {
        let mut tail = Vec::with_capacity(1024);
        tail.extend_from_slice(if self.skills == 0 { b"]" } else { b"\n  ]" });
        tail.extend_from_slice(b",\n  \"issues\": ");
        let issues: Vec<Value> =
            end.issues.iter().map(|i| json!({"path": (self.display)(&i.path), "message": i.message})).collect();
        write_at(&mut tail, 1, &issues)?;
        if let Some(v) = end.verdict {
            tail.extend_from_slice(b",\n  \"agent_verdict\": ");
            write_at(&mut tail, 1, &verdict_json(v, self.display))?;
        }
        tail.extend_from_slice(b",\n  \"summary\": ");
        write_at(&mut tail, 1, &json!(end.summary))?;
        tail.extend_from_slice(b"\n}\n");
        skillkit::syntax::shown::Json::new(&mut *out).write_all(&tail)
    }
}

/// An agent's verdict on the library, paths shown as the rest of the report shows them.
pub(crate) fn verdict_json(v: &skillkit::verdict::AgentVerdict, display: &dyn Fn(&Path) -> String) -> Value {
    json!({
        "agent": v.agent,
        "title": v.title,
        "skills": v.skills,
        "loaded": v.loaded,
        "skipped": v.skipped.iter().map(|f| json!({"path": display(&f.dir), "reason": f.reason})).collect::<Vec<_>>(),
        "sentence": v.sentence(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillkit::agents::SPEC;
    use skillkit::check::{CheckRun, Checked};
    use skillkit::Skill;

    /// `n` skills, every third with findings (one with a fix, one with labels).
    fn run(n: usize) -> CheckRun {
        let skills = (0..n)
            .map(|i| {
                let text = match i % 3 {
                    0 => format!("---\nname: skill-{i}\ndescription: Does {i}. Use when asked.\n---\nBody.\n"),
                    1 => format!("---\nname: Skill_{i}\ndescription: x: y\n---\n"),
                    _ => format!("---\nname: skill-{i}\ndescription: \"quoted\\u00e9 {i}\"\nfoo: bar\n---\nSee [a](missing.md).\n"),
                };
                let skill = Skill::parse(format!("/lib/skill-{i}"), "SKILL.md", text);
                let diagnostics = skillkit::lint(&skill, &SPEC);
                Checked { skill: Box::new(skill), diagnostics }
            })
            .collect();
        let issues =
            vec![skillkit::library::discover::SearchIssue { path: "/lib/loop".into(), message: "symlink loop".into() }];
        CheckRun { skills, issues, verdict: None }
    }

    /// The report, written a skill at a time, is `serde_json`'s pretty format of the whole, its
    /// keys in the report's order.
    #[test]
    fn a_report_written_a_skill_at_a_time_is_the_pretty_json_of_the_whole() {
        let verdict = skillkit::verdict::AgentVerdict {
            agent: "codex",
            title: "Codex",
            skills: 7,
            loaded: 6,
            skipped: vec![skillkit::verdict::Fate { dir: "/lib/skill-1".into(), loaded: false, reason: None }],
        };
        for (n, verdict) in [(0, None), (1, None), (2, None), (7, None), (0, Some(&verdict)), (7, Some(&verdict))] {
            let mut run = run(n);
            run.verdict = verdict.cloned();
            assert!(
                n < 3
                    || run.skills.iter().any(|c| c.diagnostics.iter().any(|d| d.fix.is_some() || !d.labels.is_empty()))
            );
            let mut out = Vec::new();
            let display = |p: &Path| p.display().to_string();
            super::super::whole(&mut Json::new(&SPEC, &display), &run, &mut out).unwrap();
            let whole: Value = serde_json::from_slice(&out).unwrap();
            let keys: &[&str] = if verdict.is_some() {
                &["agent", "skills", "issues", "agent_verdict", "summary"]
            } else {
                &["agent", "skills", "issues", "summary"]
            };
            assert_eq!(whole.as_object().map(|o| o.len()), Some(keys.len()));
            let mut pretty = String::from("{\n");
            for (i, k) in keys.iter().enumerate() {
                let value = serde_json::to_string_pretty(&whole[k]).unwrap().replace('\n', "\n  ");
                pretty.push_str(&format!("  \"{k}\": {value}{}\n", if i + 1 < keys.len() { "," } else { "" }));
            }
            pretty.push_str("}\n");
            assert_eq!(String::from_utf8_lossy(&out), pretty, "{n} skills");
            assert_eq!(whole["skills"].as_array().map(Vec::len), Some(n));
            assert_eq!(whole["summary"]["skills"], n);
        }
    }
}
