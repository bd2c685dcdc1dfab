//! The script: rules matched against the last user text, their replies and faults. The format
//! is documented in the crate doc.

use std::fmt;
use std::path::Path;

use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the mock answers, and how it misbehaves.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Script {
    /// Rules, tried in order; the first that matches answers.
    #[serde(default)]
    pub rules: Vec<Rule>,
    /// The reply when no rule matches (without one, an unmatched request gets a 400).
    #[serde(default)]
    pub default: Option<Reply>,
    /// A fault applied to every request, before the rules.
    #[serde(default)]
    pub fault: Option<Fault>,
    /// The key requests must carry (`Authorization: Bearer KEY` or `x-api-key: KEY`); without it
    /// they get the provider's 401. `None` accepts any request.
    #[serde(default)]
    pub api_key: Option<String>,
}

/// One rule: a matcher, the replies it cycles through, a fault.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Matches when the last user text contains this.
    #[serde(default)]
    pub contains: Option<String>,
    /// Matches when this regular expression (Rust `regex` syntax) finds a match in the last user
    /// text. A rule with neither `contains` nor `regex` matches every request.
    #[serde(default)]
    pub regex: Option<String>,
    /// Matches only when the request's system or developer text or one of its tool descriptions
    /// contains this, besides `contains` or `regex` on the user text: the reply can depend on
    /// what the prompt says about a skill (its description).
    #[serde(default)]
    pub context: Option<String>,
    /// The replies, cycled per distinct user text: the n-th request with the same text gets
    /// reply n modulo their count. Empty: the script's `default`.
    #[serde(default)]
    pub replies: Vec<Reply>,
    /// A fault for the requests this rule matches.
    #[serde(default)]
    pub fault: Option<Fault>,
}

/// A reply: text, a tool call, or text followed by a tool call.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Reply {
    /// The reply's text.
    #[serde(default)]
    pub text: Option<String>,
    /// The tool to call. When the request offers no tool of this name, the reply is the text
    /// `no such tool` instead.
    #[serde(default)]
    pub tool: Option<String>,
    /// The call's arguments (a JSON object; `{}` when absent). In string values,
    /// `{{path:SKILL}}` becomes the first path ending in `/SKILL/SKILL.md` found in the request's
    /// system or developer text or its tool descriptions (left as it is when there is none).
    #[serde(default)]
    pub arguments: Option<Value>,
    /// With `tool`, the call made this many times in the one reply, each with its own id (a
    /// model calling many tools at once). Absent: once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat: Option<u32>,
    /// Write the reply's JSON with every character of its strings but ASCII letters, digits and
    /// spaces escaped (`\/` for `/`, `\u00XX` for the others): the same JSON in other bytes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub escaped: bool,
}

impl Reply {
    /// A text reply.
    pub fn text(text: impl Into<String>) -> Reply {
        Reply { text: Some(text.into()), ..Reply::default() }
    }

    /// A tool call.
    pub fn tool(tool: impl Into<String>, arguments: Value) -> Reply {
        Reply { tool: Some(tool.into()), arguments: Some(arguments), ..Reply::default() }
    }
}

/// A fault: a status instead of the reply, a delay, a truncated body. All parts are optional and
/// combine (a delay, then the status or the truncated body).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Fault {
    /// Answer this status with the provider's own error body for it (401, 404 model not found,
    /// 429, 500, 529, …) instead of the reply.
    #[serde(default)]
    pub status: Option<u16>,
    /// With `status`, a `Retry-After` header of this many seconds.
    #[serde(default)]
    pub retry_after: Option<u64>,
    /// With `status`, this message in the error body instead of the provider's usual one.
    #[serde(default)]
    pub message: Option<String>,
    /// Only the first N requests it applies to get the fault; then it is gone. Absent: all.
    #[serde(default)]
    pub times: Option<u32>,
    /// Wait this long before answering.
    #[serde(default)]
    pub delay_ms: Option<u64>,
    /// Answer 200 with the reply's JSON cut in half.
    #[serde(default)]
    pub malformed: bool,
}

/// A script that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError(pub String);

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScriptError {}

impl Script {
    /// A script read from JSON text.
    pub fn from_json(text: &str) -> Result<Script, ScriptError> {
        serde_json::from_str(text).map_err(|e| ScriptError(format!("not a mock-provider script: {e}")))
    }

