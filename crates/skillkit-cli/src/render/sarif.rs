//! SARIF 2.1.0 for code-scanning tools: one run, every rule described from its docs, one result
//! per diagnostic with its region (columns in Unicode code points), related locations and fixes.
//! A skill's file is named by its displayed path, percent-encoded as a URI reference.

use serde_json::{json, Value};
use skillkit::check::Checked;
use skillkit::lint::rules::RULES;
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

/// Every rule, described from its docs, for the tool's driver.
fn rules() -> Vec<Value> {
    RULES
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
        .collect()
}

/// The report as `serde_json::to_writer_pretty` writes the whole document (keys sorted, but for
/// the run's `properties`, which come after its `results`: they hold the agent's verdict, known
/// only at the end), each skill's results written as the check hands it over.
pub struct Sarif<'a> {
    pub agent: &'a Agent,
    pub display: &'a dyn Fn(&Path) -> String,
    /// Results written so far.
    results: usize,
}

impl<'a> Sarif<'a> {
    pub fn new(agent: &'a Agent, display: &'a dyn Fn(&Path) -> String) -> Self {
        Sarif { agent, display, results: 0 }
    }
}

impl super::Report for Sarif<'_> {
    fn begin(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        out.write_all(b"{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"runs\": [\n    {\n      \"columnKind\": \"unicodeCodePoints\",\n      \"results\": [")
    }

    fn skill(&mut self, out: &mut dyn Write, c: &Checked) -> std::io::Result<()> {
        // A URI reference: `my skill#1/SKILL.md` is a path, not a path and a fragment.
        let uri = skillkit::syntax::uri::percent_encode_path(&super::skill_file(c, self.display)).into_owned();
        let mut buf = Vec::new();
        for d in &c.diagnostics {
            buf.extend_from_slice(if self.results == 0 { b"\n        " } else { b",\n        " });
            super::json::write_at(&mut buf, 4, &result(d, &c.skill, &uri))?;
            self.results += 1;
        }
        skillkit::syntax::shown::Json::new(&mut *out).write_all(&buf)
    }

    fn end(&mut self, out: &mut dyn Write, end: &super::End<'_>) -> std::io::Result<()> {
        let mut tail = Vec::with_capacity(1 << 16);
        tail.extend_from_slice(if self.results == 0 { b"]" } else { b"\n      ]" });
        // After the results: the verdict is known only once every skill is read.
        let mut properties = json!({"agent": self.agent.id});
        if let Some(v) = end.verdict {
            properties["agentVerdict"] = super::json::verdict_json(v, self.display);
        }
        tail.extend_from_slice(b",\n      \"properties\": ");
        super::json::write_at(&mut tail, 3, &properties)?;
        tail.extend_from_slice(b",\n      \"tool\": ");
        let tool = json!({"driver": {"name": "skillkit", "version": env!("CARGO_PKG_VERSION"), "rules": rules()}});
        super::json::write_at(&mut tail, 3, &tool)?;
        tail.extend_from_slice(b"\n    }\n  ],\n  \"version\": \"2.1.0\"\n}\n");
        skillkit::syntax::shown::Json::new(&mut *out).write_all(&tail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillkit::agents::SPEC;
    use skillkit::check::CheckRun;
    use skillkit::Skill;

    /// The run's keys in the order the report writes them.
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Run {
        column_kind: &'static str,
        results: Vec<Value>,
        properties: Value,
        tool: Value,
    }

    #[derive(serde::Serialize)]
    struct Doc {
        #[serde(rename = "$schema")]
        schema: &'static str,
        runs: [Run; 1],
        version: &'static str,
    }

    /// Written a skill at a time, the report is byte for byte `to_writer_pretty` of the whole
    /// document, with or without an agent's verdict.
    #[test]
    fn a_report_written_a_skill_at_a_time_is_the_pretty_json_of_the_whole() {
        let verdict = skillkit::verdict::AgentVerdict {
            agent: "claude-code",
            title: "Claude Code",
            skills: 4,
            loaded: 3,
            skipped: vec![skillkit::verdict::Fate {
                dir: "/lib/skill-2".into(),
                loaded: false,
                reason: Some("no \"description\"".into()),
            }],
        };
        for (n, verdict) in [(0, None), (1, None), (4, None), (0, Some(&verdict)), (4, Some(&verdict))] {
            let skills: Vec<Checked> = (0..n)
                .map(|i| {
                    let text = if i % 2 == 0 {
                        format!("---\nname: Skill_{i}\ndescription: x\n---\nSee [a](missing.md).\n")
                    } else {
                        format!("---\nname: skill-{i}\ndescription: Does {i}. Use when asked.\n---\nBody.\n")
                    };
                    let skill = Skill::parse(format!("/lib/skill-{i}"), "SKILL.md", text);
                    Checked { diagnostics: skillkit::lint(&skill, &SPEC), skill: Box::new(skill) }
                })
                .collect();
            let run = CheckRun { skills, issues: vec![], verdict: verdict.cloned() };
            let display = |p: &Path| p.display().to_string();
            let mut out = Vec::new();
            super::super::whole(&mut Sarif::new(&SPEC, &display), &run, &mut out).unwrap();
            let results: Vec<Value> = run
                .skills
                .iter()
                .flat_map(|c| c.diagnostics.iter().map(|d| result(d, &c.skill, &display(&c.skill.path()))))
                .collect();
            assert_eq!(results.is_empty(), n == 0);
            let mut properties = json!({"agent": SPEC.id});
            if let Some(v) = verdict {
                properties["agentVerdict"] = super::super::json::verdict_json(v, &display);
            }
            let doc = Doc {
                schema: "https://json.schemastore.org/sarif-2.1.0.json",
                runs: [Run {
                    column_kind: "unicodeCodePoints",
                    results,
                    properties,
                    tool: json!({"driver": {"name": "skillkit", "version": env!("CARGO_PKG_VERSION"), "rules": rules()}}),
                }],
                version: "2.1.0",
            };
            let mut expected = serde_json::to_vec_pretty(&doc).unwrap();
            expected.push(b'\n');
            assert_eq!(String::from_utf8_lossy(&out), String::from_utf8_lossy(&expected), "{n} skills");
        }
    }
}
