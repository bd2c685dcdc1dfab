use crate::lint::rules::{ruamel_mark, Context};
use crate::syntax::frontmatter::Reading;
use crate::syntax::text::Span;
use crate::syntax::yaml::Node;
use std::collections::hash_map::Entry;
use std::collections::HashMap;

declare_rule! {
    /// A mapping has the same key twice.
    ///
    /// ## What it does
    /// Reports every repeated key, in the frontmatter and in nested maps such as `metadata`,
    /// pointing back at the first occurrence.
    ///
    /// ## Why is this bad?
    /// YAML requires unique keys. PyYAML (DeepAgents) and most JavaScript parsers silently keep
    /// the last value, skills-ref rejects the file (`Duplicate key ... found`). Usually one of the
    /// two values is an edit that was meant to replace the other.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables.
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## skills-ref
    /// `Invalid YAML in frontmatter: While parsing ... Duplicate key '{key}' found`
    pub DuplicateKey {
        code: "SK303",
        name: "duplicate-key",
        group: Parity,
        severity: Error,
        fix: None,
        sources: ["YAML 1.2: mapping keys are unique", "skills-ref 0.1.1 (strictyaml): Duplicate key '{key}' found", "PyYAML: last value wins"],
    }
}

/// Every repeated key with the span of its first occurrence: one pass per mapping with a map of
/// first occurrences (a frontmatter may have 50,000 keys, too many to compare pairwise). The
/// standard hasher, since the keys are the file's to choose.
fn duplicates(node: &Node, out: &mut Vec<(Span, Span, String)>) {
    node.walk(&mut |n| {
        let Some(entries) = n.entries() else { return };
        let mut first: HashMap<&str, Span> = HashMap::with_capacity(entries.len());
        for e in entries {
            let Some(k) = e.key.as_str() else { continue };
            match first.entry(k) {
                Entry::Occupied(o) => out.push((e.key.span, *o.get(), k.to_string())),
                Entry::Vacant(v) => {
                    v.insert(e.key.span);
                }
            }
        }
    });
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if cx.skill.frontmatter.reading != Reading::Yaml {
        return;
    }
    let Some(root) = &cx.skill.yaml.root else { return };
    let mut found = vec![];
    duplicates(root, &mut found);
    found.sort_by_key(|(s, _, _)| s.start);
    for (span, first, key) in found {
        let msg = if cx.skills_ref() {
            format!(
                "Invalid YAML in frontmatter: While parsing\n{}\nDuplicate key '{key}' found\n{}",
                ruamel_mark(cx.skill, span.start),
                ruamel_mark(cx.skill, span.end)
            )
        } else {
            format!("duplicate key `{key}`: DeepAgents keeps the last value, skills-ref rejects the file")
        };
        cx.report(span, msg).label(first, "first defined here");
        if cx.skills_ref() {
            break;
        }
    }
}
