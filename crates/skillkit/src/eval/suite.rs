//! Trigger suites: which queries should activate which skill. Two formats are read:
//!
//! ```yaml
//! agent: claude-code            # optional; `--agent` overrides it
//! sources: [../skills]          # relative to the suite's folder, lowest priority first
//! context_window: 200000        # optional settings of the render
//! char_budget: 8000
//! cases:
//!   - id: pdf-extract           # optional; `case-N` by default
//!     query: Pull the tables out of report.pdf
//!     expect: pdf               # a skill name, or `none`
//!   - query: What is the capital of France?
//!     expect: none
//! ```
//!
//! and the JSON list Anthropic's skill-creator writes for one skill
//! (`[{"query": "...", "should_trigger": true}, ...]`), read with the skill's name: a query that
//! should trigger expects that skill, the others `none`. Every mistake is located.

use crate::session::script::{Cx, ScriptError};
use crate::syntax::text::Span;
use crate::syntax::yaml::{self, Node};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The `expect` that means "no skill should be activated".
pub const NONE: &str = "none";

/// A trigger suite.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Suite {
    /// The agent profile, when the suite names one.
    pub agent: Option<String>,
    /// As written, relative to the suite's folder.
    pub sources: Vec<String>,
    pub context_window: Option<u64>,
    pub char_budget: Option<usize>,
    pub cases: Vec<Case>,
}

/// One query and the skill it should activate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Case {
    pub id: String,
    pub query: String,
    /// A skill name, or [`NONE`].
    pub expect: String,
}

impl Suite {
    /// The sources resolved against the suite's folder.
    pub fn source_paths(&self, suite_dir: &Path) -> Vec<PathBuf> {
        self.sources.iter().map(|s| suite_dir.join(s).components().collect()).collect()
    }
}

/// Reads a suite: skill-creator's JSON list when the text is one (then `skill` names the skill
/// its positive queries expect), the YAML format otherwise.
pub fn parse(text: &str, skill: Option<&str>) -> Result<Suite, Vec<ScriptError>> {
    if text.trim_start().starts_with('[') {
        return parse_skill_creator(text, skill);
    }
    parse_yaml(text)
}

/// Reads the YAML format.
pub fn parse_yaml(text: &str) -> Result<Suite, Vec<ScriptError>> {
    let mut cx = Cx::new(text);
    let y = yaml::parse(text, 0);
    if let Some(e) = &y.error {
        cx.err(e.span, format!("invalid YAML: {}", e.message));
        return Err(cx.errors);
    }
    let Some(entries) = y.root.as_ref().and_then(Node::entries) else {
        cx.err(Span::empty(0), "an eval suite is a mapping with `cases` (and optionally `agent`, `sources`)");
        return Err(cx.errors);
    };
    let mut suite = Suite::default();
    let mut saw_cases = false;
    for e in entries {
        let Some(key) = e.key.as_str() else {
            cx.err(e.key.span, "keys must be strings");
            continue;
        };
        let v = &e.value;
        match key {
            "agent" => suite.agent = cx.string(v, "`agent`"),
            "sources" => suite.sources = cx.strings(v, "`sources`"),
            "context_window" => suite.context_window = cx.number(v, "`context_window`"),
            "char_budget" => suite.char_budget = cx.number(v, "`char_budget`").map(|n| n as usize),
            "cases" => {
                saw_cases = true;
                match v.items() {
                    Some(items) => {
                        for item in items {
                            if let Some(case) = parse_case(&mut cx, item, suite.cases.len()) {
                                suite.cases.push(case);
                            }
                        }
                    }
                    None => cx.err(v.span, "`cases` must be a list"),
                }
            }
            other => cx.err(
                e.key.span,
                format!("unknown key `{other}`; expected agent, sources, context_window, char_budget, cases"),
            ),
        }
    }
    if !saw_cases {
        cx.err(Span::empty(0), "missing `cases`");
    }
    check_ids(&mut cx, &suite);
    if cx.errors.is_empty() {
        Ok(suite)
    } else {
        Err(cx.errors)
    }
}

fn parse_case(cx: &mut Cx<'_>, item: &Node, index: usize) -> Option<Case> {
    let Some(entries) = item.entries() else {
        cx.err(item.span, "a case is a mapping with `query` and `expect` (and optionally `id`)");
        return None;
    };
    let (mut id, mut query, mut expect) = (None, None, None);
    for e in entries {
        match e.key.as_str() {
            Some("id") => id = cx.string(&e.value, "`id`"),
            Some("query") => query = cx.string(&e.value, "`query`"),
            Some("expect") => expect = cx.string(&e.value, "`expect`"),
            Some(other) => cx.err(e.key.span, format!("unknown key `{other}` in a case; expected id, query, expect")),
            None => cx.err(e.key.span, "keys must be strings"),
        }
    }
    if query.as_deref().is_some_and(|q| q.trim().is_empty()) {
        cx.err(item.span, "`query` is empty");
        return None;
    }
    let Some(query) = query else {
        cx.err(item.span, "a case needs a `query`");
        return None;
    };
    let Some(expect) = expect else {
        cx.err(item.span, "a case needs an `expect`: a skill name, or `none`");
        return None;
    };
    Some(Case { id: id.unwrap_or_else(|| format!("case-{}", index + 1)), query, expect: expect.trim().to_string() })
}

