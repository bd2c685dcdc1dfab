//! Editing one frontmatter field in a skill file's text, for the app's form: [`set_field`] rewrites
//! only the bytes of that field's value and leaves every other byte alone (other lines, comments,
//! the key, a comment after the value, the body). A field that is missing is added as a new line
//! at the end of the frontmatter; a file without frontmatter gets one. [`form_fields`] reads the
//! scalar fields the form shows.
//!
//! The new value is written in the old value's style when that style can hold it (double-quoted
//! stays double-quoted, a literal block stays a literal block), else plain when YAML reads it back
//! as the same string, else double-quoted; a value with line breaks becomes a literal block
//! (`|`, `|-` or `|+` for its final line breaks). The file's line ending (LF or CRLF) is used.

use crate::frontmatter::Reading;
use crate::yaml::{NodeKind, ScalarStyle};
use crate::Skill;

/// Why a field cannot be set from the form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// The frontmatter's root is not a mapping (e.g. a list): there are no fields to set.
    NotAMapping,
    /// The field holds a mapping, a list or an alias; it is edited in the text.
    NotAScalar { key: String },
    /// The key is empty or cannot be written as a plain key.
    BadKey { key: String },
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditError::NotAMapping => write!(f, "the frontmatter is not a mapping of fields"),
            EditError::NotAScalar { key } => write!(f, "`{key}` is not a single value; edit it in the text"),
            EditError::BadKey { key } => write!(f, "`{key}` cannot be written as a frontmatter key"),
        }
    }
}

impl std::error::Error for EditError {}

/// A top-level field as the form shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormField {
    pub key: String,
    /// The string value; `None` when it is not a scalar (a mapping, a list, an alias).
    pub value: Option<String>,
}

/// The top-level fields of the text's frontmatter, in file order (the last of duplicates wins,
/// as YAML loaders that accept duplicates do).
pub fn form_fields(text: &str) -> Vec<FormField> {
    let skill = Skill::parse(".", "SKILL.md", text.to_string());
    let mut out: Vec<FormField> = Vec::new();
    for f in &skill.frontmatter.fields {
        let value = match &f.value.kind {
            NodeKind::Scalar { value, .. } => Some(value.clone()),
            _ => None,
        };
        match out.iter_mut().find(|o| o.key == f.key) {
            Some(o) => o.value = value,
            None => out.push(FormField { key: f.key.clone(), value }),
        }
    }
    out
}

fn plain_key(key: &str) -> bool {
    !key.is_empty()
        && key.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !key.starts_with(['-', '.'])
}

/// `text` with the top-level field `key` set to `value`.
pub fn set_field(text: &str, key: &str, value: &str) -> Result<String, EditError> {
    let skill = Skill::parse(".", "SKILL.md", text.to_string());
    let split = &skill.split;
    let eol = if split.crlf { "\r\n" } else { "\n" };
    let fm = &skill.frontmatter;
    if fm.reading == Reading::NotMapping {
        return Err(EditError::NotAMapping);
    }
    if let Some(field) = fm.fields.iter().rev().find(|f| f.key == key) {
        let NodeKind::Scalar { style, .. } = &field.value.kind else {
            return Err(EditError::NotAScalar { key: key.into() });
        };
        let mut span = field.value.span;
        if span.is_empty() {
            // An empty (null) value: write it after the key's colon.
            let colon = text[field.key_span.end..].find(':').map(|i| field.key_span.end + i + 1);
            span = crate::text::Span::empty(colon.unwrap_or(field.key_span.end));
        }
        let old = span.slice(text);
        // A block scalar's span may run through its last line break: keep that break.
        let keep = if style.is_block() { old.len() - old.trim_end_matches(['\r', '\n']).len() } else { 0 };
        let mut end = span.end - keep;
        let mut rendered = render(value, *style, 2, eol);
        let mut rest_of_line = "";
        if rendered.ends_with(eol) {
            // A block: its own final line break replaces the one that ends the value's line.
            rendered.truncate(rendered.len() - eol.len());
            if keep == 0 {
                // A comment after a one-line value goes after the block's indicator.
                let line_end = text[end..].find(['\r', '\n']).map(|i| end + i).unwrap_or(text.len());
                rest_of_line = &text[end..line_end];
                end = line_end;
            }
        }
        if !rest_of_line.trim().is_empty() {
            let header = rendered.find(eol).unwrap_or(rendered.len());
            rendered.insert_str(header, rest_of_line);
        }
        let before = &text[..span.start];
        let space = if before.ends_with(':') { " " } else { "" };
        return Ok(format!("{before}{space}{rendered}{}", &text[end..]));
    }
    if !plain_key(key) {
        return Err(EditError::BadKey { key: key.into() });
    }
    let mut line = format!("{key}: {}", render(value, ScalarStyle::Plain, 2, eol));
    if !line.ends_with(eol) {
        line.push_str(eol);
    }
    match split.yaml {
        Some(yaml) => {
            let at = yaml.end;
            let before = &text[..at];
            let sep = if before.is_empty() || before.ends_with('\n') { "" } else { eol };
            Ok(format!("{before}{sep}{line}{}", &text[at..]))
        }
        None if split.has_frontmatter() => {
            // An empty frontmatter (`---` right before `---`): add the line after the opener.
            let open = split.open.expect("frontmatter has an opening line");
            let at = text[open.end..].find('\n').map(|i| open.end + i + 1).unwrap_or(text.len());
            Ok(format!("{}{line}{}", &text[..at], &text[at..]))
        }
        None => {
            let start = if split.bom { 3 } else { 0 };
            Ok(format!("{}---{eol}{line}---{eol}{}", &text[..start], &text[start..]))
        }
    }
}

