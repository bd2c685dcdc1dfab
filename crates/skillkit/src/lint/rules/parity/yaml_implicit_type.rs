use crate::lint::rules::{fields_checkable, quote_edit, Context};
use crate::lint::diagnostic::Applicability;
use crate::syntax::yaml::Node;
use crate::syntax::yaml11::{resolve_core, resolve_yaml11, Typed};

declare_rule! {
    /// An unquoted value that should be text is read as a boolean, number or date by some loaders.
    ///
    /// ## What it does
    /// Checks unquoted values where the frontmatter expects a string (`name`, `description`,
    /// `license`, `compatibility`, `allowed-tools`, `metadata` values and Claude Code's text
    /// fields) and reports those that a loader types as something else: PyYAML (YAML 1.1, used by
    /// DeepAgents) reads `no`, `on`, `yes` as booleans, `1_000` and `0777` as integers, `1:30` as
    /// sexagesimal and `2026-01-31` as a date; YAML 1.2 loaders (Claude Code, Codex, Gemini CLI)
    /// read `true`, `123` and `1.0` as non-strings too. skills-ref (strictyaml) reads every scalar as
    /// a string, so this rule is off under `--agent agentskills`.
    ///
    /// ## Why is this bad?
    /// The value the agent sees is not the one you wrote: `version: 1.0` becomes `1` in
    /// JavaScript, `name: no` becomes `False` in DeepAgents, and a `metadata` value that is not a
    /// string breaks the specification's "string to string" map.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// metadata:
    ///   version: 1.0
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// metadata:
    ///   version: "1.0"
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Fix
    /// Quote the value (safe).
    pub YamlImplicitType {
        code: "SK307",
        name: "yaml-implicit-type",
        group: Parity,
        severity: Warning,
        fix: Safe,
        sources: ["PyYAML resolver.py (YAML 1.1 implicit types)", "YAML 1.2 core schema", "spec: metadata \"A map from string keys to string values\""],
    }
}

const STRING_FIELDS: [&str; 9] = [
    "name", "description", "license", "compatibility", "allowed-tools", "when_to_use", "argument-hint", "model", "agent",
];

fn reading(v: &str) -> Option<String> {
    let (t11, t12) = (resolve_yaml11(v), resolve_core(v));
    let named = |t: Typed| format!("a {}", t.name());
    match (t11, t12) {
        (Typed::Null, _) | (_, Typed::Null) => None,
        (Typed::Str, Typed::Str) => None,
        (a, Typed::Str) => Some(format!("PyYAML (DeepAgents) reads it as {}; YAML 1.2 loaders and skills-ref read a string", named(a))),
        (Typed::Str, b) => Some(format!("YAML 1.2 loaders (Claude Code, Codex, Gemini CLI) read it as {}; PyYAML and skills-ref read a string", named(b))),
        (a, b) if a == b => Some(format!("YAML loaders (DeepAgents, Claude Code, Codex, Gemini CLI) read it as {}; only skills-ref reads a string", named(a))),
        (a, b) => Some(format!("PyYAML (DeepAgents) reads it as {}, YAML 1.2 loaders as {}; only skills-ref reads a string", named(a), named(b))),
    }
}

fn check_node(cx: &mut Context<'_>, label: &str, node: &Node) {
    if !node.is_plain() {
        return;
    }
    let Some(v) = node.as_str() else { return };
    if let Some(how) = reading(v) {
        let edit = quote_edit(cx.text(), node.span);
        cx.report(node.span, format!("`{label}: {v}` is not a string to every loader: {how}"))
            .fix("Quote the value", Applicability::Safe, vec![edit]);
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !fields_checkable(cx) || cx.skill.frontmatter.reading != crate::syntax::frontmatter::Reading::Yaml {
        return;
    }
    let fields = &cx.skill.frontmatter.fields;
    for f in fields {
        if STRING_FIELDS.contains(&f.key.as_str()) {
            check_node(cx, &f.key, &f.value);
        } else if f.key == "metadata" {
            for e in f.value.entries().unwrap_or(&[]) {
                let key = format!("metadata.{}", e.key.as_str().unwrap_or("?"));
                check_node(cx, &key, &e.value);
            }
        }
    }
}
