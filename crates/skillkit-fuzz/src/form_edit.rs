//! The form-edit target: `skillkit::frontmatter_edit::set_field` on a (text, key, value) derived
//! from the input ([`case`]).
//!
//! Invariant: `set_field` either refuses (`Err`) or returns a text whose `form_fields` hold the
//! key with exactly the value, and every other field as it was (same keys, same values, same
//! order). Input classes known to fail while a fix is under way ([`known_failure`]) are still
//! run (a panic is still caught) but their read-back is not checked when
//! [`crate::Options::skip_known_failures`] is on.

use crate::{violation, Options, Outcome};
use skillkit::frontmatter_edit::{form_fields, set_field, EditError, FormField};
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

/// The class of a case that is known to fail today, if any (see `findings/README.md`).
///
/// Being fixed elsewhere: values holding U+FEFF, and values with a line after a line break that
/// starts with a space or a tab (`"\n x"`, `"\n xa\nb"`).
///
/// Found by this fuzzer:
/// - a value of only line breaks written into a block scalar (`"\n"` reads back as `""`);
/// - a value ending in two line breaks or more, written as a keep block (`|+`), which takes in
///   the blank lines that followed the old value;
/// - a new field added after a mapping whose keys are indented (the new key at column 0 breaks
///   the YAML and the other fields are lost);
/// - a value with line breaks set under such an indented key (the block's lines are indented by
///   2, not past the key);
/// - a value that carries an anchor (`&x`, dropped by the edit, so that an alias `*x` elsewhere
///   no longer resolves);
/// - a field written with an explicit key (`? k`, or a bare `?`: the empty key) and no value: the value is written after the
///   next colon in the text, into another field (`name: v a`), or glued to the key (`? kv`);
/// - frontmatter with a tab after a colon or as indentation: the parser accepts `k:\té` and
///   `\tk:\té` but rejects `\tk:\tp` ("':' must be followed by a valid YAML whitespace") and
///   reads `k:\tL #` line by line (as `"L #"`), so an edit can break the YAML;
/// - frontmatter holding U+FEFF on a line (a new field after it changes how it reads);
/// - unclosed frontmatter that ends in an indented blank line with no line break (a block scalar
///   there reads with one line break too many until a field is added after it);
/// - frontmatter that is not valid YAML, whose fields are read line by line
///   (`Reading::Lenient`): a block scalar written there does not read back, and an edit that
///   makes the YAML valid changes how the other fields read.
pub fn known_failure(case: &Case) -> Option<&'static str> {
    if case.value.contains('\u{feff}') {
        return Some("value holds U+FEFF");
    }
    if case.value.split('\n').skip(1).any(|l| l.starts_with([' ', '\t'])) {
        return Some("a line of the value starts with a space or tab");
    }
    if !case.value.is_empty() && case.value.chars().all(|c| matches!(c, '\n' | '\r')) {
        return Some("the value is only line breaks");
    }
    if case.value.matches('\n').count() >= 2
        && case.value.trim_end_matches(['\r', '\n']).matches('\n').count() + 2 <= case.value.matches('\n').count()
    {
        return Some("the value ends in two line breaks or more (a keep block)");
    }
    let skill = skillkit::Skill::parse(".", "SKILL.md", case.text.clone());
    if skill.split.yaml.is_some_and(|y| y.slice(&case.text).contains('\u{feff}')) {
        return Some("the frontmatter holds U+FEFF");
    }
    let yaml = skill.split.yaml.map_or("", |y| y.slice(&case.text));
    if yaml.contains(":\t") || yaml.split('\n').any(|l| l.starts_with('\t')) {
        return Some("a tab after a colon or as indentation in the frontmatter");
    }
    if yaml.rsplit('\n').next().is_some_and(|last| !last.is_empty() && last.trim_matches([' ', '\t']).is_empty()) {
        return Some("the frontmatter ends in an indented blank line without a line break");
    }
    if skill.frontmatter.reading == skillkit::frontmatter::Reading::Lenient {
        return Some("the frontmatter is not valid YAML (fields read line by line)");
    }
    let fields = &skill.frontmatter.fields;
    if fields.iter().rev().find(|f| f.key == case.key).is_some_and(|f| f.value.anchor) {
        return Some("the edited value carries an anchor");
    }
    let explicit = fields.iter().rev().find(|f| f.key == case.key).is_some_and(|f| {
        let line_start = case.text[..f.key_span.start].rfind('\n').map_or(0, |i| i + 1);
        case.text[line_start..].trim_start().starts_with('?')
    });
    if explicit || (case.key.is_empty() && fields.iter().any(|f| f.key.is_empty())) {
        return Some("the key is written as an explicit key (`? key`) or is empty");
    }
    let indented = fields.iter().any(|f| {
        let start = f.key_span.start;
        let line_start = case.text[..start].rfind('\n').map_or(0, |i| i + 1);
        start > line_start
    });
    if indented && !fields.iter().any(|f| f.key == case.key) {
        return Some("a new field after a mapping with indented keys");
    }
    if indented && case.value.contains('\n') {
        return Some("a block scalar under an indented key");
    }
    None
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
            skillkit::yaml::NodeKind::Scalar { style, .. } => format!("{reading} {style:?} {}", f.value.anchor),
            skillkit::yaml::NodeKind::Sequence(_) => format!("{reading} sequence"),
            skillkit::yaml::NodeKind::Mapping(_) => format!("{reading} mapping"),
            skillkit::yaml::NodeKind::Alias => format!("{reading} alias"),
        },
    }
}

