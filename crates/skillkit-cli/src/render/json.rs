//! Machine output: `{"skills": [...], "summary": {...}}`, one entry per skill with its
//! diagnostics, lines and columns 1-based (columns in characters, and in UTF-16 units).

use serde_json::{json, Value};
use skillkit::check::CheckRun;
use skillkit::{Agent, Diagnostic};
use std::io::Write;
use std::path::Path;

pub fn diagnostic(d: &Diagnostic) -> Value {
    json!({
        "code": d.code,
        "rule": d.rule,
        "severity": d.severity,
        "message": d.message,
        "line": d.start.line,
        "column": d.start.column,
        "end_line": d.end.line,
        "end_column": d.end.column,
        "column_utf16": d.start.column_utf16,
        "end_column_utf16": d.end.column_utf16,
        "span": {"start": d.span.start, "end": d.span.end},
        "help": d.help,
        "labels": d.labels.iter().map(|l| json!({"message": l.message, "line": l.start.line, "column": l.start.column, "end_line": l.end.line, "end_column": l.end.column, "span": {"start": l.span.start, "end": l.span.end}})).collect::<Vec<_>>(),
        "fix": d.fix,
        "docs": d.docs,
    })
}

/// One skill of the report. Fields are in the order `serde_json` writes a map's keys (sorted), so
/// the output is the same as for a `json!` object, without building one per skill.
#[derive(serde::Serialize)]
struct SkillJson<'a> {
    diagnostics: Vec<Value>,
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
            diagnostics: c.diagnostics.iter().map(diagnostic).collect(),
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
