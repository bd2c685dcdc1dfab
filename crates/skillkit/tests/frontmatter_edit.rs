//! `frontmatter_edit::set_field` writes values that read back: one test per troublesome kind of
//! value or place, and a property test over arbitrary and YAML-significant strings on frontmatters
//! that use every scalar style. Each result is checked by [`check_edit`]: it parses, the field reads
//! back as the value under the engine's YAML 1.2 parser and under the PyYAML (YAML 1.1) and
//! strictyaml readings that `skillkit::syntax::yaml11` and the character rules below model, every other
//! field and the body are unchanged, and no byte outside the field's value changed.
//!
//! The property test runs 2,000 cases; for more, e.g.
//! `PROPTEST_CASES=200000 cargo test --release -p skillkit-engine --test frontmatter_edit`.

use proptest::prelude::*;
use skillkit::frontmatter_edit::{form_fields, set_field, EditError};
use skillkit::syntax::yaml::{Entry, Node, NodeKind, ScalarStyle};
use skillkit::syntax::yaml11::{resolve_core, resolve_yaml11, Typed};

/// A text's frontmatter as the engine's parser reads it.
struct Reading {
    /// Where the YAML text is in the file.
    yaml: Option<(usize, usize)>,
    body: String,
    root: Option<Node>,
    error: Option<String>,
}

fn read(text: &str) -> Reading {
    let split = skillkit::syntax::split::split(text);
    let (root, error) = match split.yaml {
        Some(y) => {
            let parsed = skillkit::syntax::yaml::parse(y.slice(text), y.start);
            (parsed.root, parsed.error.map(|e| e.message))
        }
        None => (None, None),
    };
    Reading { yaml: split.yaml.map(|y| (y.start, y.end)), body: split.body.slice(text).to_string(), root, error }
}

fn entries(r: &Reading) -> &[Entry] {
    r.root.as_ref().and_then(Node::entries).unwrap_or(&[])
}

/// A node as loaders see it, without positions (aliases by name).
fn shape(n: &Node, text: &str) -> String {
    let kind = match &n.kind {
        NodeKind::Scalar { value, style } => format!("{style:?}{value:?}"),
        NodeKind::Sequence(items) => {
            format!("[{}]", items.iter().map(|i| shape(i, text)).collect::<Vec<_>>().join(","))
        }
        NodeKind::Mapping(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|e| format!("{}: {}", shape(&e.key, text), shape(&e.value, text)))
                .collect::<Vec<_>>()
                .join(",")
        ),
        NodeKind::Alias => n.span.slice(text).trim_end().to_string(),
    };
    format!("{kind} flow={} anchor={} tag={:?}", n.flow, n.anchor, n.tag)
}

/// Characters that PyYAML refuses anywhere in a stream (its reader's non-printable set), reads as
/// line breaks where YAML 1.2 does not (NEL, LS, PS), or that the engine's parser refuses inside a
/// document (a byte order mark). An edit may not add any.
fn misread(c: char) -> bool {
    let printable = matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
        || c >= '\u{10000}';
    !printable || matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{feff}')
}

fn line_end(text: &str, at: usize) -> usize {
    text[at..].find(['\r', '\n']).map_or(text.len(), |i| at + i)
}

