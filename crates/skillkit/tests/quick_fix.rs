//! The quick fixes offered at a cursor, the preferred one first (`skillkit::lint::quick_fix`),
//! and the field limits the form counts against (`skillkit::frontmatter_edit::field_limits`).

use skillkit::agents::SPEC;
use skillkit::frontmatter_edit::{field_limits, FieldLimit};
use skillkit::lint::diagnostic::apply_fixes;
use skillkit::lint::quick_fix::{fixes_at, offset_at};
use skillkit::{Diagnostic, Skill, Span};

fn lint_in(folder: &str, text: &str) -> Vec<Diagnostic> {
    skillkit::lint(&Skill::parse(format!("/skills/{folder}"), "SKILL.md", text.to_string()), &SPEC)
}

#[test]
fn the_fix_that_clears_both_name_findings_comes_first() {
    let text = "---\nname: claude-api Helper\ndescription: Calls the API. Use when asked to call it.\n---\nBody.\n";
    let found = lint_in("claude-api", text);
    let codes: Vec<_> = found.iter().map(|d| d.code).collect();
    assert!(codes.contains(&"SK204") && codes.contains(&"SK205"), "{codes:?}");
    let cursor = text.find("Helper").unwrap();
    let order = fixes_at(text, &found, Span::empty(cursor), |t| lint_in("claude-api", t));
    let labels: Vec<_> = order.iter().map(|&i| found[i].fix.as_ref().unwrap().message.as_str()).collect();
    assert_eq!(labels, ["Set `name` to `claude-api`", "Rename to `claude-api-helper`"]);
    // And the first one leaves no error.
    let fixed = apply_fixes(text, [found[order[0]].fix.as_ref().unwrap()]);
    assert!(skillkit::is_valid(&lint_in("claude-api", &fixed)));
}

#[test]
fn with_nothing_at_the_cursor_the_line_is_offered_and_duplicates_once() {
    let text = "---\nname: claude-api Helper\ndescription: Calls the API. Use when asked to call it.\n---\nBody.\n";
    let found = lint_in("claude-api", text);
    // At the start of the line, before `name`'s value: the line's fixes.
    let order = fixes_at(text, &found, Span::empty(4), |t| lint_in("claude-api", t));
    assert_eq!(order.len(), 2);
    // On the body's line: none.
    let body = text.find("Body").unwrap();
    assert!(fixes_at(text, &found, Span::empty(body), |t| lint_in("claude-api", t)).is_empty());
    // The same fix twice is offered once.
    let twice: Vec<_> = found.iter().chain(found.iter()).cloned().collect();
    assert_eq!(fixes_at(text, &twice, Span::empty(4), |t| lint_in("claude-api", t)).len(), 2);
}

#[test]
fn offsets_count_utf16_columns() {
    let text = "a\né😀x\r\nlast";
    assert_eq!(offset_at(text, 1, 1), 0);
    assert_eq!(offset_at(text, 2, 2), 4); // after `é` (2 bytes)
    assert_eq!(offset_at(text, 2, 4), 8); // after `😀` (2 units, 4 bytes)
    assert_eq!(offset_at(text, 2, 99), 9); // the line's end, before `\r\n`
    assert_eq!(offset_at(text, 3, 3), 13);
    assert_eq!(offset_at(text, 9, 1), text.len());
}

#[test]
fn limits_follow_the_profile() {
    let spec = field_limits(&SPEC);
    let of = |ls: &[FieldLimit], key: &str| ls.iter().filter(|l| l.key == key).map(|l| l.max_chars).collect::<Vec<_>>();
    assert_eq!(of(&spec, "description"), [1024, 1536]);
    assert_eq!(of(&spec, "name"), [64]);
    assert_eq!(of(&spec, "compatibility"), [500]);
    assert!(spec.iter().find(|l| l.key == "description").is_some_and(|l| l.severity == skillkit::Severity::Error));
}
