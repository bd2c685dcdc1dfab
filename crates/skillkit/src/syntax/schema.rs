//! The frontmatter's JSON Schema (`schema/skill.schema.json`, published for editors) and its use
//! in the engine: the YAML tree is turned into JSON the way YAML 1.2 loaders type it, validated
//! with the `jsonschema` crate, and each error is mapped back to the YAML node that caused it.

use crate::syntax::text::Span;
use crate::syntax::yaml::{Node, NodeKind, ScalarStyle};
use crate::syntax::yaml11::{resolve_core, Typed};
use serde_json::{Map, Value};
use std::sync::OnceLock;

/// The schema's text, as published.
pub const SCHEMA_JSON: &str = include_str!("../../schema/skill.schema.json");

fn validator() -> &'static jsonschema::Validator {
    static V: OnceLock<jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| {
        let schema: Value = serde_json::from_str(SCHEMA_JSON).expect("schema/skill.schema.json is JSON");
        // The schema's patterns need no look-around: the `regex` engine, linear and several times
        // faster than the default backtracking one.
        jsonschema::options()
            .with_pattern_options(jsonschema::PatternOptions::regex())
            .build(&schema)
            .expect("schema/skill.schema.json is a valid schema")
    })
}

/// The node as JSON, typed as YAML 1.2 core-schema loaders type it. Aliases become null.
pub fn to_json(node: &Node) -> Value {
    match &node.kind {
        NodeKind::Scalar { value, style } => {
            if *style != ScalarStyle::Plain || node.tag.is_some() {
                return Value::String(value.clone());
            }
            match resolve_core(value) {
                Typed::Null => Value::Null,
                Typed::Bool => Value::Bool(value.eq_ignore_ascii_case("true")),
                Typed::Int | Typed::Float => serde_json::from_str::<serde_json::Number>(value.trim_start_matches('+'))
                    .map(Value::Number)
                    .or_else(|_| {
                        value.parse::<f64>().ok().and_then(serde_json::Number::from_f64).map(Value::Number).ok_or(())
                    })
                    .unwrap_or_else(|_| Value::String(value.clone())),
                _ => Value::String(value.clone()),
            }
        }
        NodeKind::Sequence(items) => Value::Array(items.iter().map(to_json).collect()),
        NodeKind::Mapping(entries) => {
            let mut map = Map::new();
            for e in entries {
                if let Some(k) = e.key.as_str() {
                    map.insert(k.to_string(), to_json(&e.value));
                }
            }
            Value::Object(map)
        }
        NodeKind::Alias => Value::Null,
    }
}

/// One schema violation, located.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaError {
    /// JSON pointer of the offending value, e.g. `/metadata/version`.
    pub pointer: String,
    pub span: Span,
    pub message: String,
    /// The keyword that failed: `type`, `enum`, `required`, `maxLength`, ...
    pub keyword: &'static str,
    /// The node that failed, when the pointer leads to one.
    pub node: Option<Node>,
}

/// Follow a JSON pointer through the YAML tree (last duplicate key wins, as in the JSON).
pub fn locate<'a>(root: &'a Node, pointer: &str) -> Option<&'a Node> {
    let mut node = root;
    for seg in pointer.split('/').skip(1) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        node = match &node.kind {
            NodeKind::Mapping(entries) => &entries.iter().rev().find(|e| e.key.as_str() == Some(seg.as_str()))?.value,
            NodeKind::Sequence(items) => items.get(seg.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

fn describe(kind: &jsonschema::error::ValidationErrorKind, instance: &Value) -> (&'static str, String) {
    use jsonschema::error::ValidationErrorKind as K;
    let found = match instance {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    };
    match kind {
        K::Type { kind } => {
            let want = format!("{kind:?}").to_lowercase().replace("single(", "").replace(')', "");
            let want = match want.as_str() {
                "object" => "a mapping".to_string(),
                "array" => "a list".to_string(),
                "string" => "a string".to_string(),
                "boolean" => "a boolean".to_string(),
                other => other.to_string(),
            };
            ("type", format!("must be {want}, not {found}"))
        }
        K::Enum { options } => ("enum", format!("must be one of {options}")),
        K::AnyOf { .. } => ("anyOf", format!("has the wrong type ({found})")),
        K::Required { property } => ("required", format!("is missing required field {property}")),
        K::MaxLength { limit } => ("maxLength", format!("is longer than {limit} characters")),
        K::MinLength { limit } => ("minLength", format!("is shorter than {limit} characters")),
        K::Pattern { pattern } => ("pattern", format!("does not match `{pattern}`")),
        _ => ("other", "is not valid".to_string()),
    }
}

/// Validate a frontmatter root against the schema.
pub fn validate(root: &Node) -> Vec<SchemaError> {
    let json = to_json(root);
    let mut errors = validator()
        .iter_errors(&json)
        .map(|e| {
            let pointer = e.instance_path().as_str().to_string();
            let node = locate(root, &pointer).cloned();
            let span = node.as_ref().map_or(root.span, |n| n.span);
            let (keyword, what) = describe(e.kind(), e.instance());
            let field = if pointer.is_empty() {
                "frontmatter".to_string()
            } else {
                format!("`{}`", pointer[1..].replace('/', "."))
            };
            SchemaError { message: format!("{field} {what}"), pointer, span, keyword, node }
        })
        .collect::<Vec<_>>();
    errors.sort_by(|a, b| (a.span.start, &a.pointer).cmp(&(b.span.start, &b.pointer)));
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::yaml::parse;

    fn errors(src: &str) -> Vec<(String, String, String)> {
        let root = parse(src, 0).root.unwrap();
        validate(&root).into_iter().map(|e| (e.pointer, e.span.slice(src).to_string(), e.message)).collect()
    }

    #[test]
    fn valid_frontmatter_passes() {
        assert!(errors("name: a\ndescription: d\nmetadata:\n  v: \"1.0\"\neffort: high\n").is_empty());
    }

    #[test]
    fn errors_map_back_to_yaml_nodes() {
        let e = errors("name: a\ndescription: d\nmetadata:\n  owner:\n    team: x\neffort: extreme\n");
        assert_eq!(e[0].0, "/metadata/owner");
        assert!(e[0].1.starts_with("team: x"));
        assert_eq!(e[0].2, "`metadata.owner` must be a string, not a mapping");
        assert_eq!(e[1].1, "extreme");
    }

    #[test]
    fn yaml12_typing_is_used() {
        let e = errors("name: a\ndescription: d\nlicense: 2\n");
        assert_eq!(e[0].2, "`license` must be a string, not a number");
    }
}
