//! What an editor asks about a skill file at a place in its text: hover, completion, links and
//! the code lenses. Offsets are bytes into the file's text; the edges translate positions.

use super::Workspace;
use crate::agent::Agent;
use crate::prompt::{Decision, Prompt, PromptSkill};
use crate::syntax::fields::{known_field, readers, Origin, KNOWN_FIELDS};
use crate::syntax::text::Span;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Markdown to show for the thing under the cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    pub span: Span,
    pub markdown: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    /// A frontmatter key.
    Key,
    /// One of a key's enumerated values.
    Value,
    /// A file or folder of the skill.
    File,
    Folder,
}

/// One completion: `insert` replaces the bytes of `span` (what was typed so far).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: String,
    pub documentation: String,
    pub insert: String,
    pub span: Span,
}

/// A reference of the body to a file of the skill that exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub span: Span,
    pub target: PathBuf,
}

/// What an agent does with the skill, for a code lens on its frontmatter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lens {
    pub agent: &'static str,
    /// "listed by Claude Code · 64 tokens".
    pub title: String,
}

/// The agents the lenses and the description's hover speak for: the four programs, and the
/// workspace's own agent when it is another.
fn listing_agents(own: &'static Agent) -> Vec<&'static Agent> {
    let mut agents: Vec<&'static Agent> = ["claude-code", "codex", "gemini-cli", "deepagents"]
        .iter()
        .filter_map(|id| crate::agents::find_agent(id))
        .collect();
    if own.prompt.is_some() && !agents.iter().any(|a| a.id == own.id) {
        agents.insert(0, own);
    }
    agents
}

/// The skill's record in a rendered prompt: the one the agent lists when it has two (listed, and
/// shadowed in a later source).
fn record<'p>(prompt: &'p Prompt, dir: &Path) -> Option<&'p PromptSkill> {
    let mut found = prompt.skills.iter().filter(|s| s.dir.as_deref() == Some(dir));
    let first = found.next()?;
    Some(found.find(|s| s.decision != Decision::Invalid && first.decision == Decision::Invalid).unwrap_or(first))
}

/// "listed by Claude Code · 64 tokens", and the like for each decision.
fn fate_line(agent: &Agent, record: Option<&PromptSkill>) -> String {
    let who = crate::verdict::short_title(agent);
    let Some(s) = record else { return format!("not found by {who}") };
    let tokens = |n: usize| format!("{n} token{}", if n == 1 { "" } else { "s" });
    match s.decision {
        Decision::Full => format!("listed by {who} · {}", tokens(s.tokens)),
        Decision::Truncated => format!("shortened by {who} · {}", tokens(s.tokens)),
        Decision::NameOnly => format!("name only in {who} · {}", tokens(s.tokens)),
        Decision::Dropped => format!("dropped by {who} (listing budget)"),
        Decision::Hidden => format!("not listed by {who}"),
        Decision::Invalid => format!("skipped by {who}"),
        Decision::Shadowed => format!("hidden in {who} by another skill"),
    }
}

/// The frontmatter key (top level) whose key or value holds `offset`.
fn field_at(skill: &crate::skill::Skill, offset: usize) -> Option<(&crate::syntax::frontmatter::Field, bool)> {
    skill.frontmatter.fields.iter().find_map(|f| {
        if f.key_span.start <= offset && offset <= f.key_span.end {
            Some((f, true))
        } else if f.value.span.start <= offset && offset <= f.value.span.end && !f.value.span.is_empty() {
            Some((f, false))
        } else {
            None
        }
    })
}

/// The schema's entry for a key.
fn schema_property(key: &str) -> Option<&'static Value> {
    static SCHEMA: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    let schema = SCHEMA.get_or_init(|| serde_json::from_str(crate::syntax::schema::SCHEMA_JSON).unwrap_or(Value::Null));
    schema.get("properties")?.get(key)
}

/// The values a key takes from a fixed set, from the schema (`enum`, or a flag's booleans).
fn enumerated(key: &str) -> Vec<String> {
    let Some(p) = schema_property(key) else { return vec![] };
    if let Some(values) = p.get("enum").and_then(Value::as_array) {
        return values.iter().filter_map(|v| v.as_str().map(str::to_string)).collect();
    }
    if p.get("$ref").and_then(Value::as_str) == Some("#/$defs/flag") {
        return vec!["true".into(), "false".into()];
    }
    vec![]
}

