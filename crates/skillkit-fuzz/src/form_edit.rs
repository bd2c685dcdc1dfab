//! The form-edit target: `skillkit::frontmatter_edit::set_field` on a (text, key, value) derived
//! from the input ([`case`]).
//!
//! Invariant: `set_field` either refuses (`Err`) or returns a text whose `form_fields` hold the
//! key with exactly the value, and every other field as it was (same keys, same values, same
//! order). When the frontmatter was not valid YAML before the edit (its fields read line by line)
//! and the edit made it valid (the broken line was the edited field's), the other fields keep
//! their keys and order and read as the YAML now says: the edit repaired the file.

use crate::{violation, Outcome};
use skillkit::frontmatter_edit::{form_fields, set_field, EditError, FormField};
use skillkit::syntax::frontmatter::Reading;
use std::hash::{Hash, Hasher};

/// One edit: set `key` to `value` in `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub text: String,
    pub key: String,
    pub value: String,
}

impl Case {
    /// The input that [`case`] reads back as this case: `text NUL key NUL value`.
    pub fn to_bytes(&self) -> Vec<u8> {
        [self.text.as_bytes(), b"\0", self.key.as_bytes(), b"\0", self.value.as_bytes()].concat()
    }
}

/// Values that are hard to write back in YAML: indicators, quotes, comments, line breaks, what
/// YAML reads as another type, spaces at the ends, and characters YAML treats specially.
pub const TRICKY_VALUES: &[&str] = &[
    "",
    " ",
    "plain words",
    "a: b",
    "a #b",
    "#c",
    "- item",
    "? q",
    "'",
    "\"",
    "it's \"quoted\"",
    "\\",
    "null",
    "~",
    "true",
    "no",
    "1e3",
    "0x1F",
    "1.0",
    "*alias",
    "&anchor v",
    "!!str x",
    "[a, b]",
    "{a: b}",
    "|",
    ">-",
    "%YAML",
    "---",
    "...",
    " leading",
    "trailing ",
    "tab\tinside",
    "line\nbreak",
    "two\n\nbreaks",
    "ends with break\n",
    "ends with breaks\n\n",
    "\n",
    "\r\n",
    "é ü 技能",
    "😀",
    "\u{2028}",
    "\u{85}",
    "\u{a0}",
    "a\u{0}b",
    "\u{7f}",
];

/// Keys to set: the form's own, other known fields, a new one, and ones that cannot be keys.
pub const KEYS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "allowed-tools",
    "metadata",
    "version",
    "x-fuzz",
    "new_key.1",
    "",
    "has space",
    "-dash",
    "é",
];

/// The case an input stands for: `text NUL key NUL value` when the input has two NUL bytes
/// (how the seeds spell their cases), else the whole input as the text, with a key and a value
/// chosen from the input's hash: a key of the text or of [`KEYS`], and a value that is a slice
/// of the input, one of [`TRICKY_VALUES`], or the text's last line.
pub fn case(data: &[u8]) -> Case {
    let mut parts = data.splitn(3, |&b| b == 0);
    if let (Some(text), Some(key), Some(value)) = (parts.next(), parts.next(), parts.next()) {
        let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        return Case { text: s(text), key: s(key), value: s(value) };
    }
    let text = String::from_utf8_lossy(data).into_owned();
    let mut h = std::hash::DefaultHasher::new();
    data.hash(&mut h);
    let mut bits = h.finish();
    let mut take = |n: usize| {
        let v = (bits % n.max(1) as u64) as usize;
        bits /= n.max(1) as u64;
        v
    };
    let fields = form_fields(&text);
    let key = match take(3) {
        0 if !fields.is_empty() => fields[take(fields.len())].key.clone(),
        _ => KEYS[take(KEYS.len())].to_string(),
    };
    let chars: Vec<char> = text.chars().collect();
    let value = match take(3) {
        0 => TRICKY_VALUES[take(TRICKY_VALUES.len())].to_string(),
        1 if !chars.is_empty() => {
            let start = take(chars.len());
            let len = 1 + take(80);
            chars[start..(start + len).min(chars.len())].iter().collect()
        }
        _ => text.trim_end_matches(['\r', '\n']).rsplit('\n').next().unwrap_or("").to_string(),
    };
    Case { text, key, value }
}

