//! Every rule's documentation is checked here: its `## Example` block must trigger the rule and
//! its `## Use instead` block must not (and must be free of errors). Rules whose examples cannot
//! be written as a SKILL.md (file problems, sizes) are listed and have unit tests in their file.

use skillkit::agents::SPEC;
use skillkit::lint::rules::RULES;
use skillkit::{is_valid, lint, Skill};

/// Rules documented in prose; each has `#[cfg(test)]` fixtures in its own file.
const PROSE_EXAMPLES: &[&str] = &[
    "skill-file-missing",
    "skill-file-not-regular",
    "skill-file-unreadable",
    "skill-file-too-large",
    "invalid-utf8",
    "binary-file",
    "lowercase-skill-file",
    "utf8-bom",
    "delimiter-trailing-whitespace",
    "description-too-long",
    "description-listing-truncated",
    "body-too-long",
    "body-too-many-tokens",
    "duplicate-skill-name",
    "agent-skips-skill",
    "nested-skill",
    "shadowed-skill",
    "competing-descriptions",
    "bundled-skill-name",
    "too-many-findings",
    "reference-missing",
    "resource-unreferenced",
];

struct Example {
    folder: String,
    text: String,
}

/// The ```skill blocks under the heading `section`.
fn examples(docs: &str, section: &str) -> Vec<Example> {
    let mut out = vec![];
    let mut in_section = false;
    let mut block: Option<(String, bool, String)> = None;
    for line in docs.lines() {
        if let Some((folder, eof, text)) = block.as_mut() {
            if line == "```" {
                let mut text = std::mem::take(text);
                if *eof {
                    text.pop();
                }
                out.push(Example { folder: std::mem::take(folder), text });
                block = None;
            } else {
                text.push_str(line);
                text.push('\n');
            }
            continue;
        }
        if let Some(h) = line.strip_prefix("## ") {
            in_section = h == section;
        } else if in_section && line.starts_with("```skill") {
            let info = &line[8..];
            let folder = info.split_whitespace().find_map(|w| w.strip_prefix("folder=")).map(String::from);
            block = Some((folder.unwrap_or_default(), info.split_whitespace().any(|w| w == "eof"), String::new()));
        }
    }
    for e in &mut out {
        if e.folder.is_empty() {
            e.folder = e.text.lines().find_map(|l| l.strip_prefix("name: ")).unwrap_or("my-skill").to_string();
        }
    }
    out
}

fn run(e: &Example) -> Vec<skillkit::Diagnostic> {
    lint(&Skill::parse(format!("/skills/{}", e.folder), "SKILL.md", e.text.clone()), &SPEC)
}

#[test]
fn every_rule_documents_what_why_and_sources() {
    for r in RULES {
        let m = r.meta();
        let docs = m.docs_text();
        assert!(docs.contains("## What it does"), "{} lacks `## What it does`", m.name);
        assert!(docs.contains("## Why is this bad?"), "{} lacks `## Why is this bad?`", m.name);
        assert!(!m.sources.is_empty(), "{} records no sources", m.name);
        assert!(!m.summary().is_empty(), "{} has no summary line", m.name);
    }
}