fn key_documentation(key: &str) -> String {
    let mut doc = String::new();
    if let Some(d) = schema_property(key).and_then(|p| p.get("description")).and_then(Value::as_str) {
        doc.push_str(d);
    } else if let Some(f) = known_field(key) {
        doc.push_str(f.summary);
    }
    match known_field(key).map(|f| f.origin) {
        Some(Origin::Spec) => doc.push_str("\n\nA field of the Agent Skills specification: every agent accepts it."),
        Some(Origin::Extension(agents)) => doc
            .push_str(&format!("\n\nAn extension field: only {} reads it; other agents ignore it.", agents.join(", "))),
        None => {}
    }
    let how: Vec<String> = readers(key).map(|(agent, how)| format!("- **{agent}**: {how}")).collect();
    if !how.is_empty() {
        doc.push_str("\n\n");
        doc.push_str(&how.join("\n"));
    }
    doc
}

impl Workspace {
    /// Hover at `offset` of an open skill file: a frontmatter key's documentation (what it is,
    /// which agents read it and how), or the description's size and how each agent lists it.
    pub fn hover(&self, path: &Path, offset: usize) -> Option<Hover> {
        let e = self.skill_at(path)?;
        let (field, on_key) = field_at(&e.skill, offset)?;
        if field.key == "description" && !on_key {
            return Some(Hover { span: field.value.span, markdown: self.description_hover(e) });
        }
        let markdown = match known_field(&field.key) {
            Some(_) => format!("**`{}`**\n\n{}", field.key, key_documentation(&field.key)),
            None => format!(
                "**`{}`**\n\nNot a field any agent we know reads: the specification's loaders reject unknown keys, \
                 the others ignore them.",
                field.key
            ),
        };
        Some(Hover { span: if on_key { field.key_span } else { field.value.span }, markdown })
    }

    fn description_hover(&self, e: &crate::library::Entry) -> String {
        let value = e.skill.frontmatter.str("description").unwrap_or("");
        let chars = value.chars().count();
        let tokens = crate::syntax::tokens::count_o200k(value);
        let mut md = format!(
            "**`description`**: {chars} characters (the specification allows 1,024), {tokens} tokens (o200k_base)\n\n\
             How each agent lists this skill with the library as it stands (unsaved edits included):\n"
        );
        for agent in listing_agents(self.agent) {
            let Some(prompt) = self.prompt(agent) else { continue };
            let r = record(&prompt, &e.skill.dir);
            md.push_str(&format!("\n- {}", fate_line(agent, r)));
            if let Some(s) = r {
                if matches!(s.decision, Decision::Full | Decision::Truncated | Decision::NameOnly) {
                    md.push_str(&format!(" ({} characters)", s.chars));
                }
                if let Some(reason) = &s.reason {
                    md.push_str(&format!(": {reason}"));
                }
            }
            if let Some(b) = &prompt.budget {
                md.push_str(&format!("; its budget: {} of {} {} used by the whole listing", b.needed, b.limit, b.unit));
            }
        }
        md
    }

    /// Completions at `offset` of an open skill file: frontmatter keys at the start of a
    /// top-level line, a key's enumerated values after its colon, files of the skill folder in a
    /// Markdown link's destination.
    pub fn complete(&self, path: &Path, offset: usize) -> Vec<Completion> {
        let Some(e) = self.skill_at(path) else { return vec![] };
        let text = &e.skill.text;
        let offset = crate::syntax::text::floor_char_boundary(text, offset.min(text.len()));
        let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let before = &text[line_start..offset];
        let yaml = e.skill.split.yaml;
        let in_frontmatter = yaml.is_some_and(|y| y.start <= offset && offset <= y.end)
            || (e.skill.split.open.is_some() && e.skill.split.close.is_none() && offset >= e.skill.split.body.start);
        if in_frontmatter {
            return frontmatter_completions(&e.skill, before, offset);
        }
        if offset >= e.skill.split.body.start {
            return file_completions(e, before, offset);
        }
        vec![]
    }