/// Words YAML 1.1 or 1.2 reads as something other than a string when plain.
fn looks_typed(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "~" | "null" | "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n" | ".inf" | "-.inf" | "+.inf" | ".nan"
    ) {
        return true;
    }
    let digits = v.trim_start_matches(['-', '+']);
    if digits.starts_with(|c: char| c.is_ascii_digit() || c == '.') && v.parse::<f64>().is_ok() {
        return true;
    }
    let b = v.as_bytes();
    // Integers in other bases, and dates (`2024-01-31`), sexagesimals (`1:30`).
    lower.starts_with("0x")
        || lower.starts_with("0o")
        || lower.starts_with("0b")
        || (b.len() >= 10 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-')
        || (v.contains(':') && v.chars().all(|c| c.is_ascii_digit() || c == ':' || c == '.'))
        || digits.chars().all(|c| c.is_ascii_digit() || c == '_') && !digits.is_empty()
}

/// Whether `v` written plain is read back as the same string.
fn plain_ok(v: &str) -> bool {
    if v.is_empty() || v != v.trim() || looks_typed(v) {
        return false;
    }
    let first = v.chars().next().unwrap_or(' ');
    if "!&*|>'\"%@`#,[]{}".contains(first) {
        return false;
    }
    if matches!(first, '-' | '?' | ':') && v.chars().nth(1).is_none_or(|c| c == ' ') {
        return false;
    }
    !(v.contains(": ") || v.contains(" #") || v.ends_with(':') || v.chars().any(|c| c.is_control()))
}

