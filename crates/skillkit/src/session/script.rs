//! Session scripts: a YAML file naming the agent, the sources, the settings and the steps of a
//! simulated session. Every mistake is reported with its line and column; nothing panics.
//!
//! ```yaml
//! agent: deepagents-v2          # any profile with a prompt (`skillkit agents`)
//! sources: [skills]             # relative to the script's folder; lowest priority first
//! context_window: 200000        # optional settings
//! max_loaded_skills: 2
//! policy: restrict              # recommend (default) | restrict
//! char_budget: 4000             # Claude Code's SLASH_COMMAND_TOOL_CHAR_BUDGET
//! allow: ["Bash(git:*)"]        # Claude Code permission rules
//! agent_settings: ["skillListingBudgetFraction=0.002", "skillOverrides.pdf=name-only"]
//!                               # the agent's own listing settings, as --agent-setting
//! steps:
//!   - load: pdf-tables          # the agent's load tool
//!   - invoke: pdf-tables        # the model invokes the skill with the agent's own tool
//!     args: report.pdf
//!   - slash: /pdf-tables report.pdf   # the user types a slash command
//!   - tool: Bash                # an ordinary tool call, judged by the policy
//!     args: {command: git status}
//!   - edit: pdf-tables          # new SKILL.md text for later turns
//!     content: |
//!       ---
//!       ...
//!   - unload: pdf-tables
//!   - user: Fill in the form in tax.pdf   # a user turn: with a model attached, the model answers
//!   - model: I'll use the pdf skill.  # the model's reply (a live session records these)
//!     calls:                      # its tool calls, run through the agent's session
//!       - tool: load_skill
//!         args: {skill_name: pdf-tables}
//!       - tool: Bash              # not a skill tool: answered "not run in simulation",
//!         args: {command: ls}     # or with `result` when given
//!         result: "tax.pdf"
//! ```

use crate::session::{Policy, Settings, Step};
use crate::syntax::text::{LineIndex, Span};
use crate::syntax::yaml::{self, Node, NodeKind, ScalarStyle};
use crate::syntax::yaml11::{resolve_core, Typed};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// A parsed script.
#[derive(Clone, Debug)]
pub struct Script {
    pub agent: String,
    /// As written, relative to the script's folder.
    pub sources: Vec<String>,
    pub settings: Settings,
    pub steps: Vec<Step>,
    /// The agent's own listing settings, `KEY=VALUE` as `skillkit prompt --agent-setting`
    /// takes them ([`crate::agent_settings`]), above the project's own settings files.
    pub agent_settings: Vec<String>,
}

