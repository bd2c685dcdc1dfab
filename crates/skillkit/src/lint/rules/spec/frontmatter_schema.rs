use crate::lint::rules::Context;
use crate::lint::diagnostic::Severity;
use crate::syntax::fields::{known_field, Origin};
use crate::syntax::frontmatter::Reading;
use crate::syntax::schema;
use crate::syntax::yaml::NodeKind;

declare_rule! {
    /// A field's value has the wrong type or an unknown value, by the published JSON Schema.
    ///
    /// ## What it does
    /// Validates the frontmatter against `schema/skill.schema.json` (the same schema editors use
    /// through `# yaml-language-server: $schema=`), with values typed as YAML 1.2 loaders type
    /// them, and reports each violation on the YAML node responsible: `license` given as a list,
    /// `metadata` values that are maps or lists, `effort: extreme`, `context: spawn`,
    /// `disable-model-invocation: maybe`. Errors in spec fields are errors; in extension fields,
    /// warnings. `name`, `description`, `compatibility`, a list-valued `allowed-tools` and
    /// unquoted scalars that are typed as numbers or booleans have rules of their own.
    ///
    /// ## Why is this bad?
    /// Loaders coerce or drop values of the wrong type, each in their own way: DeepAgents turns a
    /// non-map `metadata` into `{}` and stringifies nested maps, Claude Code ignores an unknown
    /// `effort`. The value you wrote is not the value the agent uses.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// metadata:
    ///   owner:
    ///     team: docs
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
    ///   owner-team: docs
    /// ---
    /// Body.
    /// ```
    pub FrontmatterSchema {
        code: "SK231",
        name: "frontmatter-schema",
        group: Spec,
        severity: Error,
        fix: None,
        sources: ["schema/skill.schema.json", "spec: metadata \"A map from string keys to string values\"", "Claude Code skills docs (field types)"],
    }
}

const OWNED_BY_OTHER_RULES: [&str; 3] = ["name", "description", "compatibility"];

pub(crate) fn check(cx: &mut Context<'_>) {
    if cx.skill.frontmatter.reading != Reading::Yaml {
        return;
    }
    let Some(root) = cx.skill.yaml.root.as_ref().filter(|r| r.entries().is_some()) else { return };
    for e in schema::validate(root) {
        let top = e.pointer.split('/').nth(1).unwrap_or("");
        if e.keyword == "required" || OWNED_BY_OTHER_RULES.contains(&top) {
            continue;
        }
        if let Some(node) = &e.node {
            if top == "allowed-tools" && matches!(node.kind, NodeKind::Sequence(_)) {
                continue;
            }
            // Unquoted numbers and booleans where a string belongs: `yaml-implicit-type`.
            if node.is_plain() && e.keyword == "type" && e.message.contains("must be a string") {
                continue;
            }
        }
        let severity = match known_field(top).map(|f| f.origin) {
            Some(Origin::Extension(_)) => Severity::Warning,
            _ => Severity::Error,
        };
        cx.report_as(severity, e.span, e.message);
    }
}