fn double_quoted(v: &str) -> String {
    let mut out = String::with_capacity(v.len() + 2);
    out.push('"');
    for c in v.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn literal_block(v: &str, indent: usize, eol: &str) -> String {
    let body = v.trim_end_matches('\n');
    let breaks = v.len() - body.len();
    let chomp = match breaks {
        0 => "-",
        1 => "",
        _ => "+",
    };
    // An indentation indicator when the first line starts with a space.
    let indicator = if body.starts_with(' ') { indent.to_string() } else { String::new() };
    let pad = " ".repeat(indent);
    let mut out = format!("|{indicator}{chomp}{eol}");
    for line in body.split('\n') {
        if !line.is_empty() {
            out.push_str(&pad);
            out.push_str(line);
        }
        out.push_str(eol);
    }
    for _ in 1..breaks {
        out.push_str(eol);
    }
    out
}

/// `value` as YAML, preferring the old `style`.
fn render(value: &str, style: ScalarStyle, indent: usize, eol: &str) -> String {
    let multi_line = value.contains('\n');
    let printable = !value.chars().any(|c| c.is_control() && c != '\n');
    match style {
        ScalarStyle::DoubleQuoted => double_quoted(value),
        ScalarStyle::SingleQuoted if !multi_line && printable => format!("'{}'", value.replace('\'', "''")),
        ScalarStyle::Literal | ScalarStyle::Folded if multi_line && printable && !value.contains('\r') => {
            literal_block(value, indent, eol)
        }
        _ if multi_line && printable && !value.contains('\r') && !value.trim().is_empty() => {
            literal_block(value, indent, eol)
        }
        _ if plain_ok(value) => value.to_string(),
        _ => double_quoted(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_of(text: &str, key: &str) -> Option<String> {
        form_fields(text).into_iter().find(|f| f.key == key).and_then(|f| f.value)
    }

    #[test]
    fn only_the_value_changes_and_comments_stay() {
        let text = "---\n# leading comment\nname: demo # the name\ndescription: Old text.\nlicense: MIT\n---\n# Body\n";
        let out = set_field(text, "description", "New text, longer.").unwrap();
        assert_eq!(
            out,
            "---\n# leading comment\nname: demo # the name\ndescription: New text, longer.\nlicense: MIT\n---\n# Body\n"
        );
        let out = set_field(&out, "name", "renamed").unwrap();
        assert!(out.contains("name: renamed # the name\n"), "{out}");
    }

    #[test]
    fn quoting_is_kept_or_added_when_needed() {
        let text = "---\nname: \"demo\"\ndescription: 'It''s old'\n---\n";
        let out = set_field(text, "name", "new \"one\"").unwrap();
        assert!(out.contains("name: \"new \\\"one\\\"\"\n"), "{out}");
        let out = set_field(&out, "description", "It's new").unwrap();
        assert!(out.contains("description: 'It''s new'\n"), "{out}");
        assert_eq!(value_of(&out, "description").as_deref(), Some("It's new"));
        // Plain values that YAML would read as something else, or misread, get quotes.
        let plain = "---\nlicense: MIT\n---\n";
        for v in ["true", "no", "1.0", "2024-01-31", "key: value", "a #b", "- item", "", " padded", "0x1F", "42"] {
            let out = set_field(plain, "license", v).unwrap();
            assert_eq!(value_of(&out, "license").as_deref(), Some(v), "{v}: {out}");
            assert!(out.contains("license: \""), "{v} should be quoted: {out}");
        }
        let out = set_field(plain, "license", "Apache-2.0").unwrap();
        assert_eq!(out, "---\nlicense: Apache-2.0\n---\n");
    }

    #[test]
    fn block_scalars_stay_blocks() {
        let text = "---\nname: demo\ndescription: |\n  Line one.\n  Line two.\nlicense: MIT # keep\n---\nBody\n";
        let out = set_field(text, "description", "First.\nSecond.\nThird.\n").unwrap();
        assert_eq!(
            out,
            "---\nname: demo\ndescription: |\n  First.\n  Second.\n  Third.\nlicense: MIT # keep\n---\nBody\n"
        );
        assert_eq!(value_of(&out, "description").as_deref(), Some("First.\nSecond.\nThird.\n"));
        // Without a final line break: `|-`; a single line in a block stays readable.
        let out = set_field(text, "description", "One\nTwo").unwrap();
        assert_eq!(value_of(&out, "description").as_deref(), Some("One\nTwo"));
        assert!(out.contains("description: |-\n  One\n  Two\nlicense"), "{out}");
        let out = set_field(text, "description", "Just one line.").unwrap();
        assert_eq!(value_of(&out, "description").as_deref(), Some("Just one line."));
        assert!(out.ends_with("license: MIT # keep\n---\nBody\n"), "{out}");
        // A plain value given line breaks becomes a block.
        let out = set_field("---\nname: a\ndescription: short\n---\n", "description", "a\nb\n").unwrap();
        assert_eq!(out, "---\nname: a\ndescription: |\n  a\n  b\n---\n");
        let out = set_field("---\ndescription: short # why\nname: a\n---\n", "description", "a\nb").unwrap();
        assert_eq!(out, "---\ndescription: |- # why\n  a\n  b\nname: a\n---\n");
        assert_eq!(value_of(&out, "description").as_deref(), Some("a\nb"));
    }

    #[test]
    fn a_missing_field_is_added_at_the_end_of_the_frontmatter() {
        let text = "---\nname: demo # n\n---\nBody\n";
        let out = set_field(text, "description", "Added.").unwrap();
        assert_eq!(out, "---\nname: demo # n\ndescription: Added.\n---\nBody\n");
        let out = set_field("# Just a body\n", "name", "demo").unwrap();
        assert_eq!(out, "---\nname: demo\n---\n# Just a body\n");
        assert_eq!(value_of(&out, "name").as_deref(), Some("demo"));
        let out = set_field("---\n---\nBody\n", "name", "demo").unwrap();
        assert_eq!(value_of(&out, "name").as_deref(), Some("demo"), "{out}");
        assert!(out.ends_with("---\nBody\n"));
        assert_eq!(set_field(text, "bad key", "x"), Err(EditError::BadKey { key: "bad key".into() }));
    }

    #[test]
    fn an_empty_value_and_crlf_files() {
        let text = "---\r\nname:\r\ndescription: d\r\n---\r\nBody\r\n";
        let out = set_field(text, "name", "demo").unwrap();
        assert_eq!(out, "---\r\nname: demo\r\ndescription: d\r\n---\r\nBody\r\n");
        let out = set_field(&out, "license", "MIT").unwrap();
        assert_eq!(out, "---\r\nname: demo\r\ndescription: d\r\nlicense: MIT\r\n---\r\nBody\r\n");
        let out = set_field(&out, "description", "x\ny").unwrap();
        assert!(out.contains("description: |-\r\n  x\r\n  y\r\nlicense"), "{out:?}");
    }

    #[test]
    fn mappings_lists_and_non_mappings_are_refused() {
        let text = "---\nname: demo\nmetadata:\n  version: \"1\"\n---\n";
        assert_eq!(set_field(text, "metadata", "x"), Err(EditError::NotAScalar { key: "metadata".into() }));
        assert_eq!(set_field("---\n- a\n- b\n---\n", "name", "x"), Err(EditError::NotAMapping));
        let fields = form_fields(text);
        assert_eq!(fields[0], FormField { key: "name".into(), value: Some("demo".into()) });
        assert_eq!(fields[1], FormField { key: "metadata".into(), value: None });
    }
}