    /// A script read from a JSON file.
    pub fn from_file(path: &Path) -> Result<Script, ScriptError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ScriptError(format!("cannot read the script {}: {e}", path.display())))?;
        Script::from_json(&text).map_err(|e| ScriptError(format!("{}: {e}", path.display())))
    }

    /// A script whose every request gets `reply`.
    pub fn always(reply: Reply) -> Script {
        Script { default: Some(reply), ..Script::default() }
    }

    /// The script with its regular expressions compiled, or what is wrong with it.
    pub(crate) fn compile(self) -> Result<Compiled, ScriptError> {
        let mut matchers = Vec::with_capacity(self.rules.len());
        for (i, rule) in self.rules.iter().enumerate() {
            let matcher = match (&rule.contains, &rule.regex) {
                (Some(_), Some(_)) => {
                    return Err(ScriptError(format!("rule {i}: give `contains` or `regex`, not both")))
                }
                (Some(text), None) => Matcher::Contains(text.clone()),
                (None, Some(re)) => {
                    Matcher::Regex(Regex::new(re).map_err(|e| ScriptError(format!("rule {i}: bad regex: {e}")))?)
                }
                (None, None) => Matcher::Any,
            };
            for (j, reply) in rule.replies.iter().enumerate() {
                check_reply(reply).map_err(|e| ScriptError(format!("rule {i}, reply {j}: {e}")))?;
            }
            matchers.push(matcher);
        }
        if let Some(reply) = &self.default {
            check_reply(reply).map_err(|e| ScriptError(format!("default: {e}")))?;
        }
        Ok(Compiled { script: self, matchers })
    }
}

/// Whether a reply says something.
fn check_reply(reply: &Reply) -> Result<(), String> {
    if reply.text.is_none() && reply.tool.is_none() {
        return Err("a reply needs `text` or `tool`".into());
    }
    match &reply.arguments {
        Some(args) if !args.is_object() => Err("`arguments` must be a JSON object".into()),
        Some(_) if reply.tool.is_none() => Err("`arguments` without `tool`".into()),
        _ if reply.repeat.is_some() && reply.tool.is_none() => Err("`repeat` without `tool`".into()),
        _ => Ok(()),
    }
}

/// How a rule matches.
pub(crate) enum Matcher {
    Any,
    Contains(String),
    Regex(Regex),
}

impl Matcher {
    fn matches(&self, text: &str) -> bool {
        match self {
            Matcher::Any => true,
            Matcher::Contains(needle) => text.contains(needle.as_str()),
            Matcher::Regex(re) => re.is_match(text),
        }
    }
}

/// A checked script, ready to answer.
pub(crate) struct Compiled {
    pub script: Script,
    matchers: Vec<Matcher>,
}

impl Compiled {
    /// The index of the first rule matching the user text `text` and the request's `context`
    /// (its system and developer text and tool descriptions).
    pub fn rule_for(&self, text: &str, context: &[String]) -> Option<usize> {
        self.matchers.iter().zip(&self.script.rules).position(|(m, rule)| {
            m.matches(text) && rule.context.as_ref().is_none_or(|c| context.iter().any(|t| t.contains(c.as_str())))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_documented_example() {
        let script = Script::from_json(crate::EXAMPLE);
        let Ok(script) = script else { panic!("{script:?}") };
        assert_eq!(script.rules.len(), 3);
        let compiled = script.compile();
        let Ok(compiled) = compiled.map_err(|e| e.0) else { panic!("example does not compile") };
        assert_eq!(compiled.rule_for("please fill the PDF form", &[]), Some(0));
        assert_eq!(compiled.rule_for("Read the docx skill", &[]), Some(1));
        assert_eq!(compiled.rule_for("hello", &[]), None);
    }

    #[test]
    fn a_context_rule_needs_its_text_in_the_prompt() {
        let rule = |context: Option<&str>| Rule {
            contains: Some("tables".into()),
            context: context.map(str::to_string),
            replies: vec![Reply::text("x")],
            ..Rule::default()
        };
        let script = Script { rules: vec![rule(Some("Extracts tables")), rule(None)], ..Script::default() };
        let Ok(compiled) = script.compile() else { panic!("does not compile") };
        let prompt = vec!["- pdf: Extracts tables from PDF files.".to_string()];
        assert_eq!(compiled.rule_for("pull the tables", &prompt), Some(0));
        assert_eq!(compiled.rule_for("pull the tables", &["- pdf: Reads PDF files.".to_string()]), Some(1));
        assert_eq!(compiled.rule_for("hello", &prompt), None);
    }

    #[test]
    fn bad_scripts_say_where() {
        let both = Script {
            rules: vec![Rule { contains: Some("a".into()), regex: Some("b".into()), ..Rule::default() }],
            ..Script::default()
        };
        assert!(both.compile().err().is_some_and(|e| e.0.contains("rule 0")));
        let regex = Script { rules: vec![Rule { regex: Some("(".into()), ..Rule::default() }], ..Script::default() };
        assert!(regex.compile().err().is_some_and(|e| e.0.contains("bad regex")));
        let empty = Script::always(Reply::default());
        assert!(empty.compile().err().is_some_and(|e| e.0.contains("default")));
        assert!(Script::from_json(r#"{"rulez": []}"#).is_err());
    }
}
