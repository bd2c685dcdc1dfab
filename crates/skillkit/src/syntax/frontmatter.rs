//! The frontmatter as fields: every top-level key with its span and value node, in file order,
//! duplicates included. Built from the YAML tree, or from the lenient line reading when the YAML
//! does not parse, so that the app and the rules always have something to show.

use crate::syntax::split::Split;
use crate::syntax::text::Span;
use crate::syntax::yaml::{self, Node, NodeKind, ScalarStyle, Yaml};

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub key: String,
    pub key_span: Span,
    pub value: Node,
}

/// How the fields were obtained.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reading {
    /// No frontmatter at all.
    #[default]
    None,
    /// Parsed as YAML.
    Yaml,
    /// The YAML is broken; fields come from reading `key: value` lines as lenient loaders do.
    Lenient,
    /// The YAML parsed, but its root is not a mapping.
    NotMapping,
    /// The frontmatter is empty (only whitespace or comments).
    Empty,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frontmatter {
    pub reading: Reading,
    pub fields: Vec<Field>,
    /// Span of the YAML text (empty at the body start when there is no frontmatter).
    pub span: Span,
}

impl Frontmatter {
    pub fn from_yaml(text: &str, split: &Split, yaml: &Yaml) -> Frontmatter {
        let Some(span) = split.yaml else {
            return Frontmatter { span: Span::empty(split.body.start), ..Default::default() };
        };
        if yaml.error.is_some() {
            let fields = yaml::lenient_fields(span.slice(text), span.start)
                .into_iter()
                .map(|f| Field {
                    key: f.key,
                    key_span: f.key_span,
                    value: Node {
                        kind: NodeKind::Scalar { value: f.value, style: ScalarStyle::Plain },
                        span: f.value_span,
                        flow: false,
                        anchor: false,
                        tag: None,
                    },
                })
                .collect();
            return Frontmatter { reading: Reading::Lenient, fields, span };
        }
        match &yaml.root {
            None => Frontmatter { reading: Reading::Empty, fields: vec![], span },
            Some(Node { kind: NodeKind::Scalar { style: ScalarStyle::Plain, value }, tag: None, .. })
                if value.is_empty() =>
            {
                Frontmatter { reading: Reading::Empty, fields: vec![], span }
            }
            Some(root) => match root.entries() {
                Some(entries) => Frontmatter {
                    reading: Reading::Yaml,
                    fields: entries
                        .iter()
                        .filter_map(|e| {
                            let key = e.key.as_str()?;
                            Some(Field { key: key.to_string(), key_span: e.key.span, value: e.value.clone() })
                        })
                        .collect(),
                    span,
                },
                None => Frontmatter { reading: Reading::NotMapping, fields: vec![], span },
            },
        }
    }

    /// The field a last-wins loader would use.
    pub fn get(&self, key: &str) -> Option<&Field> {
        self.fields.iter().rev().find(|f| f.key == key)
    }

    /// The field's value when it is a string scalar (any style).
    pub fn str(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(|f| f.value.as_str())
    }
}