#[test]
fn codes_and_names_are_unique_and_well_formed() {
    let mut seen = std::collections::HashSet::new();
    for r in RULES {
        let m = r.meta();
        assert!(m.code.len() == 5 && m.code.starts_with("SK"), "{}", m.code);
        assert!(m.name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'), "{}", m.name);
        assert!(seen.insert(m.code) && seen.insert(m.name), "duplicate {} {}", m.code, m.name);
    }
}

#[test]
fn doc_examples_trigger_their_rule_and_fixed_versions_do_not() {
    for r in RULES {
        let m = r.meta();
        let docs = m.docs_text();
        let bad = examples(&docs, "Example");
        let good = examples(&docs, "Use instead");
        // Package rules' examples are packages (```package blocks), run by the engine's
        // `package::doc_examples` tests.
        if m.group == skillkit::lint::rules::Group::Package {
            assert!(bad.is_empty() && good.is_empty(), "{}: package rules take ```package examples", m.name);
            continue;
        }
        if PROSE_EXAMPLES.contains(&m.name) {
            assert!(bad.is_empty(), "{} is listed as prose-only but has examples", m.name);
            continue;
        }
        assert!(
            !bad.is_empty() && !good.is_empty(),
            "{} needs ```skill examples under Example and Use instead",
            m.name
        );
        for e in &bad {
            let d = run(e);
            assert!(d.iter().any(|d| d.code == m.code), "{}: example does not trigger it:\n{}\n{d:#?}", m.name, e.text);
        }
        for e in &good {
            let d = run(e);
            assert!(
                d.iter().all(|d| d.code != m.code),
                "{}: fixed example still triggers it:\n{}\n{d:#?}",
                m.name,
                e.text
            );
            assert!(is_valid(&d), "{}: fixed example has errors:\n{}\n{d:#?}", m.name, e.text);
        }
    }
}

#[test]
fn fixes_in_doc_examples_remove_the_finding() {
    for r in RULES {
        let m = r.meta();
        for e in examples(&m.docs_text(), "Example") {
            let before = run(&e);
            let fixes: Vec<_> = before.iter().filter(|d| d.code == m.code).filter_map(|d| d.fix.as_ref()).collect();
            if fixes.is_empty() {
                continue;
            }
            let fixed = skillkit::lint::diagnostic::apply_fixes(&e.text, fixes.iter().copied());
            let after = run(&Example { folder: e.folder.clone(), text: fixed.clone() });
            assert!(
                after.iter().all(|d| d.code != m.code),
                "{}: applying its fix leaves the finding:\n{fixed}\n{after:#?}",
                m.name
            );
        }
    }
}

/// Where each fix of a rule's example is offered (its diagnostic's span), the fix offered first
/// (`quick_fix::fixes_at`) adds no error the example did not have.
#[test]
fn the_first_fix_offered_clears_its_diagnostic_and_adds_no_error() {
    use skillkit::lint::quick_fix::fixes_at;
    let errors = |ds: &[skillkit::Diagnostic]| {
        let mut m = std::collections::BTreeMap::new();
        for d in ds.iter().filter(|d| d.severity == skillkit::Severity::Error) {
            *m.entry(d.code).or_insert(0usize) += 1;
        }
        m
    };
    let mut tried = 0;
    for r in RULES {
        let m = r.meta();
        for e in examples(&m.docs_text(), "Example") {
            let relint = |t: &str| run(&Example { folder: e.folder.clone(), text: t.to_string() });
            let before = run(&e);
            for d in before.iter().filter(|d| d.fix.is_some()) {
                let Some(&first) = fixes_at(&e.text, &before, d.span, relint).first() else { continue };
                let fix = before[first].fix.as_ref().unwrap();
                let fixed = skillkit::lint::diagnostic::apply_fixes(&e.text, [fix]);
                let after = run(&Example { folder: e.folder.clone(), text: fixed.clone() });
                let (was, now) = (errors(&before), errors(&after));
                let added: Vec<_> = now.iter().filter(|(c, n)| **n > was.get(*c).copied().unwrap_or(0)).collect();
                assert!(
                    added.is_empty(),
                    "{}: the first fix at {} (`{}`, for {}) adds errors {added:?}:\n{fixed}\n{after:#?}",
                    m.name,
                    d.code,
                    fix.message,
                    before[first].code
                );
                // And it clears what it is offered for.
                let offered = |ds: &[skillkit::Diagnostic]| ds.iter().filter(|x| x.code == before[first].code).count();
                assert!(
                    offered(&after) < offered(&before),
                    "{}: the first fix at {} (`{}`) leaves its {} in place:\n{fixed}",
                    m.name,
                    d.code,
                    fix.message,
                    before[first].code
                );
                tried += 1;
            }
        }
    }
    assert!(tried >= 10, "only {tried} fixes tried");
}
