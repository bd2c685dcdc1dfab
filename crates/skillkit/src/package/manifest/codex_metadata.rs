//! A skill's `agents/openai.yaml`, which Codex reads into its list.

use super::checks::*;
use crate::lint::rules::package as r;
use crate::package::upload::Finding;
use std::path::{Component, Path};

/// The value of `key` in a YAML mapping's `entries`.
pub(super) fn get<'a>(entries: &'a [crate::syntax::yaml::Entry], key: &str) -> Option<&'a crate::syntax::yaml::Node> {
    entries.iter().find(|e| e.key.as_str() == Some(key)).map(|e| &e.value)
}

/// The findings on a skill's Codex metadata (`agents/openai.yaml`, `text`) whose skill folder is
/// `skill_dir`, each at its YAML node.
pub fn codex_metadata(text: &str, skill_dir: &Path) -> Vec<Located> {
    use crate::syntax::yaml::{self, NodeKind};
    let meta = &r::codex_skill_metadata::CodexSkillMetadata::META;
    let mut out = vec![];
    let y = yaml::parse(text, 0);
    if let Some(e) = &y.error {
        at(
            &mut out,
            e.span,
            Finding::new(
                meta,
                format!("agents/openai.yaml: invalid YAML: {}", e.message),
                "Codex drops metadata it cannot read",
            ),
        );
        return out;
    }
    let Some(root) = &y.root else { return out };
    let Some(entries) = root.entries() else {
        at(
            &mut out,
            root.span,
            Finding::new(
                meta,
                format!("agents/openai.yaml: expected a mapping, found {}", root.kind_name()),
                "the file is a mapping of `interface` and `policy`",
            ),
        );
        return out;
    };
    if let Some(interface) = get(entries, "interface").and_then(|n| n.entries()) {
        for key in ["icon_small", "icon_large"] {
            let Some(node) = get(interface, key) else { continue };
            let Some(path) = node.as_str() else { continue };
            let rel = path.trim_start_matches("./");
            let inside = !Path::new(rel).components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir));
            if !inside || !skill_dir.join(rel).is_file() {
                at(
                    &mut out,
                    node.span,
                    Finding::new(
                        meta,
                        format!("interface.{key}: `{path}` is not a file of the skill"),
                        "Codex shows a broken entry for a dangling icon",
                    ),
                );
            }
        }
    }
    if let Some(policy) = get(entries, "policy").and_then(|n| n.entries()) {
        if let Some(node) = get(policy, "allow_implicit_invocation") {
            let boolean = matches!(&node.kind, NodeKind::Scalar { value, .. } if node.is_plain() && matches!(value.as_str(), "true" | "false"));
            if !boolean {
                at(
                    &mut out,
                    node.span,
                    Finding::new(
                        meta,
                        "policy.allow_implicit_invocation: expected `true` or `false`",
                        "write the boolean unquoted",
                    ),
                );
            }
        }
    }
    out
}