/// Whether `out`, `set_field(text, key, value)`'s result, is right: see the module doc.
fn check_edit(text: &str, key: &str, value: &str, out: &str) -> Result<(), String> {
    let (before, after) = (read(text), read(out));
    if let Some(e) = &before.error {
        return Err(format!("the starting text is not valid YAML: {e}"));
    }
    if let Some(e) = &after.error {
        return Err(format!("the result does not parse: {e}"));
    }
    if before.body != after.body {
        return Err("the body changed".into());
    }
    let (old, new) = (entries(&before), entries(&after));
    let old_target = old.iter().rposition(|e| e.key.as_str() == Some(key));
    // A new field goes last, or before the last one when the file ends inside that one's block
    // value without a line break (see `set_field`'s doc): a line after it would add one.
    let ends_in_block = before.yaml.is_some_and(|(s, e)| s < e && !text[..e].ends_with('\n'))
        && old.last().is_some_and(|e| matches!(&e.value.kind, NodeKind::Scalar { style, .. } if style.is_block()));
    let insert_at = old.len() - usize::from(ends_in_block);
    let mut keys: Vec<Option<&str>> = old.iter().map(|e| e.key.as_str()).collect();
    if old_target.is_none() {
        keys.insert(insert_at, Some(key));
    }
    if new.iter().map(|e| e.key.as_str()).collect::<Vec<_>>() != keys {
        return Err("the keys changed".into());
    }
    let target = new.iter().rposition(|e| e.key.as_str() == Some(key)).expect("the key is there");
    let field = &new[target].value;
    let NodeKind::Scalar { value: got, style } = &field.kind else {
        return Err("the field is not a scalar".into());
    };
    if got != value {
        return Err(format!("the field reads back as {got:?}"));
    }
    if !matches!(field.tag.as_deref(), None | Some("tag:yaml.org,2002:str")) {
        return Err(format!("the field has the tag {:?}", field.tag));
    }
    let others = new.iter().enumerate().filter(|(i, _)| old_target.is_some() || *i != target).map(|(_, e)| e);
    for (i, (o, n)) in old.iter().zip(others).enumerate() {
        if Some(i) != old_target && shape(&o.value, text) != shape(&n.value, out) {
            return Err(format!("field {:?} changed", o.key.as_str()));
        }
    }
    // PyYAML types plain scalars by YAML 1.1 (and reads `=` and `<<` as special tags) and ends a
    // plain scalar at a tab; strictyaml reads them as strings, like the engine.
    let flow = after.root.as_ref().is_some_and(|r| r.flow);
    if *style == ScalarStyle::Plain
        && (resolve_yaml11(value) != Typed::Str
            || resolve_core(value) != Typed::Str
            || matches!(value, "=" | "<<")
            || value.contains('\t')
            || (flow && value.contains('?')))
    {
        return Err(format!("{value:?} is written plain but PyYAML or YAML 1.2 types it"));
    }
    let count = |t: &str| t.chars().skip(usize::from(t.starts_with('\u{feff}'))).filter(|&c| misread(c)).count();
    if count(out) > count(text) {
        return Err("a character PyYAML or the engine reads differently is written as it is".into());
    }
    // The bytes that differ must lie inside the value's place.
    if out == text {
        return Ok(());
    }
    let p = text.bytes().zip(out.bytes()).take_while(|(a, b)| a == b).count();
    let most = text.len().min(out.len()) - p;
    let s = text.bytes().rev().zip(out.bytes().rev()).take(most).take_while(|(a, b)| a == b).count();
    let (changed_start, changed_end) = (p, text.len() - s);
    let (zone_start, zone_end) = match old_target {
        Some(i) => {
            let (k, v) = (&old[i].key, &old[i].value);
            if v.span.is_empty() {
                (k.span.end, line_end(text, k.span.end))
            } else {
                let content_end = v.span.start + v.span.slice(text).trim_end().len();
                (v.span.start, line_end(text, content_end))
            }
        }
        None => match (&before.root, before.yaml) {
            _ if ends_in_block => {
                let key_start = old[insert_at].key.span.start;
                let line_start = text[..key_start].rfind('\n').map_or(0, |i| i + 1);
                (line_start, line_start)
            }
            (Some(root), _) if root.flow => {
                let close = root.span.end - 1;
                (text[..close].trim_end().len(), close)
            }
            (_, Some((_, end))) => (end, end),
            (_, None) => (usize::from(text.starts_with('\u{feff}')) * 3, usize::from(text.starts_with('\u{feff}')) * 3),
        },
    };
    if changed_start < zone_start || changed_end > zone_end {
        return Err(format!(
            "bytes {changed_start}..{changed_end} changed, outside the value's {zone_start}..{zone_end}"
        ));
    }
    Ok(())
}

/// `set_field`'s result, after checking it; panics with the reason when it is wrong.
fn edit(text: &str, key: &str, value: &str) -> String {
    let out = set_field(text, key, value).unwrap_or_else(|e| panic!("{key} = {value:?} refused: {e}"));
    if let Err(why) = check_edit(text, key, value, &out) {
        panic!("{key} = {value:?}: {why}\n{out:?}");
    }
    out
}