/// Runs the target on `data`; the flag says whether the check was skipped as a known failure.
pub fn run(data: &[u8], options: &Options) -> (Outcome, bool) {
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
            return (outcome, false);
        }
        Ok(out) => out,
    };
    let after = outcome.timed(|| form_fields(&out));
    outcome.feature(("ok", existed, value_shape(&case.value), after.len() == before.len()));
    outcome.feature(("style", old_style(&case), value_shape(&case.value)));
    if options.skip_known_failures && known_failure(&case).is_some() {
        return (outcome, true);
    }

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
    if others(&before) != others(&after) {
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
    (outcome, false)
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
        let (_, skipped) = run(&c.to_bytes(), &Options::default());
        assert!(!skipped);
    }

    #[test]
    fn known_failing_classes_are_named() {
        let c = |value: &str| Case { text: String::new(), key: "k".into(), value: value.into() };
        assert!(known_failure(&c("a\u{feff}")).is_some());
        assert!(known_failure(&c("\n x")).is_some());
        assert!(known_failure(&c("\n xa\nb")).is_some());
        assert!(known_failure(&c("a\nb")).is_none());
        assert!(known_failure(&c("\n")).is_some());
        assert!(known_failure(&c("x\n\n")).is_some());
        assert!(known_failure(&c("x\n")).is_none());
        let indented = Case { text: "---\n  name: x\n---\n".into(), key: "description".into(), value: "d".into() };
        assert!(known_failure(&indented).is_some());
        assert!(known_failure(&Case { key: "name".into(), ..indented.clone() }).is_none());
        assert!(known_failure(&Case { key: "name".into(), value: "a\nb".into(), ..indented }).is_some());
        let anchored = Case { text: "---\nname: &x a\nc: *x\n---\n".into(), key: "name".into(), value: "b".into() };
        assert!(known_failure(&anchored).is_some());
        let bom = Case { text: "---\n:\n\u{feff}".into(), key: "n".into(), value: String::new() };
        assert!(known_failure(&bom).is_some());
        let eof = Case { text: "---\nk: |\n  x\n  ".into(), key: "a".into(), value: "v".into() };
        assert!(known_failure(&eof).is_some());
        let explicit = Case { text: "---\n? k\nname: a\n---\n".into(), key: "k".into(), value: "v".into() };
        assert!(known_failure(&explicit).is_some());
        let tab = Case { text: "---\n\tk:\té\n---\n".into(), key: "k".into(), value: "p".into() };
        assert!(known_failure(&tab).is_some());
    }
}