/// What kind of value this is, as bits: line breaks, spaces at the ends, quotes, `: `, ` #`, a
/// YAML indicator first, characters outside ASCII, control characters.
fn value_shape(value: &str) -> u16 {
    let bits = [
        value.contains('\n'),
        value.ends_with('\n'),
        value.starts_with([' ', '\t']) || value.ends_with([' ', '\t']),
        value.contains(['\'', '"']),
        value.contains(": ") || value.ends_with(':'),
        value.contains(" #"),
        value.starts_with(['-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '%', '@', '`']),
        !value.is_ascii(),
        value.chars().any(|c| c.is_control() && c != '\n'),
        value.is_empty(),
    ];
    bits.iter().enumerate().fold(0, |acc, (i, b)| acc | (u16::from(*b) << i))
}

/// How the field being set is written now: its scalar style, or why there is none.
fn old_style(case: &Case) -> String {
    let skill = skillkit::Skill::parse(".", "SKILL.md", case.text.clone());
    let reading = format!("{:?}", skill.frontmatter.reading);
    match skill.frontmatter.fields.iter().rev().find(|f| f.key == case.key) {
        None => format!("{reading} new"),
        Some(f) => match &f.value.kind {
            skillkit::syntax::yaml::NodeKind::Scalar { style, .. } => format!("{reading} {style:?} {}", f.value.anchor),
            skillkit::syntax::yaml::NodeKind::Sequence(_) => format!("{reading} sequence"),
            skillkit::syntax::yaml::NodeKind::Mapping(_) => format!("{reading} mapping"),
            skillkit::syntax::yaml::NodeKind::Alias => format!("{reading} alias"),
        },
    }
}

/// Runs the target on `data`.
pub fn run(data: &[u8]) -> Outcome {
    let mut outcome = Outcome::default();
    let case = case(data);
    let before = outcome.timed(|| form_fields(&case.text));
    let result = outcome.timed(|| set_field(&case.text, &case.key, &case.value));
    let existed = before.iter().any(|f| f.key == case.key);
    let out = match result {
        Err(e) => {
            outcome.feature((
                "err",
                match e {
                    EditError::NotAMapping => 0,
                    EditError::NotAScalar { .. } => 1,
                    EditError::BadKey { .. } => 2,
                    EditError::Unwritable { .. } => 3,
                },
            ));
            return outcome;
        }
        Ok(out) => out,
    };
    let after = outcome.timed(|| form_fields(&out));
    outcome.feature(("ok", existed, value_shape(&case.value), after.len() == before.len()));
    outcome.feature(("style", old_style(&case), value_shape(&case.value)));

    let got = after.iter().find(|f| f.key == case.key).map(|f| f.value.clone());
    if got != Some(Some(case.value.clone())) {
        violation(
            "set-field-does-not-read-back",
            format!(
                "set_field(text, {:?}, {:?}) reads back as {got:?}; text {:?} became {:?}",
                case.key, case.value, case.text, out
            ),
        );
    }
    let others =
        |fields: &[FormField]| -> Vec<FormField> { fields.iter().filter(|f| f.key != case.key).cloned().collect() };
    let reading = |text: &str| skillkit::Skill::parse(".", "SKILL.md", text.to_string()).frontmatter.reading;
    let repaired = reading(&case.text) == Reading::Lenient && reading(&out) == Reading::Yaml;
    let keys = |fields: Vec<FormField>| -> Vec<String> { fields.into_iter().map(|f| f.key).collect() };
    let changed =
        if repaired { keys(others(&before)) != keys(others(&after)) } else { others(&before) != others(&after) };
    if changed {
        violation(
            "set-field-changes-other-fields",
            format!(
                "set_field(text, {:?}, {:?}) changed other fields from {:?} to {:?}; text {:?} became {:?}",
                case.key,
                case.value,
                others(&before),
                others(&after),
                case.text,
                out
            ),
        );
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_separated_inputs_spell_a_case() {
        let c = Case { text: "---\nname: a\n---\n".into(), key: "name".into(), value: "b c".into() };
        assert_eq!(case(&c.to_bytes()), c);
    }

    #[test]
    fn other_inputs_give_a_case_deterministically() {
        let data = b"---\nname: a\ndescription: d\n---\nbody\n";
        assert_eq!(case(data), case(data));
        assert_eq!(case(data).text, String::from_utf8_lossy(data));
    }

    #[test]
    fn a_plain_edit_passes_the_check() {
        let c = Case {
            text: "---\nname: a\ndescription: d\n---\n".into(),
            key: "description".into(),
            value: "x: y".into(),
        };
        run(&c.to_bytes());
    }
}
