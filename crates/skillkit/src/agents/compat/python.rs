//! How Python loaders see frontmatter: `yaml.safe_load` (PyYAML, YAML 1.1 implicit types) and then
//! `str()` of the value, as DeepAgents does (`str(frontmatter_data.get("name", ""))`).

use crate::syntax::yaml::{Node, NodeKind, ScalarStyle};
use crate::syntax::yaml11::{resolve_yaml11, Typed};

/// `str(value)` of what PyYAML's `safe_load` makes of `node`.
pub fn py_str(node: &Node) -> String {
    match &node.kind {
        NodeKind::Scalar { value, style } => scalar_str(value, *style, node.tag.as_deref()),
        _ => py_repr(node),
    }
}

fn scalar_str(value: &str, style: ScalarStyle, tag: Option<&str>) -> String {
    if style != ScalarStyle::Plain || tag.is_some_and(|t| t.ends_with("str")) {
        return value.to_string();
    }
    match resolve_yaml11(value) {
        Typed::Null => "None".into(),
        Typed::Bool => {
            if matches!(value, "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON") {
                "True".into()
            } else {
                "False".into()
            }
        }
        Typed::Int => int_str(value).unwrap_or_else(|| value.to_string()),
        Typed::Float => float_str(value).unwrap_or_else(|| value.to_string()),
        // datetime.date / datetime.datetime print close to the text; dates exactly.
        Typed::Timestamp | Typed::Str => value.to_string(),
    }
}

fn int_str(v: &str) -> Option<String> {
    let (neg, u) = match v.as_bytes().first() {
        Some(b'-') => (true, &v[1..]),
        Some(b'+') => (false, &v[1..]),
        _ => (false, v),
    };
    let u = u.replace('_', "");
    let n: i128 = if let Some(b) = u.strip_prefix("0b") {
        i128::from_str_radix(b, 2).ok()?
    } else if let Some(x) = u.strip_prefix("0x") {
        i128::from_str_radix(x, 16).ok()?
    } else if u.len() > 1 && u.starts_with('0') && !u.contains(':') {
        i128::from_str_radix(&u[1..], 8).ok()?
    } else if u.contains(':') {
        u.split(':').try_fold(0i128, |acc, p| p.parse::<i128>().ok().map(|d| acc * 60 + d))?
    } else {
        u.parse().ok()?
    };
    Some(if neg { (-n).to_string() } else { n.to_string() })
}

fn float_str(v: &str) -> Option<String> {
    let lower = v.to_ascii_lowercase();
    match lower.trim_start_matches(['+', '-']) {
        ".nan" => return Some("nan".into()),
        ".inf" => return Some(if lower.starts_with('-') { "-inf" } else { "inf" }.into()),
        _ => {}
    }
    if v.contains(':') {
        return None;
    }
    let f: f64 = v.replace('_', "").parse().ok()?;
    Some(python_float_repr(f))
}

/// Python's `repr(float)`: the shortest round-trip digits, with `.0` for integral values and
/// exponent notation outside 1e-4 ≤ |x| < 1e16.
pub fn python_float_repr(f: f64) -> String {
    if f == 0.0 {
        return if f.is_sign_negative() { "-0.0".into() } else { "0.0".into() };
    }
    let a = f.abs();
    if (1e-4..1e16).contains(&a) {
        let s = format!("{f}");
        if s.contains('.') {
            s
        } else {
            format!("{s}.0")
        }
    } else {
        // Rust prints `1e16`; Python prints `1e+16`.
        let s = format!("{f:e}");
        match s.split_once('e') {
            Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e:0>2}"),
            Some((m, e)) => format!("{m}e-{:0>2}", &e[1..]),
            None => s,
        }
    }
}

/// `repr()` of a list or dict (and of scalars inside them).
fn py_repr(node: &Node) -> String {
    match &node.kind {
        NodeKind::Scalar { value, style } => {
            let s = scalar_str(value, *style, node.tag.as_deref());
            let is_str = *style != ScalarStyle::Plain || matches!(resolve_yaml11(value), Typed::Str | Typed::Timestamp);
            if is_str {
                str_repr(&s)
            } else {
                s
            }
        }
        NodeKind::Sequence(items) => format!("[{}]", items.iter().map(py_repr).collect::<Vec<_>>().join(", ")),
        NodeKind::Mapping(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|e| format!("{}: {}", py_repr(&e.key), py_repr(&e.value)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        NodeKind::Alias => "None".into(),
    }
}

/// Python's `repr(str)` for printable text.
pub fn str_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c)
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// `json.dumps(s)` of a str: ASCII only (`ensure_ascii`), non-ASCII as `\uXXXX` (surrogate
/// pairs above the BMP).
pub fn json_dumps(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7f => {
                let mut buf = [0u16; 2];
                for u in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{:04x}", u));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Python's `str.strip()` (Unicode whitespace, as `str.isspace`).
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

/// `str.isspace()` for one character: Unicode whitespace plus the ASCII separators 0x1c–0x1f.
pub fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `len()` of a str: code points.
pub fn py_len(s: &str) -> usize {
    s.chars().count()
}

/// `s[:n]` in code points.
pub fn py_prefix(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// `str.title()`: a cased character after an uncased one is upper-cased, others lower-cased.
pub fn py_title(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut prev_cased = false;
    for c in s.chars() {
        let cased = c.is_lowercase() || c.is_uppercase();
        if cased && !prev_cased {
            out.extend(c.to_uppercase());
        } else if cased {
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
        prev_cased = cased;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::yaml;

    fn value(src: &str) -> String {
        let y = yaml::parse(src, 0);
        py_str(&y.root.unwrap().entries().unwrap()[0].value)
    }

    #[test]
    fn str_of_pyyaml_values() {
        assert_eq!(value("k: yes"), "True");
        assert_eq!(value("k: off"), "False");
        assert_eq!(value("k: ~"), "None");
        assert_eq!(value("k: 0x1F"), "31");
        assert_eq!(value("k: 1_000"), "1000");
        assert_eq!(value("k: 010"), "8");
        assert_eq!(value("k: 1:30"), "90");
        assert_eq!(value("k: 1.5"), "1.5");
        assert_eq!(value("k: 1e3"), "1e3");
        assert_eq!(value("k: 1.0e+3"), "1000.0");
        assert_eq!(value("k: '1e3'"), "1e3");
        assert_eq!(value("k: [a, 1, 'x']"), "['a', 1, 'x']");
        assert_eq!(value("k: {a: b}"), "{'a': 'b'}");
        assert_eq!(value("k: \"it's\""), "it's");
    }

    #[test]
    fn json_dumps_is_ascii() {
        assert_eq!(json_dumps("a\"b\\c\né😀"), "\"a\\\"b\\\\c\\n\\u00e9\\ud83d\\ude00\"");
    }

    #[test]
    fn python_string_methods() {
        assert_eq!(py_title("my proj"), "My Proj");
        assert_eq!(py_title("deep agents2go"), "Deep Agents2Go");
        assert_eq!(py_strip("\u{1f} a \n"), "a");
        assert_eq!(py_prefix("héllo", 2), "hé");
        assert_eq!(python_float_repr(1e16), "1e+16");
        assert_eq!(python_float_repr(0.0001), "0.0001");
        assert_eq!(python_float_repr(1e-5), "1e-05");
    }
}
