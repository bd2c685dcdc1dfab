//! Helpers several rules share: classifying the YAML error, quoting a value, Python-compatible
//! character tests (skills-ref uses `str.isalnum` and NFKC), and edit distance for typos.

use crate::lint::diagnostic::Edit;
use crate::skill::Skill;
use crate::syntax::frontmatter::Field;
use crate::syntax::text::Span;
use crate::syntax::yaml::{NodeKind, ScalarStyle};
use unicode_general_category::{get_general_category, GeneralCategory as G};
use unicode_normalization::UnicodeNormalization;

/// What kind of YAML error the frontmatter has, when rules can say more than the parser.
pub(crate) enum YamlErrorKind {
    /// `key: value: more` — the value needs quotes. `value` is the value's span on that line.
    UnquotedColon {
        key: Span,
        value: Span,
    },
    /// A tab used for indentation.
    Tab {
        tabs: Span,
    },
    Other,
}

pub(crate) fn yaml_error_kind(skill: &Skill) -> Option<YamlErrorKind> {
    let err = skill.yaml.error.as_ref()?;
    let text = &skill.text;
    let line_no = skill.lines.line_of(err.span.start);
    let line = skill.lines.line_span(text, line_no);
    let s = line.slice(text);
    if err.message.contains("tab") {
        let n = s.len() - s.trim_start_matches([' ', '\t']).len();
        let lead = &s[..n];
        if let Some(first_tab) = lead.find('\t') {
            return Some(YamlErrorKind::Tab { tabs: Span::new(line.start + first_tab, line.start + n) });
        }
    }
    if err.message.contains("mapping values are not allowed") {
        let indent = s.len() - s.trim_start().len();
        let rest = &s[indent..];
        let rest = rest.strip_prefix("- ").unwrap_or(rest);
        let key_start = line.start + (s.len() - rest.len());
        if let Some(colon) = rest.find(": ") {
            let key = Span::new(key_start, key_start + colon);
            let after = &rest[colon + 1..];
            let value_start = key.end + 1 + (after.len() - after.trim_start().len());
            let value = Span::new(value_start, line.end - (s.len() - s.trim_end().len()).min(line.end - value_start));
            if err.span.start > value_start && !rest[..colon].contains(['"', '\'', '[', '{']) {
                return Some(YamlErrorKind::UnquotedColon { key, value });
            }
        }
    }
    Some(YamlErrorKind::Other)
}

/// `value` as a double-quoted YAML scalar.
pub(crate) fn double_quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An edit that replaces the span with its text double-quoted.
pub(crate) fn quote_edit(text: &str, span: Span) -> Edit {
    Edit { span, replacement: double_quoted(span.slice(text)) }
}

/// `n` with a comma between thousands (`1,068`), as the limits beside it are written.
pub(crate) fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The field's value as text, if it is a scalar, however loaders type it (skills-ref reads every
/// scalar as a string). `None` for lists, maps and aliases.
pub(crate) fn scalar_text(field: &Field) -> Option<&str> {
    match &field.value.kind {
        NodeKind::Scalar { value, .. } => Some(value),
        _ => None,
    }
}

/// Whether a plain scalar is YAML null (`name:` with nothing after it).
pub(crate) fn is_null(field: &Field) -> bool {
    matches!(&field.value.kind, NodeKind::Scalar { value, style: ScalarStyle::Plain } if matches!(value.as_str(), "" | "~" | "null" | "Null" | "NULL"))
}

/// Python's `str.isalnum()` for one character: general categories L* and N*.
pub(crate) fn py_isalnum(c: char) -> bool {
    matches!(
        get_general_category(c),
        G::UppercaseLetter
            | G::LowercaseLetter
            | G::TitlecaseLetter
            | G::ModifierLetter
            | G::OtherLetter
            | G::DecimalNumber
            | G::LetterNumber
            | G::OtherNumber
    )
}

pub(crate) fn nfkc(s: &str) -> String {
    // ASCII is already in every normal form.
    if s.is_ascii() {
        return s.to_string();
    }
    s.nfkc().collect()
}

/// The optimal-string-alignment distance (Damerau-Levenshtein with adjacent transpositions) of
/// `a` and `b` when it is at most `limit`, else `None`. Only the cells within `limit` of the
/// diagonal are computed (the others are over it), three rows at a time in `rows` (a
/// transposition looks two back), and the search stops at a row whose cells are all over it:
/// callers compare every key of a frontmatter, or every missing path, with many candidates.
pub(crate) fn osa_distance_within(a: &[char], b: &[char], limit: usize, rows: &mut Vec<usize>) -> Option<usize> {
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let over = limit + 1;
    let w = b.len() + 1;
    rows.clear();
    rows.resize(3 * w, over);
    let (mut two_up, mut up, mut row) = (0, w, 2 * w);
    for (j, cell) in rows[up..up + w].iter_mut().enumerate().take(over) {
        *cell = j;
    }
    for i in 1..=a.len() {
        rows[row..row + w].fill(over);
        if i <= limit {
            rows[row] = i;
        }
        let mut best = over;
        for j in i.saturating_sub(limit).max(1)..=(i + limit).min(b.len()) {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[up + j] + 1).min(rows[row + j - 1] + 1).min(rows[up + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[two_up + j - 2] + 1);
            }
            let d = d.min(over);
            rows[row + j] = d;
            best = best.min(d);
        }
        if best > limit && rows[row] > limit {
            return None;
        }
        (two_up, up, row) = (up, row, two_up);
    }
    let d = rows[up + b.len()];
    (d <= limit).then_some(d)
}