    /// The body's references to files of the skill that exist, each with the file it opens.
    pub fn links(&self, path: &Path) -> Vec<Link> {
        let Some(e) = self.skill_at(path) else { return vec![] };
        let files = e.skill.resources.as_ref();
        e.skill
            .references()
            .iter()
            .filter(|r| !r.escapes)
            .filter_map(|r| {
                let rel = r.path.as_deref().filter(|p| !p.is_empty())?;
                let exists =
                    files.is_some_and(|f| f.files.iter().any(|x| x.path == rel) || f.dirs.iter().any(|d| d == rel));
                exists.then(|| Link { span: r.span, target: e.skill.dir.join(rel) })
            })
            .collect()
    }

    /// The file the reference at `offset` opens.
    pub fn definition(&self, path: &Path, offset: usize) -> Option<PathBuf> {
        self.links(path).into_iter().find(|l| l.span.start <= offset && offset <= l.span.end).map(|l| l.target)
    }

    /// One lens per listing agent: what it does with the skill and what its entry costs.
    pub fn lenses(&self, path: &Path) -> Vec<Lens> {
        let Some(e) = self.skill_at(path) else { return vec![] };
        listing_agents(self.agent)
            .into_iter()
            .filter_map(|agent| {
                let prompt = self.prompt(agent)?;
                Some(Lens { agent: agent.id, title: fate_line(agent, record(&prompt, &e.skill.dir)) })
            })
            .collect()
    }
}

fn frontmatter_completions(skill: &crate::skill::Skill, before: &str, offset: usize) -> Vec<Completion> {
    let is_key_char = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if before.chars().all(is_key_char) {
        let span = Span::new(offset - before.len(), offset);
        let present: Vec<&str> = skill.frontmatter.fields.iter().map(|f| f.key.as_str()).collect();
        return KNOWN_FIELDS
            .iter()
            .filter(|f| !present.contains(&f.key) || f.key == before)
            .map(|f| Completion {
                label: f.key.to_string(),
                kind: CompletionKind::Key,
                detail: match f.origin {
                    Origin::Spec => "specification field".to_string(),
                    Origin::Extension(agents) => format!("{} extension", agents.join(", ")),
                },
                documentation: key_documentation(f.key),
                insert: format!("{}: ", f.key),
                span,
            })
            .collect();
    }
    let Some((key, rest)) = before.split_once(':') else { return vec![] };
    if !key.chars().all(is_key_char) || key.is_empty() {
        return vec![];
    }
    let typed = rest.trim_start();
    if !typed.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return vec![];
    }
    let span = Span::new(offset - typed.len(), offset);
    enumerated(key)
        .into_iter()
        .map(|v| Completion {
            label: v.clone(),
            kind: CompletionKind::Value,
            detail: format!("`{key}` value"),
            documentation: key_documentation(key),
            insert: v,
            span,
        })
        .collect()
}

/// Files of the skill folder, in a Markdown link destination (`](` typed so far) or a
/// reference definition (`[x]: `).
fn file_completions(e: &crate::library::Entry, before: &str, offset: usize) -> Vec<Completion> {
    let typed = match before.rfind("](") {
        Some(i) if !before[i + 2..].contains([')', ' ']) => &before[i + 2..],
        _ => {
            let t = before.trim_start();
            match t.strip_prefix('[').and_then(|t| t.split_once("]:")) {
                Some((_, dest)) if !dest.trim_start().contains(' ') => dest.trim_start(),
                _ => return vec![],
            }
        }
    };
    let Some(resources) = e.skill.resources.as_ref() else { return vec![] };
    let stripped = typed.strip_prefix("./").unwrap_or(typed);
    let span = Span::new(offset - stripped.len(), offset);
    let folders = resources.dirs.iter().map(|d| (d.as_str(), CompletionKind::Folder));
    let files =
        resources.files.iter().filter(|f| f.path != e.skill.file_name).map(|f| (f.path.as_str(), CompletionKind::File));
    folders
        .chain(files)
        .filter(|(p, _)| p.starts_with(stripped))
        .map(|(p, kind)| Completion {
            label: p.to_string(),
            kind,
            detail: match kind {
                CompletionKind::Folder => "folder of the skill".into(),
                _ => "file of the skill".into(),
            },
            documentation: String::new(),
            insert: p.to_string(),
            span,
        })
        .collect()
}