/// A located mistake in a script.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScriptError {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// The folder a file is in, `.` for a bare file name: what a script's relative sources (and a
/// `SKILL.md` given to `check`) are resolved against.
pub fn folder_of(file: &Path) -> &Path {
    file.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// `to` relative to the folder `from` (both absolute), with `..` where needed: how a script or
/// a suite names a source beside it. Paths with nothing in common stay as they are.
pub fn relative(to: &Path, from: &Path) -> PathBuf {
    use std::path::Component;
    let a: Vec<Component> = to.components().collect();
    let b: Vec<Component> = from.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return to.to_path_buf();
    }
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &a[common..] {
        out.push(c.as_os_str());
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// The `sources` a script or a suite at `file` names (as parsed from `text`), resolved against
/// its folder, each kept inside the file's project ([`crate::files::project_of`]) after symlinks:
/// a source that is absolute, climbs out with `..` or runs through a symlink that leads out is a
/// mistake located at its entry in the list. Only sources given on the command line (or picked
/// in the app) may lie outside.
pub fn confine_sources(text: &str, file: &Path, sources: &[String]) -> Result<Vec<PathBuf>, Vec<ScriptError>> {
    let project = crate::files::project_of(file);
    let dir = folder_of(file);
    let mut cx = Cx::new(text);
    let mut paths = vec![];
    // Where each entry of `sources` is written (the list's items, or its one scalar).
    let y = yaml::parse(text, 0);
    let spans: Vec<Span> = y
        .root
        .as_ref()
        .and_then(Node::entries)
        .and_then(|es| es.iter().find(|e| e.key.as_str() == Some("sources")))
        .map(|e| match e.value.items() {
            Some(items) => items.iter().map(|n| n.span).collect(),
            None => vec![e.value.span],
        })
        .unwrap_or_default();
    for (i, s) in sources.iter().enumerate() {
        match crate::files::confine(&project, dir, "sources", s) {
            Ok(p) => paths.push(p),
            Err(e) => cx.err(spans.get(i).copied().unwrap_or(Span::empty(0)), e.to_string()),
        }
    }
    if cx.errors.is_empty() {
        Ok(paths)
    } else {
        Err(cx.errors)
    }
}

impl Script {
    /// The sources resolved against the folder of the script.
    pub fn source_paths(&self, script_dir: &Path) -> Vec<PathBuf> {
        // `Path::components` drops the `.` a plain join leaves inside (`./` + `./skills`).
        self.sources.iter().map(|s| script_dir.join(s).components().collect()).collect()
    }

    /// The script as text that [`parse`] reads back to the same agent, sources, settings (the
    /// session id aside) and steps. Strings are written as JSON strings, which are YAML
    /// double-quoted scalars, and tool arguments as JSON, YAML's flow style.
    pub fn to_text(&self) -> String {
        let q = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into());
        let list = |items: &[String]| items.iter().map(|s| q(s)).collect::<Vec<_>>().join(", ");
        let s = &self.settings;
        let mut out = format!("agent: {}\nsources: [{}]\n", q(&self.agent), list(&self.sources));
        if let Some(n) = s.context_window {
            out.push_str(&format!("context_window: {n}\n"));
        }
        if s.max_loaded_skills != Settings::default().max_loaded_skills {
            out.push_str(&format!("max_loaded_skills: {}\n", s.max_loaded_skills));
        }
        let policy = match s.policy {
            Policy::Recommend => "recommend",
            Policy::Restrict => "restrict",
        };
        out.push_str(&format!("policy: {policy}\n"));
        if let Some(n) = s.char_budget {
            out.push_str(&format!("char_budget: {n}\n"));
        }
        if !s.allow.is_empty() {
            out.push_str(&format!("allow: [{}]\n", list(&s.allow)));
        }
        if !self.agent_settings.is_empty() {
            out.push_str(&format!("agent_settings: [{}]\n", list(&self.agent_settings)));
        }
        if self.steps.is_empty() {
            out.push_str("steps: []\n");
            return out;
        }
        out.push_str("steps:\n");
        for step in &self.steps {
            match step {
                Step::Load { skill } => out.push_str(&format!("  - load: {}\n", q(skill))),
                Step::Unload { skill } => out.push_str(&format!("  - unload: {}\n", q(skill))),
                Step::Invoke { skill, args } => {
                    out.push_str(&format!("  - invoke: {}\n", q(skill)));
                    if let Some(a) = args {
                        out.push_str(&format!("    args: {}\n", q(a)));
                    }
                }
                Step::Slash { name, args } => {
                    let line = if args.is_empty() { format!("/{name}") } else { format!("/{name} {args}") };
                    out.push_str(&format!("  - slash: {}\n", q(&line)));
                }
                Step::Tool { name, args } => {
                    let args = serde_json::to_string(args).unwrap_or_else(|_| "{}".into());
                    out.push_str(&format!("  - tool: {}\n    args: {args}\n", q(name)));
                }
                Step::Edit { skill, content } => {
                    out.push_str(&format!("  - edit: {}\n    content: {}\n", q(skill), q(content)));
                }
                Step::User { text } => out.push_str(&format!("  - user: {}\n", q(text))),
                Step::Model { text, calls } => {
                    out.push_str(&format!("  - model: {}\n", q(text)));
                    if !calls.is_empty() {
                        out.push_str("    calls:\n");
                    }
                    for c in calls {
                        let args = serde_json::to_string(&c.args).unwrap_or_else(|_| "{}".into());
                        out.push_str(&format!("      - tool: {}\n        args: {args}\n", q(&c.tool)));
                        if let Some(r) = &c.result {
                            out.push_str(&format!("        result: {}\n", q(r)));
                        }
                    }
                }
            }
        }
        out
    }
}

/// Each alias (`*name`) in `root` as a mistake: scripts and suites take values as written, and an
/// alias would otherwise read as nothing (a step's arguments silently `null`).
pub(crate) fn refuse_aliases(cx: &mut Cx<'_>, root: &Node) {
    root.walk(&mut |n| {
        if n.kind == NodeKind::Alias {
            cx.err(n.span, "a YAML alias (`*name`) is not read here: write the value out");
        }
    });
}

/// Reads YAML values with located mistakes (session scripts, eval suites).
pub(crate) struct Cx<'a> {
    text: &'a str,
    lines: LineIndex,
    pub(crate) errors: Vec<ScriptError>,
}

