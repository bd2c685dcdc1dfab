//! SARIF 2.1.0 for code-scanning tools: one run, every rule described from its docs, one result
//! per diagnostic with its region (columns in Unicode code points), related locations and fixes.

use serde_json::{json, Value};
use skillkit::check::CheckRun;
use skillkit::rules::RULES;
use skillkit::{Agent, Diagnostic, Severity, Skill};
use std::io::Write;
use std::path::Path;

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn region(skill: &Skill, start: usize, end: usize) -> Value {
    let a = skill.lines.position(&skill.text, start);
    let b = skill.lines.position(&skill.text, end);
    json!({"startLine": a.line.max(1), "startColumn": a.column, "endLine": b.line.max(1), "endColumn": b.column, "charOffset": start, "charLength": end - start})
}

fn result(d: &Diagnostic, skill: &Skill, uri: &str) -> Value {
    let index = RULES.iter().position(|r| r.meta().code == d.code).unwrap_or(0);
    let mut location = json!({"physicalLocation": {"artifactLocation": {"uri": uri}}});
    if !skill.text.is_empty() {
        location["physicalLocation"]["region"] = region(skill, d.span.start, d.span.end);
    }
    let mut text = d.message.clone();
    if let Some(h) = &d.help {
        text.push_str(&format!("\nhelp: {h}"));
    }
    let mut r = json!({
        "ruleId": d.code,
        "ruleIndex": index,
        "level": level(d.severity),
        "message": {"text": text},
        "locations": [location],
    });
    if !d.labels.is_empty() {
        r["relatedLocations"] = d
            .labels
            .iter()
            .enumerate()
            .map(|(i, l)| json!({"id": i, "message": {"text": l.message}, "physicalLocation": {"artifactLocation": {"uri": uri}, "region": region(skill, l.span.start, l.span.end)}}))
            .collect();
    }
    if let Some(f) = &d.fix {
        r["fixes"] = json!([{
            "description": {"text": f.message},
            "artifactChanges": [{
                "artifactLocation": {"uri": uri},
                "replacements": f.edits.iter().map(|e| json!({"deletedRegion": region(skill, e.span.start, e.span.end), "insertedContent": {"text": e.replacement}})).collect::<Vec<_>>(),
            }],
        }]);
    }
    r
}

pub fn render(
    run: &CheckRun,
    agent: &Agent,
    display: &dyn Fn(&Path) -> String,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let rules: Vec<Value> = RULES
        .iter()
        .map(|r| {
            let m = r.meta();
            json!({
                "id": m.code,
                "name": m.name,
                "shortDescription": {"text": m.summary()},
                "fullDescription": {"text": m.docs_text()},
                "help": {"text": m.summary(), "markdown": m.docs_text()},
                "defaultConfiguration": {"level": level(m.severity)},
                "properties": {"group": m.group.title()},
            })
        })
        .collect();
    let mut results = vec![];
    for c in &run.skills {
        let uri = super::skill_file(c, display);
        results.extend(c.diagnostics.iter().map(|d| result(d, &c.skill, &uri)));
    }
    let mut properties = json!({"agent": agent.id});
    if let Some(v) = &run.verdict {
        properties["agentVerdict"] = super::json::verdict_json(v, display);
    }
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "skillkit", "version": env!("CARGO_PKG_VERSION"), "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "properties": properties,
            "results": results,
        }],
    });
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}
