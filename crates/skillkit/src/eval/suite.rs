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

use crate::prompt::PromptOptions;
use crate::session::script::{relative, Cx, ScriptError};
use crate::syntax::text::Span;
use crate::syntax::yaml::{self, Node};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The `expect` that means "no skill should be activated".
pub const NONE: &str = "none";

/// Where a skill's own trigger suite lives, relative to the skill's folder.
pub const DEFAULT_PATH: &str = "evals/triggers.yaml";

/// A trigger suite.
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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

    /// A new suite for the skill in the folder `skill_dir` of the source `source` (both absolute),
    /// at its [`DEFAULT_PATH`]: no cases yet, and the source written relative to the file.
    pub fn for_skill(skill_dir: &Path, source: &Path) -> (PathBuf, Suite) {
        let path = skill_dir.join(DEFAULT_PATH);
        let dir = path.parent().unwrap_or(skill_dir);
        let source = relative(source, dir).to_string_lossy().into_owned();
        (path, Suite { sources: vec![source], ..Suite::default() })
    }

    /// How the agent's prompt is rendered for this suite (its context window and budget).
    pub fn prompt_options(&self) -> PromptOptions {
        PromptOptions {
            context_window: self.context_window,
            char_budget: self.char_budget,
            loaded: vec![],
            decisions_only: false,
            settings: Default::default(),
        }
    }

    /// The suite in the YAML format, which [`parse_yaml`] reads back as this same suite (every
    /// string double-quoted, every case with its id). A suite that could not be read back (an
    /// empty query, an id used twice) is refused by that reading, with the mistake located.
    pub fn to_yaml(&self) -> String {
        let q = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into());
        let mut out = String::from(
            "# Trigger evals: each query and the skill it should activate (`none`: no skill).\n\
             # Run with `skillkit eval FILE --provider openai --model NAME` or the app's Evals pane.\n",
        );
        if let Some(agent) = &self.agent {
            out.push_str(&format!("agent: {}\n", q(agent)));
        }
        let sources: Vec<String> = self.sources.iter().map(|s| q(s)).collect();
        out.push_str(&format!("sources: [{}]\n", sources.join(", ")));
        if let Some(n) = self.context_window {
            out.push_str(&format!("context_window: {n}\n"));
        }
        if let Some(n) = self.char_budget {
            out.push_str(&format!("char_budget: {n}\n"));
        }
        if self.cases.is_empty() {
            out.push_str("cases: []\n");
            return out;
        }
        out.push_str("cases:\n");
        for c in &self.cases {
            out.push_str(&format!("  - id: {}\n    query: {}\n    expect: {}\n", q(&c.id), q(&c.query), q(&c.expect)));
        }
        out
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
    if let Some(root) = &y.root {
        crate::session::script::refuse_aliases(&mut cx, root);
        if !cx.errors.is_empty() {
            return Err(cx.errors);
        }
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
    fn to_yaml_reads_back_as_the_same_suite() {
        let suite = Suite {
            agent: Some("claude-code".into()),
            sources: vec!["../..".into(), "other skills/x".into()],
            context_window: Some(200_000),
            char_budget: Some(8000),
            cases: vec![
                Case {
                    id: "pdf: tables".into(),
                    query: "Pull \"the\" tables: # out\nof report.pdf".into(),
                    expect: "pdf".into(),
                },
                Case {
                    id: "case-2".into(),
                    query: "  leading, trailing \t\\ é ✓ 'quotes' ".into(),
                    expect: NONE.into(),
                },
                Case { id: "- [x]".into(), query: "{a: b}, &anchor *alias !tag".into(), expect: "csv".into() },
                Case { id: "yes".into(), query: "null".into(), expect: "true".into() },
            ],
        };
        let text = suite.to_yaml();
        assert_eq!(parse_yaml(&text), Ok(suite.clone()), "{text}");
        assert_eq!(parse(&text, None), Ok(suite), "{text}");
        let empty = Suite { sources: vec!["..".into()], ..Suite::default() };
        assert!(empty.to_yaml().ends_with("sources: [\"..\"]\ncases: []\n"), "{}", empty.to_yaml());
        assert_eq!(parse_yaml(&empty.to_yaml()), Ok(empty));
        // What would not read back is refused by the reading, located.
        let blank =
            Suite { cases: vec![Case { id: "a".into(), query: " ".into(), expect: NONE.into() }], ..Suite::default() };
        let errors = parse_yaml(&blank.to_yaml()).unwrap_err();
        assert_eq!((errors[0].line, errors[0].message.as_str()), (5, "`query` is empty"));
    }

    #[test]
    fn a_new_suite_for_a_skill_names_its_source_relative_to_the_file() {
        let (path, suite) = Suite::for_skill(Path::new("/lib/skills/pdf"), Path::new("/lib/skills"));
        assert_eq!(path, PathBuf::from("/lib/skills/pdf/evals/triggers.yaml"));
        assert_eq!(suite.sources, ["../.."]);
        assert!(suite.cases.is_empty());
        assert_eq!(suite.source_paths(path.parent().unwrap()), [PathBuf::from("/lib/skills/pdf/evals/../..")]);
        let nested = Suite::for_skill(Path::new("/lib/skills/group/pdf"), Path::new("/lib/skills")).1;
        assert_eq!(nested.sources, ["../../.."]);
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