impl<'a> Cx<'a> {
    pub(crate) fn new(text: &'a str) -> Cx<'a> {
        Cx { text, lines: LineIndex::new(text), errors: vec![] }
    }
}

impl Cx<'_> {
    pub(crate) fn err(&mut self, span: Span, message: impl Into<String>) {
        let p = self.lines.position(self.text, span.start);
        self.errors.push(ScriptError { message: message.into(), line: p.line, column: p.column });
    }

    pub(crate) fn string(&mut self, node: &Node, what: &str) -> Option<String> {
        match node.scalar() {
            Some((v, style)) if style != ScalarStyle::Plain || resolve_core(v) != Typed::Null => Some(v.to_string()),
            _ => {
                self.err(node.span, format!("{what} must be a string"));
                None
            }
        }
    }

    pub(crate) fn number(&mut self, node: &Node, what: &str) -> Option<u64> {
        match node.scalar().map(|(v, _)| v.replace('_', "").parse::<u64>()) {
            Some(Ok(n)) => Some(n),
            _ => {
                self.err(node.span, format!("{what} must be a whole number"));
                None
            }
        }
    }

    pub(crate) fn strings(&mut self, node: &Node, what: &str) -> Vec<String> {
        match &node.kind {
            NodeKind::Sequence(items) => items.iter().filter_map(|i| self.string(i, what)).collect(),
            NodeKind::Scalar { .. } => self.string(node, what).into_iter().collect(),
            _ => {
                self.err(node.span, format!("{what} must be a list of strings"));
                vec![]
            }
        }
    }
}

/// A YAML node as JSON (YAML 1.2 core types), for tool arguments.
fn json(node: &Node) -> serde_json::Value {
    use serde_json::Value;
    match &node.kind {
        NodeKind::Scalar { value, style } => {
            if *style != ScalarStyle::Plain || node.tag.is_some() {
                return Value::String(value.clone());
            }
            match resolve_core(value) {
                Typed::Null => Value::Null,
                Typed::Bool => Value::Bool(matches!(value.as_str(), "true" | "True" | "TRUE")),
                Typed::Int => value.parse::<i64>().map(Value::from).unwrap_or_else(|_| Value::String(value.clone())),
                Typed::Float => value
                    .parse::<f64>()
                    .ok()
                    .and_then(serde_json::Number::from_f64)
                    .map_or_else(|| Value::String(value.clone()), Value::Number),
                _ => Value::String(value.clone()),
            }
        }
        NodeKind::Sequence(items) => Value::Array(items.iter().map(json).collect()),
        NodeKind::Mapping(entries) => {
            Value::Object(entries.iter().filter_map(|e| Some((e.key.as_str()?.to_string(), json(&e.value)))).collect())
        }
        NodeKind::Alias => Value::Null,
    }
}

const STEP_KINDS: &str = "load, unload, invoke, slash, tool, edit, user, model";

