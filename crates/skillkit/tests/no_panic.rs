//! Property tests: splitting, parsing and linting never panic, on arbitrary bytes and on
//! frontmatter-shaped text built from troublesome fragments; every span and fix lies inside the
//! text on character boundaries, and applying all fixes never panics.

use proptest::prelude::*;
use skillkit::lint::diagnostic::apply_fixes;
use skillkit::{lint, Skill, AGENTS};

fn check(skill: &Skill) {
    for agent in AGENTS {
        let diags = lint(skill, agent);
        let text = &skill.text;
        for d in &diags {
            let spans = std::iter::once(d.span)
                .chain(d.labels.iter().map(|l| l.span))
                .chain(d.fix.iter().flat_map(|f| f.edits.iter().map(|e| e.span)));
            for s in spans {
                assert!(s.start <= s.end && s.end <= text.len(), "{d:?} out of bounds");
                assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end), "{d:?} splits a character");
            }
            assert!(d.start.line >= 1 && d.start.column >= 1);
        }
        let _ = apply_fixes(text, diags.iter().filter_map(|d| d.fix.as_ref()));
    }
}

const FRAGMENTS: &[&str] = &[
    "---",
    "--- ",
    "----",
    "---# x",
    "name: x",
    "name: X_Y",
    "name:",
    "description: a: b",
    "description: >",
    "  folded",
    "description: |-",
    "Prose line: after",
    "  - item",
    "- item",
    "[",
    "]",
    "{a: b}",
    "a: [x, y]",
    "&a x",
    "b: *a",
    "c: !!str 1",
    "\tk: v",
    "key:",
    "  nested: 1",
    "metadata:",
    "  v: 1.0",
    "version: no",
    "allowed-tools:",
    "",
    "\u{feff}",
    "é: ü",
    "# comment",
    "'q",
    "\"q",
    "x: \"a\\\"b\"",
    "<!-- c -->",
    "  ",
    "\r",
    "😀: 😀",
    "compatibility: \"\"",
    "descriptoin: d",
    "when_to_use: w",
    "? complex",
    ": bare",
    "...",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        check(&Skill::from_bytes("/skills/x", "SKILL.md", bytes));
    }

    #[test]
    fn frontmatter_shaped_text_never_panics(
        lines in proptest::collection::vec(proptest::sample::select(FRAGMENTS), 0..24),
        crlf in any::<bool>(),
    ) {
        let nl = if crlf { "\r\n" } else { "\n" };
        let text = lines.join(nl);
        check(&Skill::parse("/skills/x", "SKILL.md", text));
    }

    #[test]
    fn arbitrary_unicode_never_panics(text in "\\PC{0,300}") {
        check(&Skill::parse("/skills/x", "SKILL.md", format!("---\n{text}\n---\n{text}")));
    }
}
