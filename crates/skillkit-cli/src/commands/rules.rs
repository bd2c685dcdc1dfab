//! `skillkit rules`: the lint rules, as text, a Markdown table or JSON.

use crate::cli::RulesFormat;
use std::io::Write;

pub(crate) fn rules(format: RulesFormat, out: &mut dyn Write) -> std::io::Result<()> {
    use skillkit::lint::rules::RULES;
    match format {
        RulesFormat::Markdown => write!(out, "{}", skillkit::docs::rule_table()),
        RulesFormat::Text => {
            for r in RULES {
                let m = r.meta();
                writeln!(out, "{}  {:<32} {:<8} {}", m.code, m.name, m.severity.as_str(), m.summary())?;
            }
            Ok(())
        }
        RulesFormat::Json => {
            let list: Vec<_> = RULES
                .iter()
                .map(|r| {
                    let m = r.meta();
                    serde_json::json!({"code": m.code, "name": m.name, "group": m.group.title(), "severity": m.severity, "summary": m.summary(), "docs": m.docs_path()})
                })
                .collect();
            writeln!(out, "{}", serde_json::to_string_pretty(&list).unwrap())
        }
    }
}