/// Parses a session script. The parser keeps the agent as the id written; `agent` is asked
/// whether a session can run as it (the registry's answer, from the layer above the sessions:
/// [`crate::simulate::parse_script`] passes [`crate::agents::session_agent`]), and its `Err` is the
/// mistake reported at the `agent:` value.
pub fn parse(text: &str, agent: &dyn Fn(&str) -> Result<(), String>) -> Result<Script, Vec<ScriptError>> {
    let mut cx = Cx::new(text);
    let y = yaml::parse(text, 0);
    if let Some(e) = &y.error {
        cx.err(e.span, format!("invalid YAML: {}", e.message));
        return Err(cx.errors);
    }
    if let Some(root) = &y.root {
        refuse_aliases(&mut cx, root);
        if !cx.errors.is_empty() {
            return Err(cx.errors);
        }
    }
    let Some(entries) = y.root.as_ref().and_then(Node::entries) else {
        cx.err(Span::empty(0), "a session script is a mapping with `agent`, `sources` and `steps`");
        return Err(cx.errors);
    };
    let mut script = Script {
        agent: String::new(),
        sources: vec![],
        settings: Settings::default(),
        steps: vec![],
        agent_settings: vec![],
    };
    let mut agent_settings_at = None;
    let mut saw_agent = false;
    let mut saw_steps = false;
    for e in entries {
        let Some(key) = e.key.as_str() else {
            cx.err(e.key.span, "keys must be strings");
            continue;
        };
        let v = &e.value;
        match key {
            "agent" => {
                saw_agent = true;
                if let Some(a) = cx.string(v, "`agent`") {
                    match agent(&a) {
                        Ok(()) => script.agent = a,
                        Err(mistake) => cx.err(v.span, mistake),
                    }
                }
            }
            "sources" => script.sources = cx.strings(v, "`sources`"),
            "context_window" => script.settings.context_window = cx.number(v, "`context_window`"),
            "max_loaded_skills" => {
                if let Some(n) = cx.number(v, "`max_loaded_skills`") {
                    script.settings.max_loaded_skills = n as usize
                }
            }
            "char_budget" => script.settings.char_budget = cx.number(v, "`char_budget`").map(|n| n as usize),
            "policy" => match cx.string(v, "`policy`").as_deref() {
                Some("recommend") => script.settings.policy = Policy::Recommend,
                Some("restrict") => script.settings.policy = Policy::Restrict,
                Some(other) => cx.err(v.span, format!("unknown policy `{other}`; use recommend or restrict")),
                None => {}
            },
            "allow" => script.settings.allow = cx.strings(v, "`allow`"),
            "agent_settings" => {
                script.agent_settings = cx.strings(v, "`agent_settings`");
                agent_settings_at = Some(v.span);
            }
            "session_id" => {
                if let Some(s) = cx.string(v, "`session_id`") {
                    script.settings.session_id = s
                }
            }
            "steps" => {
                saw_steps = true;
                match v.items() {
                    Some(items) => {
                        for item in items {
                            if let Some(step) = parse_step(&mut cx, item) {
                                script.steps.push(step);
                            }
                        }
                    }
                    None => cx.err(v.span, "`steps` must be a list"),
                }
            }
            other => cx.err(
                e.key.span,
                format!("unknown key `{other}`; expected agent, sources, steps, context_window, max_loaded_skills, policy, char_budget, allow, agent_settings, session_id"),
            ),
        }
    }
    if !saw_agent {
        cx.err(Span::empty(0), "missing `agent`");
    }
    if let (Some(at), false) = (agent_settings_at, script.agent.is_empty()) {
        for a in &script.agent_settings {
            let mut layer = crate::agent_settings::Layer::default();
            if let Err(e) = crate::agent_settings::parse_assignment(&script.agent, a, &mut layer) {
                cx.err(at, format!("`agent_settings`: {}", e.trim_start_matches("--agent-setting ")));
            }
        }
    }
    if !saw_steps {
        cx.err(Span::empty(0), "missing `steps`");
    }
    if cx.errors.is_empty() {
        Ok(script)
    } else {
        Err(cx.errors)
    }
}

