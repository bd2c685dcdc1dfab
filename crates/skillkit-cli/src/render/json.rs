//! Machine output: `{"skills": [...], "summary": {...}}`, one entry per skill with its
//! diagnostics, lines and columns 1-based (columns in characters, and in UTF-16 units).

use serde_json::{json, Value};
use skillkit::check::CheckRun;
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

/// The whole report, keys sorted as in [`SkillJson`].
#[derive(serde::Serialize)]
struct ReportJson<'a> {
    agent: &'a str,
    /// What the profile's agent does with the skills (profiles judged by their loader).
    #[serde(skip_serializing_if = "Option::is_none")]
    agent_verdict: Option<Value>,
    issues: Vec<Value>,
    skills: Vec<SkillJson<'a>>,
    summary: Value,
}

pub fn render(
    run: &CheckRun,
    agent: &Agent,
    display: &dyn Fn(&Path) -> String,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let skills: Vec<SkillJson<'_>> = run
        .skills
        .iter()
        .map(|c| SkillJson {
            diagnostics: c.diagnostics.iter().map(DiagnosticJson::of).collect(),
            name: c.skill.display_name(),
            path: super::skill_file(c, display),
            valid: c.is_valid(),
        })
        .collect();
    let issues: Vec<Value> =
        run.issues.iter().map(|i| json!({"path": display(&i.path), "message": i.message})).collect();
    let agent_verdict = run.verdict.as_ref().map(|v| verdict_json(v, display));
    let doc = ReportJson { agent: agent.id, agent_verdict, issues, skills, summary: json!(run.summary()) };
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
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
