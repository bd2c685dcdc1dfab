//! Documentation generated from the rules' doc comments: the rule table, one page per rule, and
//! the book's list of those pages (the book under `docs/`: the table in its Rules chapter
//! `docs/rules.md`, the pages in `docs/rules/`, the list in `docs/SUMMARY.md`). Tests fail when the
//! committed copies are stale.

use crate::agent::{Agent, Level};
use crate::agents::{AGENTSKILLS, SPEC};
use crate::lint::rules::{FixKind, RuleMeta, RULES};

fn level(agent: &Agent, rule: &RuleMeta) -> &'static str {
    match agent.level(rule) {
        Level::Off => "off",
        Level::Default => rule.severity.as_str(),
        Level::Set(s) => s.as_str(),
    }
}

fn fix(kind: FixKind) -> &'static str {
    match kind {
        FixKind::None => "",
        FixKind::Safe => "safe",
        FixKind::Unsafe => "unsafe",
        FixKind::DisplayOnly => "suggestion",
    }
}

/// The Markdown table of every rule, grouped, each rule linked to its page by its path from the
/// repository's root (`docs/rules/<name>.md`), as `skillkit rules --format markdown` prints it.
pub fn rule_table() -> String {
    rule_table_linked(|m| m.docs_path())
}

/// The same table with each rule's page linked as `link` says: the book's Rules chapter
/// (`docs/rules.md`) links `rules/<name>.md`.
pub fn rule_table_linked(link: impl Fn(&RuleMeta) -> String) -> String {
    let mut out =
        String::from("| Code | Rule | `spec` | `agentskills` | Fix | What it checks |\n|---|---|---|---|---|---|\n");
    for r in RULES {
        let m = r.meta();
        out.push_str(&format!(
            "| {} | [`{}`]({}) | {} | {} | {} | {} |\n",
            m.code,
            m.name,
            link(m),
            level(&SPEC, m),
            level(&AGENTSKILLS, m),
            fix(m.fix),
            m.summary().replace('|', "\\|")
        ));
    }
    out
}

/// A rule's documentation page.
pub fn rule_page(m: &RuleMeta) -> String {
    let mut out = format!("# {} `{}`\n\n", m.code, m.name);
    out.push_str(&format!(
        "Group: {}. Severity: {} under `spec`, {} under `agentskills`. Fix: {}.\n\n",
        m.group.title(),
        level(&SPEC, m),
        level(&AGENTSKILLS, m),
        match fix(m.fix) {
            "" => "none",
            f => f,
        }
    ));
    let text = m.docs_text();
    // Doc examples are fenced as ```skill for the tests; show them as Markdown.
    for line in text.lines() {
        if line.starts_with("```skill") {
            out.push_str("```markdown\n");
        } else if line.starts_with("```package") {
            // A package rule's example: files after `-- path` lines (zipped for `package zip`).
            out.push_str("```text\n");
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push_str("\n## Sources\n\n");
    for s in m.sources {
        out.push_str(&format!("- {s}\n"));
    }
    out
}

/// The book's table of contents entries for the rule pages (`docs/SUMMARY.md`), one nested list
/// item per rule under the Rules chapter, in the order of the table, each linking `rules/<name>.md`.
pub fn rule_summary() -> String {
    RULES.iter().map(|r| r.meta()).map(|m| format!("  - [{} {}](rules/{}.md)\n", m.code, m.name, m.name)).collect()
}