fn parse_step(cx: &mut Cx<'_>, item: &Node) -> Option<Step> {
    let Some(entries) = item.entries() else {
        cx.err(item.span, format!("a step is a mapping with one of: {STEP_KINDS}"));
        return None;
    };
    let Some(first) = entries.first() else {
        cx.err(item.span, format!("empty step; use one of: {STEP_KINDS}"));
        return None;
    };
    let kind = first.key.as_str().unwrap_or_default();
    let extra = |name: &str| entries.iter().skip(1).find(|e| e.key.as_str() == Some(name)).map(|e| &e.value);
    let allowed: &[&str] = match kind {
        "invoke" => &["args"],
        "tool" => &["args"],
        "edit" => &["content"],
        "model" => &["calls"],
        "slash" | "load" | "unload" | "user" => &[],
        other => {
            cx.err(first.key.span, format!("unknown step `{other}`; use one of: {STEP_KINDS}"));
            return None;
        }
    };
    let mut ok = true;
    for e in entries.iter().skip(1) {
        let k = e.key.as_str().unwrap_or_default();
        if !allowed.contains(&k) {
            cx.err(e.key.span, format!("`{kind}` steps take no `{k}`"));
            ok = false;
        }
    }
    let what = format!("`{kind}`");
    let value = cx.string(&first.value, &what)?;
    let step = match kind {
        "load" => Step::Load { skill: value },
        "unload" => Step::Unload { skill: value },
        "invoke" => Step::Invoke { skill: value, args: extra("args").and_then(|a| cx.string(a, "`args`")) },
        "slash" => {
            let line = value.strip_prefix('/').unwrap_or(&value);
            let (name, args) = line.split_once(' ').unwrap_or((line, ""));
            if name.is_empty() {
                cx.err(first.value.span, "`slash` needs a command name, e.g. /pdf-tables report.pdf");
                return None;
            }
            Step::Slash { name: name.to_string(), args: args.to_string() }
        }
        "tool" => Step::Tool { name: value, args: extra("args").map(json).unwrap_or(serde_json::json!({})) },
        "edit" => {
            let Some(content) = extra("content") else {
                cx.err(first.key.span, "`edit` needs `content`: the new SKILL.md text");
                return None;
            };
            Step::Edit { skill: value, content: cx.string(content, "`content`")? }
        }
        "user" => Step::User { text: value },
        "model" => Step::Model { text: value, calls: extra("calls").map(|c| parse_calls(cx, c)).unwrap_or_default() },
        _ => unreachable!(),
    };
    ok.then_some(step)
}

/// A model step's `calls`: `[{tool, args, result}]`.
fn parse_calls(cx: &mut Cx<'_>, node: &Node) -> Vec<crate::session::ModelCall> {
    let Some(items) = node.items() else {
        cx.err(node.span, "`calls` must be a list of {tool, args, result}");
        return vec![];
    };
    let mut calls = vec![];
    for item in items {
        let Some(entries) = item.entries() else {
            cx.err(item.span, "a call is a mapping with `tool` (and optionally `args`, `result`)");
            continue;
        };
        let (mut tool, mut args, mut result) = (None, serde_json::json!({}), None);
        for e in entries {
            match e.key.as_str() {
                Some("tool") => tool = cx.string(&e.value, "`tool`"),
                Some("args") => args = json(&e.value),
                Some("result") => result = cx.string(&e.value, "`result`"),
                _ => cx.err(e.key.span, "a call takes `tool`, `args` and `result`"),
            }
        }
        match tool {
            Some(tool) => calls.push(crate::session::ModelCall { tool, args, result }),
            None => cx.err(item.span, "a call needs a `tool`"),
        }
    }
    calls
}

#[cfg(test)]
mod tests {
    #[test]
    fn relative_paths_climb_where_needed() {
        use super::relative;
        use std::path::{Path, PathBuf};
        assert_eq!(relative(Path::new("/a/b/skills"), Path::new("/a/b/skills/x")), PathBuf::from(".."));
        assert_eq!(relative(Path::new("/a/b/skills"), Path::new("/a/b/skills")), PathBuf::from("."));
        assert_eq!(relative(Path::new("/a/c"), Path::new("/a/b")), PathBuf::from("../c"));
    }

