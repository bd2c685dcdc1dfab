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

pub fn render(
    run: &CheckRun,
    agent: &Agent,
    display: &dyn Fn(&Path) -> String,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let skills: Vec<Value> = run
        .skills
        .iter()
        .map(|c| {
            json!({
                "path": super::skill_file(c, display),
                "name": c.skill.display_name(),
                "valid": c.is_valid(),
                "diagnostics": c.diagnostics.iter().map(diagnostic).collect::<Vec<_>>(),
            })
        })
        .collect();
    let issues: Vec<Value> =
        run.issues.iter().map(|i| json!({"path": display(&i.path), "message": i.message})).collect();
    let doc = json!({"agent": agent.id, "skills": skills, "issues": issues, "summary": run.summary()});
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}