/// The span of a field's whole line(s): from the key to the end of its value, for messages that
/// concern the entry rather than its value.
pub(crate) fn entry_span(field: &Field) -> Span {
    field.key_span.cover(field.value.span)
}

/// The line holding `offset`: where it starts, and where its `\n` (or the text) ends. From the
/// line index, not by searching the text, which on a long line would cost its length each time.
pub(crate) fn line_bounds(skill: &Skill, offset: usize) -> (usize, usize) {
    let line = skill.lines.line_of(offset);
    let next = skill.lines.line_start(line + 1);
    let end = if next > offset && next <= skill.text.len() && skill.text.as_bytes()[next - 1] == b'\n' {
        next - 1
    } else {
        skill.text.len()
    };
    (skill.lines.line_start(line), end)
}

/// A point span at the start of the frontmatter, or of the file, for "missing" findings.
pub(crate) fn frontmatter_anchor(skill: &Skill) -> Span {
    match skill.split.open {
        Some(open) => open,
        None => Span::empty(skill.split.body.start),
    }
}

/// One of ruamel.yaml's location marks, as skills-ref prints them inside `Invalid YAML in
/// frontmatter: ...`: line numbers count from the opening `---` line (skills-ref parses the text
/// after the first `---`), columns are 1-based characters.
pub(crate) fn ruamel_mark(skill: &Skill, offset: usize) -> String {
    let open_line = skill.split.open.map_or(0, |o| skill.lines.line_of(o.start));
    let line_no = skill.lines.line_of(offset);
    let line = skill.lines.line_span(&skill.text, line_no).slice(&skill.text);
    let col0 = skill.text[skill.lines.line_start(line_no)..offset].chars().count();
    let l = line_no - open_line + 1;
    format!(
        "  in \"<unicode string>\", line {l}, column {}:\n    {line}\n    {}^ (line: {l})",
        col0 + 1,
        " ".repeat(col0)
    )
}

/// skills-ref's message for a construct strictyaml refuses while scanning.
pub(crate) fn strictyaml_scan_error(skill: &Skill, first: usize, what: &str, second: usize) -> String {
    format!(
        "Invalid YAML in frontmatter: While scanning\n{}\n{what}\n{}",
        ruamel_mark(skill, first),
        ruamel_mark(skill, second)
    )
}

/// Whether field rules should look at the fields: under skills-ref's profile only when the YAML
/// parsed (skills-ref stops at a parse error); otherwise also on the lenient reading.
pub(crate) fn fields_checkable(cx: &super::Context<'_>) -> bool {
    use crate::syntax::frontmatter::Reading;
    match cx.skill.frontmatter.reading {
        Reading::Yaml => true,
        // skills-ref stops at a parse error, and calls empty frontmatter "not a mapping".
        Reading::Lenient | Reading::Empty => !cx.skills_ref(),
        Reading::None | Reading::NotMapping => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits_by_three() {
        assert_eq!(thousands(7), "7");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1068), "1,068");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn python_isalnum_accepts_letters_and_numbers_only() {
        assert!(py_isalnum('技') && py_isalnum('é') && py_isalnum('١') && py_isalnum('²'));
        assert!(!py_isalnum('_') && !py_isalnum('\u{94d}') && !py_isalnum('\u{93f}'));
    }

    fn distance(a: &str, b: &str) -> Option<usize> {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        osa_distance_within(&a, &b, 3, &mut Vec::new())
    }

    #[test]
    fn distances() {
        assert_eq!(distance("descriptoin", "description"), Some(1));
        assert_eq!(distance("licence", "license"), Some(1));
        assert_eq!(distance("name", "name"), Some(0));
        assert_eq!(distance("", "abc"), Some(3));
        assert_eq!(distance("ca", "abc"), Some(3));
        assert_eq!(distance("kitten", "sitting"), Some(3));
        assert_eq!(distance("ab", "ba"), Some(1));
        assert_eq!(distance("abcd", ""), None);
        assert_eq!(distance("abcdef", "badcfe"), Some(3));
        assert_eq!(distance("abcdefgh", "badcfehg"), None);
    }

    /// The whole table, as the distance is defined.
    fn full_table_distance(a: &str, b: &str) -> usize {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                d[i][j] = if i == 0 || j == 0 {
                    i + j
                } else {
                    let cost = usize::from(a[i - 1] != b[j - 1]);
                    let mut v = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
                    if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                        v = v.min(d[i - 2][j - 2] + 1);
                    }
                    v
                };
            }
        }
        d[a.len()][b.len()]
    }

    proptest::proptest! {
        #[test]
        fn the_band_gives_the_whole_tables_distance_up_to_its_limit(
            a in "[abc_é-]{0,9}",
            b in "[abc_é-]{0,9}",
            limit in 0usize..10,
        ) {
            let (ac, bc): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            let d = full_table_distance(&a, &b);
            proptest::prop_assert_eq!(osa_distance_within(&ac, &bc, limit, &mut Vec::new()), (d <= limit).then_some(d));
        }
    }

    #[test]
    fn quoting_escapes() {
        assert_eq!(double_quoted(r#"a "b" \c"#), r#""a \"b\" \\c""#);
    }
}