    #[test]
    fn a_script_written_as_text_reads_back_the_same() {
        let script = Script {
            agent: "deepagents-v2".into(),
            sources: vec!["../skills".into(), "a \"quoted\" dir".into()],
            settings: Settings {
                context_window: Some(200_000),
                max_loaded_skills: 3,
                policy: Policy::Restrict,
                char_budget: Some(4000),
                allow: vec!["Bash(git:*)".into()],
                ..Settings::default()
            },
            steps: vec![
                Step::Load { skill: "pdf".into() },
                Step::Invoke { skill: "pdf".into(), args: Some("a: b".into()) },
                Step::Slash { name: "pdf".into(), args: "x y".into() },
                Step::Tool { name: "Bash".into(), args: serde_json::json!({"command": "ls"}) },
                Step::Edit { skill: "pdf".into(), content: "---\nname: pdf\n---\n".into() },
                Step::Unload { skill: "pdf".into() },
                Step::User { text: "Fill the \"form\"\nplease".into() },
                Step::Model {
                    text: String::new(),
                    calls: vec![
                        crate::session::ModelCall {
                            tool: "load_skill".into(),
                            args: serde_json::json!({"skill_name": "pdf"}),
                            result: None,
                        },
                        crate::session::ModelCall {
                            tool: "Bash".into(),
                            args: serde_json::json!({"command": "ls", "n": [1, true]}),
                            result: Some("a.txt\n".into()),
                        },
                    ],
                },
                Step::Model { text: "Done: it's filled.".into(), calls: vec![] },
            ],
            agent_settings: vec![],
        };
        let back = parse(&script.to_text()).unwrap();
        assert_eq!((&back.agent, &back.sources, &back.steps), (&script.agent, &script.sources, &script.steps));
        let (a, b) = (&back.settings, &script.settings);
        assert_eq!(
            (a.context_window, a.max_loaded_skills, a.policy, a.char_budget, &a.allow),
            (b.context_window, b.max_loaded_skills, b.policy, b.char_budget, &b.allow)
        );
        let empty = Script {
            agent: "codex".into(),
            sources: vec![],
            settings: Settings::default(),
            steps: vec![],
            agent_settings: vec![],
        };
        assert_eq!(empty.to_text(), "agent: \"codex\"\nsources: []\npolicy: recommend\nsteps: []\n");
    }

    use super::*;

    /// A script parsed with the registry's check of its agent, as the CLI and the app parse it.
    fn parse(text: &str) -> Result<Script, Vec<ScriptError>> {
        crate::simulate::parse_script(text)
    }

    #[test]
    fn a_full_script() {
        let s = parse(
            "agent: deepagents-v2\nsources: [a, b]\nmax_loaded_skills: 2\npolicy: restrict\nsteps:\n  - load: x\n  - invoke: y\n    args: some args\n  - slash: /z one two\n  - tool: Bash\n    args: {command: git status, timeout: 5}\n  - edit: x\n    content: |\n      ---\n      name: x\n  - unload: x\n",
        )
        .unwrap();
        assert_eq!(s.agent, "deepagents-v2");
        assert_eq!(s.sources, ["a", "b"]);
        assert_eq!(s.settings.max_loaded_skills, 2);
        assert_eq!(s.settings.policy, Policy::Restrict);
        assert_eq!(s.steps.len(), 6);
        assert_eq!(s.steps[2], Step::Slash { name: "z".into(), args: "one two".into() });
        assert_eq!(
            s.steps[3],
            Step::Tool { name: "Bash".into(), args: serde_json::json!({"command": "git status", "timeout": 5}) }
        );
        assert_eq!(s.steps[4], Step::Edit { skill: "x".into(), content: "---\nname: x\n".into() });
    }

    #[test]
    fn mistakes_are_located() {
        let e =
            parse("agent: nobody\nsteps:\n  - lod: x\n  - load: [1]\n  - tool: Bash\n    content: x\n").unwrap_err();
        let found: Vec<(usize, usize, &str)> = e.iter().map(|e| (e.line, e.column, e.message.as_str())).collect();
        assert_eq!(found[0].0, 1);
        assert!(found[0].2.starts_with("unknown agent `nobody`"));
        assert_eq!((found[1].0, found[1].1), (3, 5));
        assert!(found[1].2.starts_with("unknown step `lod`"));
        assert_eq!((found[2].0, found[2].1), (4, 11));
        assert_eq!((found[3].0, found[3].1), (6, 5));
        let e = parse("agent: codex\nsteps: [\n").unwrap_err();
        assert!(e[0].message.starts_with("invalid YAML"));
        assert_eq!(parse("- a\n").unwrap_err()[0].line, 1);
        assert!(parse("agent: spec\nsteps: []\n").unwrap_err()[0].message.contains("only lints"));
    }
}