fn value_of(text: &str, key: &str) -> Option<String> {
    form_fields(text).into_iter().find(|f| f.key == key).and_then(|f| f.value)
}

const SIMPLE: &str = "---\nname: demo\ndescription: Old text.\nlicense: MIT\n---\n# Body\n";

#[test]
fn a_byte_order_mark_in_a_value_is_written_as_an_escape() {
    for v in ["a\u{feff}b", "\u{feff}", "\u{feff}lead", "a\n\u{feff}b"] {
        let out = edit(SIMPLE, "description", v);
        assert!(out.contains("\\uFEFF") && !out.contains('\u{feff}'), "{out:?}");
    }
    let out = edit("---\nname: demo\ndescription: |\n  old\n---\n", "description", "x\n\u{feff}\n");
    assert!(out.contains("description: \"x\\n\\uFEFF\\n\"\n"), "{out:?}");
}

#[test]
fn a_block_whose_first_line_is_empty_and_the_next_starts_with_a_space_reads_back() {
    let out = edit(SIMPLE, "description", "\n x");
    assert!(out.contains("description: |2-\n\n   x\nlicense"), "{out:?}");
}

#[test]
fn a_block_whose_first_text_line_is_more_indented_than_later_ones_gets_an_indentation_indicator() {
    let out = edit(SIMPLE, "description", "\n xa\nb");
    assert!(out.contains("description: |2-\n\n   xa\n  b\nlicense"), "{out:?}");
    edit(SIMPLE, "description", "  deeper\n shallower\nnone\n");
}

#[test]
fn a_block_followed_by_a_blank_line_reads_back_without_an_extra_line_break() {
    let text = "---\ndescription: |\n  old\n\nname: demo\n---\n";
    for v in ["x\n\n", "x\n\n\n", "x\n", "x", "x\ny\n\n"] {
        let out = edit(text, "description", v);
        assert!(out.ends_with("\n\nname: demo\n---\n"), "the blank line stays: {out:?}");
    }
    // Two trailing line breaks and two blank lines after the block: a kept block would read
    // three, so the value is quoted.
    let out = edit("---\ndescription: |\n  old\n\n\nname: demo\n---\n", "description", "x\n\n");
    assert!(out.contains("description: \"x\\n\\n\"\n\n\nname"), "{out:?}");
}

