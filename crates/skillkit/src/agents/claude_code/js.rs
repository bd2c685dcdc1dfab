//! JavaScript string facts Claude Code's code relies on (UTF-16 lengths, display widths, trimming).

use super::*;
pub use crate::agents::compat::js::{is_js_space, js_trim, utf16_len, utf16_prefix};

/// A YAML value as `Bun.YAML.parse` (YAML 1.2 core schema) gives it to JavaScript.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Js {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Js>),
    Obj,
}

pub(super) fn js_value(node: &Node) -> Js {
    match &node.kind {
        NodeKind::Scalar { value, style } => {
            if *style != ScalarStyle::Plain || node.tag.as_deref().is_some_and(|t| t.ends_with("str")) {
                return Js::Str(value.clone());
            }
            use crate::syntax::yaml11::Typed;
            match crate::syntax::yaml11::resolve_core(value) {
                Typed::Null => Js::Null,
                Typed::Bool => Js::Bool(value.eq_ignore_ascii_case("true")),
                Typed::Int | Typed::Float => parse_number(value).map_or_else(|| Js::Str(value.clone()), Js::Num),
                _ => Js::Str(value.clone()),
            }
        }
        NodeKind::Sequence(items) => Js::Arr(items.iter().map(js_value).collect()),
        NodeKind::Mapping(_) => Js::Obj,
        NodeKind::Alias => Js::Null,
    }
}

pub(super) fn parse_number(v: &str) -> Option<f64> {
    let (neg, u) = match v.as_bytes().first() {
        Some(b'-') => (true, &v[1..]),
        Some(b'+') => (false, &v[1..]),
        _ => (false, v),
    };
    let n = if let Some(o) = u.strip_prefix("0o") {
        i128::from_str_radix(o, 8).ok()? as f64
    } else if let Some(x) = u.strip_prefix("0x") {
        i128::from_str_radix(x, 16).ok()? as f64
    } else {
        match u.to_ascii_lowercase().as_str() {
            ".inf" => f64::INFINITY,
            ".nan" => f64::NAN,
            l => l.parse::<f64>().ok()?,
        }
    };
    Some(if neg { -n } else { n })
}

/// `String(n)` of a JavaScript number.
pub(super) fn js_number(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if f == 0.0 {
        return "0".into();
    }
    let a = f.abs();
    if !(1e-6..1e21).contains(&a) {
        let s = format!("{f:e}");
        return match s.split_once('e') {
            Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e}"),
            _ => s,
        };
    }
    format!("{f}")
}

/// `String(value)` in JavaScript.
pub(super) fn js_string(v: &Js) -> String {
    match v {
        Js::Null => "null".into(),
        Js::Bool(b) => b.to_string(),
        Js::Num(n) => js_number(*n),
        Js::Str(s) => s.clone(),
        Js::Arr(items) => items
            .iter()
            .map(|i| if *i == Js::Null { String::new() } else { js_string(i) })
            .collect::<Vec<_>>()
            .join(","),
        Js::Obj => "[object Object]".into(),
    }
}

/// Boolean frontmatter fields: `true`/`false`, or text `1/true/yes/on` and `0/false/no/off`.
pub(super) fn js_flag(v: Option<&Js>) -> Option<bool> {
    let text = match v? {
        Js::Bool(b) => return Some(*b),
        Js::Num(n) => js_number(*n),
        Js::Str(s) => s.clone(),
        _ => return None,
    };
    let t = js_trim(&text).to_lowercase();
    if ["1", "true", "yes", "on"].contains(&t.as_str()) {
        Some(true)
    } else if ["0", "false", "no", "off"].contains(&t.as_str()) {
        Some(false)
    } else {
        None
    }
}