fn check_ids(cx: &mut Cx<'_>, suite: &Suite) {
    let mut seen = std::collections::HashSet::new();
    for c in &suite.cases {
        if !seen.insert(c.id.as_str()) {
            cx.err(Span::empty(0), format!("case id `{}` is used twice", c.id));
        }
    }
}

/// Reads skill-creator's list (`[{"query", "should_trigger"}]`) for the skill `skill`.
pub fn parse_skill_creator(text: &str, skill: Option<&str>) -> Result<Suite, Vec<ScriptError>> {
    let at = |message: String, line: usize, column: usize| vec![ScriptError { message, line, column }];
    let Some(skill) = skill else {
        return Err(at(
            "a skill-creator list (`[{\"query\", \"should_trigger\"}]`) needs the skill it is for: pass --skill NAME"
                .into(),
            1,
            1,
        ));
    };
    let items: Vec<serde_json::Value> =
        serde_json::from_str(text).map_err(|e| at(format!("invalid JSON: {e}"), e.line(), e.column()))?;
    let mut suite = Suite::default();
    let mut errors = vec![];
    for (i, item) in items.iter().enumerate() {
        let query = item.get("query").and_then(|q| q.as_str()).filter(|q| !q.trim().is_empty());
        let trigger = item.get("should_trigger").and_then(|t| t.as_bool());
        match (query, trigger) {
            (Some(query), Some(trigger)) => suite.cases.push(Case {
                id: format!("case-{}", i + 1),
                query: query.to_string(),
                expect: if trigger { skill.to_string() } else { NONE.to_string() },
            }),
            _ => errors.push(ScriptError {
                message: format!("item {}: needs a non-empty string `query` and a boolean `should_trigger`", i + 1),
                line: 1,
                column: 1,
            }),
        }
    }
    if errors.is_empty() {
        Ok(suite)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_yaml_format_reads_settings_and_cases() {
        let suite = parse_yaml(
            "agent: claude-code\nsources: [skills]\ncontext_window: 1000\nchar_budget: 500\ncases:\n  - id: a\n    query: Extract the tables\n    expect: pdf\n  - query: Hello\n    expect: none\n",
        )
        .unwrap();
        assert_eq!(suite.agent.as_deref(), Some("claude-code"));
        assert_eq!(suite.sources, vec!["skills"]);
        assert_eq!((suite.context_window, suite.char_budget), (Some(1000), Some(500)));
        assert_eq!(
            suite.cases,
            vec![
                Case { id: "a".into(), query: "Extract the tables".into(), expect: "pdf".into() },
                Case { id: "case-2".into(), query: "Hello".into(), expect: NONE.into() },
            ]
        );
        assert_eq!(suite.source_paths(Path::new("/x/evals")), vec![PathBuf::from("/x/evals/skills")]);
    }

    #[test]
    fn mistakes_are_located() {
        let errors = parse_yaml("cases:\n  - query: q\n  - expect: pdf\n    colour: red\n").unwrap_err();
        let found: Vec<(usize, &str)> = errors.iter().map(|e| (e.line, e.message.as_str())).collect();
        assert!(found.contains(&(2, "a case needs an `expect`: a skill name, or `none`")), "{found:?}");
        assert!(found.contains(&(4, "unknown key `colour` in a case; expected id, query, expect")), "{found:?}");
        assert!(found.contains(&(3, "a case needs a `query`")), "{found:?}");
        assert_eq!(parse_yaml("agent: x\n").unwrap_err()[0].message, "missing `cases`");
        assert!(parse_yaml("cases: [").unwrap_err()[0].message.starts_with("invalid YAML"));
        let twice = parse_yaml("cases:\n  - {id: a, query: q, expect: none}\n  - {id: a, query: r, expect: none}\n");
        assert_eq!(twice.unwrap_err()[0].message, "case id `a` is used twice");
    }

    #[test]
    fn skill_creator_lists_expect_the_named_skill_or_none() {
        let text = r#"[{"query": "make a pdf", "should_trigger": true}, {"query": "hi", "should_trigger": false}]"#;
        let suite = parse(text, Some("pdf")).unwrap();
        assert_eq!(suite.cases.iter().map(|c| c.expect.as_str()).collect::<Vec<_>>(), vec!["pdf", "none"]);
        assert!(parse(text, None).unwrap_err()[0].message.contains("--skill NAME"));
        let bad = parse(r#"[{"query": "x"}]"#, Some("pdf")).unwrap_err();
        assert!(bad[0].message.starts_with("item 1:"), "{bad:?}");
        assert!(parse("[1,", Some("pdf")).unwrap_err()[0].message.starts_with("invalid JSON"));
    }
}