#[test]
fn control_characters_are_written_as_escapes() {
    for v in ["nul\0", "bell\u{7}", "esc\u{1b}[0m", "del\u{7f}", "c1\u{80}\u{9f}", "vt\u{b}ff\u{c}", "\u{fffe}\u{ffff}"]
    {
        let out = edit(SIMPLE, "description", v);
        assert!(out.contains("description: \"") && !out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
    }
}

#[test]
fn nel_ls_and_ps_are_escaped_because_yaml_1_1_reads_them_as_line_breaks() {
    let out = edit(SIMPLE, "description", "a\u{85}b\u{2028}c\u{2029}d");
    assert!(out.contains("description: \"a\\Nb\\Lc\\Pd\"\n"), "{out:?}");
    // Not in a block either, where they would split lines for PyYAML only.
    let out = edit("---\ndescription: |\n  old\n---\n", "description", "one\ntwo\u{2028}three\n");
    assert!(out.contains("description: \"one\\ntwo\\Lthree\\n\"\n"), "{out:?}");
}

#[test]
fn tabs_are_never_written_plain() {
    for v in ["a\tb", "a\t#b", "a:\tb", "\tlead", "trail\t"] {
        let out = edit(SIMPLE, "description", v);
        assert!(out.contains("description: \"") && out.contains("\\t"), "{v:?}: {out:?}");
    }
    // Inside a block line a tab is text for every reader.
    let out = edit(SIMPLE, "description", "a\n\tb\nc\td\n");
    assert!(out.contains("description: |\n  a\n  \tb\n  c\td\nlicense"), "{out:?}");
}

#[test]
fn lines_with_trailing_whitespace_make_a_multi_line_value_double_quoted() {
    for v in ["a  \nb", "a\n \nb", "a\nb\t\n", " \n"] {
        let out = edit(SIMPLE, "description", v);
        assert!(out.contains("description: \""), "{v:?}: {out:?}");
    }
}

#[test]
fn leading_and_trailing_whitespace_is_kept_by_quoting() {
    for v in [" a", "a ", "  ", "\u{a0}nbsp\u{a0}", "\u{3000}ideographic"] {
        let out = edit(SIMPLE, "description", v);
        assert!(out.contains("description: \""), "{v:?}: {out:?}");
    }
    let out = edit("---\nname: 'demo'\n---\n", "name", " spaced ");
    assert!(out.contains("name: ' spaced '\n"), "single quotes hold spaces: {out:?}");
}

#[test]
fn a_carriage_return_in_a_value_is_escaped_in_lf_and_crlf_files() {
    for text in [SIMPLE, "---\r\nname: demo\r\ndescription: |\r\n  old\r\n---\r\n"] {
        for v in ["a\rb", "a\r\nb", "a\r", "\r\n"] {
            let out = edit(text, "description", v);
            assert!(out.contains("description: \"") && out.contains("\\r"), "{v:?}: {out:?}");
        }
    }
}

#[test]
fn very_long_values_read_back() {
    let long = "word ".repeat(20_000);
    let long = long.trim_end();
    let out = edit(SIMPLE, "description", long);
    assert!(out.contains(&format!("description: {long}\n")));
    edit(SIMPLE, "description", &format!("{long}: {long}"));
    edit(SIMPLE, "description", &format!("{long}\n{long}\n"));
}

#[test]
fn words_pyyaml_or_yaml_1_2_types_are_quoted() {
    for v in [
        "yes",
        "No",
        "on",
        "OFF",
        "y",
        "true",
        "~",
        "null",
        "Null",
        "1_000",
        "0777",
        "0o17",
        "0x1F",
        "1:30",
        "1:30.5",
        "1e3",
        ".5",
        ".inf",
        "-.INF",
        ".nan",
        "2024-01-31",
        "2024-1-3 10:00:00",
        "=",
        "<<",
        "12",
        "-3",
        "+4.5",
    ] {
        let out = edit(SIMPLE, "license", v);
        assert!(out.contains(&format!("license: \"{v}\"\n")), "{v}: {out:?}");
    }
    for v in ["Apache-2.0", "yes-please", "1.2.3", "v1", "a=b", "<<x"] {
        let out = edit(SIMPLE, "license", v);
        assert!(out.contains(&format!("license: {v}\n")), "{v} stays plain: {out:?}");
    }
}

#[test]
fn indicators_and_comment_marks_are_quoted_or_kept_inside_text() {
    for v in [
        "- item", "-", "? q", ": c", "#x", "&a", "*a", "!t", "%p", "@a", "`b", "|", ">", "'q", "\"q", "{a}", "[a]",
        ",", "a: b", "a #b", "a:",
    ] {
        let out = edit(SIMPLE, "description", v);
        assert!(out.contains("description: \""), "{v:?}: {out:?}");
    }
    for v in ["-x", "?x", ":x", "a#b", "a:b", "a - b", "a, b", "x]", "it's"] {
        let out = edit(SIMPLE, "description", v);
        assert!(out.contains(&format!("description: {v}\n")), "{v:?} stays plain: {out:?}");
    }
}

#[test]
fn an_old_block_followed_by_blank_lines_and_a_comment_line_keeps_them() {
    let text = "---\ndescription: |\n    old one\n    old two\n\n  # a note\n\nname: demo\n---\n";
    let tail = "\n\n  # a note\n\nname: demo\n---\n";
    for v in ["single", "a\nb", "a\nb\n", "a\n\nb\n\n", " lead\nb"] {
        let out = edit(text, "description", v);
        assert!(out.ends_with(tail), "{v:?}: {out:?}");
    }
    // The new block keeps the old indentation, deeper than the comment.
    let out = edit(text, "description", "a\nb\n");
    assert_eq!(out, format!("---\ndescription: |\n    a\n    b{tail}"));
    // A kept block takes in the blank line before the comment, so writes one break fewer.
    let out = edit(text, "description", "a\n\n");
    assert_eq!(out, format!("---\ndescription: |+\n    a{tail}"));
}

#[test]
fn a_comment_indented_deeper_than_the_key_stays_outside_a_new_block() {
    let text = "---\ndescription: old # why\n      # more about it\nname: demo\n---\n";
    let out = edit(text, "description", "a\nb");
    assert_eq!(out, "---\ndescription: |- # why\n       a\n       b\n      # more about it\nname: demo\n---\n");
}

#[test]
fn values_in_a_flow_mapping_stay_on_one_line() {
    let text = "---\n{name: demo, description: 'd', license: MIT}\n---\nBody\n";
    let out = edit(text, "description", "a, b: c\nd");
    assert_eq!(out, "---\n{name: demo, description: \"a, b: c\\nd\", license: MIT}\n---\nBody\n");
    for v in ["x?", "[x]", "a:b", "it's", "plain words"] {
        edit(text, "license", v);
        edit(text, "description", v);
    }
    let out = edit(text, "compatibility", "any");
    assert_eq!(out, "---\n{name: demo, description: 'd', license: MIT, compatibility: any}\n---\nBody\n");
    let out = edit("---\n{}\n---\n", "name", "a, b");
    assert_eq!(out, "---\n{name: \"a, b\"}\n---\n");
}

#[test]
fn the_last_field_before_the_closing_line_or_the_end_of_the_file() {
    for text in [
        "---\nname: demo\ndescription: last\n---",
        "---\nname: demo\ndescription: last\n---\n",
        "---\nname: demo\ndescription: last",
        "---\nname: demo\ndescription: |\n  last",
        "---\nname: demo\ndescription: |+\n  last\n\n",
    ] {
        for v in ["x", "a\nb", "a\nb\n", "a\nb\n\n", "a\n\n\n", ""] {
            edit(text, "description", v);
            edit(text, "license", v);
        }
    }
    let out = edit("---\nname: demo\ndescription: last", "description", "a\nb\n\n");
    assert_eq!(out, "---\nname: demo\ndescription: |+\n  a\n  b\n\n");
    // PyYAML reads a block that ends the file without a line break without one (the engine with
    // one); a line after it would give it one, so a new field goes before it.
    let out = edit("---\nname: demo\ndescription: |\n  last", "license", "MIT");
    assert_eq!(out, "---\nname: demo\nlicense: MIT\ndescription: |\n  last");
}

#[test]
fn crlf_files_get_crlf_in_blocks_and_new_lines() {
    let text = "---\r\nname: demo\r\ndescription: |\r\n  one\r\n\r\nlicense: 'MIT' # l\r\n---\r\nBody\r\n";
    let out = edit(text, "description", "a\n\nb\n");
    assert_eq!(
        out,
        "---\r\nname: demo\r\ndescription: |\r\n  a\r\n\r\n  b\r\n\r\nlicense: 'MIT' # l\r\n---\r\nBody\r\n"
    );
    let out = edit(text, "compatibility", "x\ny");
    assert!(out.ends_with("compatibility: |-\r\n  x\r\n  y\r\n---\r\nBody\r\n"), "{out:?}");
    assert!(!out.replace("\r\n", "").contains('\n'), "{out:?}");
}

#[test]
fn keys_written_in_other_styles_are_found() {
    let text = "---\n\"name\": demo\n'description': >-\n  folded\n? license\n: MIT\n---\n";
    let out = edit(text, "name", "renamed");
    assert!(out.starts_with("---\n\"name\": renamed\n'description'"), "{out:?}");
    let out = edit(text, "description", "a\nb");
    assert!(out.contains("'description': |-\n  a\n  b\n? license"), "{out:?}");
    let out = edit(text, "license", "a\nb\n");
    assert!(out.ends_with("? license\n: |\n  a\n  b\n---\n"), "{out:?}");
}

#[test]
fn a_missing_field_is_added_with_the_mappings_indentation_and_a_quoted_key_if_typed() {
    let text = "---\n  name: demo\n  description: |\n    indented\n---\n";
    let out = edit(text, "license", "MIT");
    assert!(out.ends_with("    indented\n  license: MIT\n---\n"), "{out:?}");
    let out = edit(text, "description", "\n x");
    assert!(out.contains("  description: |2-\n\n     x\n---"), "{out:?}");
    let out = edit(text, "license", " lead\nnext\n");
    assert!(out.ends_with("  license: |2\n     lead\n    next\n---\n"), "{out:?}");
    // PyYAML would read `yes:` as the key True.
    let out = edit(SIMPLE, "yes", "x");
    assert!(out.contains("\n\"yes\": x\n---"), "{out:?}");
    assert_eq!(set_field(SIMPLE, "bad key", "x"), Err(EditError::BadKey { key: "bad key".into() }));
}

#[test]
fn a_file_without_frontmatter_gets_one() {
    let out = edit("# Just a body\n", "description", "a: b");
    assert_eq!(out, "---\ndescription: \"a: b\"\n---\n# Just a body\n");
    let out = edit("\u{feff}Body", "description", "a\nb\n");
    assert_eq!(out, "\u{feff}---\ndescription: |\n  a\n  b\n---\nBody");
    let out = edit("", "name", "demo");
    assert_eq!(out, "---\nname: demo\n---\n");
    let out = edit("---\n---\nBody\n", "name", "demo");
    assert_eq!(out, "---\nname: demo\n---\nBody\n");
}

#[test]
fn an_empty_value_is_written_after_its_colon() {
    let text = "---\nname:\ndescription: # why\nlicense: MIT\n---\n";
    assert_eq!(edit(text, "name", "demo"), "---\nname: demo\ndescription: # why\nlicense: MIT\n---\n");
    assert_eq!(edit(text, "description", "a\nb"), "---\nname:\ndescription: |- # why\n  a\n  b\nlicense: MIT\n---\n");
}

#[test]
fn anchors_and_str_tags_are_kept_and_type_tags_refused() {
    let text = "---\nname: &n demo\ndescription: !!str old # c\nversion: !!int 5\nlicense: &l MIT\nsame: *l\n---\n";
    assert!(edit(text, "name", "x").contains("name: &n x\n"));
    assert!(edit(text, "description", "a\nb").contains("description: !!str |- # c\n  a\n  b\nversion"));
    for key in ["version", "license"] {
        let err = set_field(text, key, "x").unwrap_err();
        assert!(matches!(&err, EditError::Unwritable { key: k, .. } if k == key), "{err:?}");
    }
    assert_eq!(
        set_field(text, "license", "x").unwrap_err().to_string(),
        "`license` cannot be set from the form: other fields use its value through the anchor `&l`; edit it in the text"
    );
}

#[test]
fn a_plain_value_over_several_lines_is_replaced_whole() {
    let text = "---\nname: demo\ndescription: a plain value\n  over two lines # c\nlicense: MIT\n---\n";
    assert_eq!(edit(text, "description", "one"), "---\nname: demo\ndescription: one # c\nlicense: MIT\n---\n");
}

#[test]
fn broken_yaml_can_be_repaired_by_setting_the_field_that_breaks_it() {
    let text = "---\nname: demo\ndescription: Use when: the user asks\n---\n";
    let out = set_field(text, "description", "Use when: the user asks").unwrap();
    assert_eq!(out, "---\nname: demo\ndescription: \"Use when: the user asks\"\n---\n");
    assert!(read(&out).error.is_none());
    // Another field stays broken: the value is still written by the rules.
    let text = "---\nname: a: b\ndescription: old\n---\n";
    assert_eq!(set_field(text, "description", "new").unwrap(), "---\nname: a: b\ndescription: new\n---\n");
    assert_eq!(
        value_of(&set_field(text, "description", "it's: x").unwrap(), "description").as_deref(),
        Some("it's: x")
    );
}

/// Frontmatters in every scalar style, with the keys the property edits (`added` is missing).
const STARTS: &[(&str, &[&str])] = &[
    (
        "---\n# leading comment\nname: demo # the name\ndescription: Old text.\nlicense: MIT\n---\n# Body\n",
        &["name", "description", "license", "added"],
    ),
    (
        "---\nname: 'demo' # single\ndescription: \"Old \\\"text\\\"\"\ncompatibility: \"\"\n---\nBody\n",
        &["name", "description", "compatibility", "added"],
    ),
    (
        "---\nname: demo\ndescription: |\n  Line one.\n\n  Line two.\n\n# note\nlicense: MIT\n---\nBody\n",
        &["description", "license", "added"],
    ),
    (
        "---\na: |-\n  strip\nb: |+\n  keep\n\n\nc: >\n  folded\n  text\n\n # trailing comment\nd: >-\n    deeper\ne: |2\n   lead\n---\n",
        &["a", "b", "c", "d", "e", "added"],
    ),
    (
        "---\r\nname: demo\r\ndescription: |\r\n  one\r\n  two\r\n\r\nlicense: 'MIT' # l\r\n---\r\nBody\r\n",
        &["name", "description", "license", "added"],
    ),
    ("---\n{name: demo, description: \"d\", license: 'MIT'}\n---\nBody\n", &["name", "description", "license", "added"]),
    ("---\nname: demo\ndescription: last\n---", &["description", "added"]),
    ("---\nname: demo\ndescription: |\n  last", &["description", "added"]),
    (
        "---\nname:\ndescription: x # why\n    # indented comment\n\nlicense: ~\nversion: &v 1.0\nmeta: !!str tagged\n---\n",
        &["name", "description", "license", "version", "meta", "added"],
    ),
    ("---\n\"name\": demo\n'description': >-\n  folded\n? license\n: MIT\n---\n", &["name", "description", "license", "added"]),
    ("---\n  name: demo\n  description: |\n    indented\n  license: MIT\n---\n", &["name", "description", "added"]),
    ("---\nname: demo\ndescription: a plain value\n  over two lines\n---\n", &["description", "added"]),
    ("\u{feff}# No frontmatter\n", &["added"]),
    ("---\n---\nBody\n", &["added"]),
];

#[test]
fn the_property_starts_from_valid_yaml() {
    for (text, _) in STARTS {
        assert!(read(text).error.is_none(), "{text:?}");
    }
}

/// Pieces YAML gives a meaning to, and values some loader types.
const SIGNIFICANT: &[&str] = &[
    ":",
    ": ",
    ":\t",
    "#",
    " #",
    "-",
    "- ",
    "--- ",
    "...",
    "'",
    "''",
    "\"",
    "\\",
    "|",
    "|-",
    ">",
    "\n",
    "\n\n",
    "\r",
    "\r\n",
    " ",
    "  ",
    "\t",
    "\u{feff}",
    "\u{85}",
    "\u{2028}",
    "\u{2029}",
    "&",
    "*",
    "!",
    "!!str ",
    "%",
    "@",
    "`",
    "? ",
    "{",
    "}",
    "[",
    "]",
    ",",
    "yes",
    "no",
    "on",
    "~",
    "null",
    "1_000",
    "2024-01-31",
    "1:30",
    "=",
    "<<",
    "0x1F",
    "1e3",
    ".inf",
    "\0",
    "\u{7f}",
    "\u{9f}",
    "\u{fffe}",
    "\u{a0}",
    "é",
    "😀",
    "x",
    " \n",
    "\n ",
    "\n  x",
];

fn value() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => proptest::sample::select(SIGNIFICANT).prop_map(String::from),
        2 => "[a-z]{1,6}",
        1 => any::<char>().prop_map(String::from),
    ];
    prop_oneof![
        3 => proptest::collection::vec(piece, 0..10).prop_map(|p| p.concat()),
        1 => "(?s).{0,30}",
        1 => proptest::collection::vec(any::<char>(), 0..20).prop_map(|c| c.into_iter().collect()),
    ]
}

fn start() -> impl Strategy<Value = (&'static str, &'static str)> {
    proptest::sample::select(STARTS).prop_flat_map(|(text, keys)| (Just(text), proptest::sample::select(keys)))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(2_000),
        ..ProptestConfig::default()
    })]

    /// None of the starting places refuses a value: a double-quoted one always fits.
    #[test]
    fn every_value_reads_back_and_nothing_else_changes((text, key) in start(), value in value()) {
        let key = if key == "added" { "added-field" } else { key };
        let out = set_field(text, key, &value).map_err(|e| TestCaseError::fail(format!("refused: {e}")))?;
        check_edit(text, key, &value, &out).map_err(|why| TestCaseError::fail(format!("{why}\n{out:?}")))?;
    }
}
