use crate::lint::rules::Context;
use crate::skill::FileProblem;
use crate::syntax::text::Span;

declare_rule! {
    /// `SKILL.md` contains bytes that are not UTF-8.
    ///
    /// ## What it does
    /// Points at the first byte sequence that is not valid UTF-8. The rest of the file is still
    /// checked, with U+FFFD in place of the bad bytes.
    ///
    /// ## Why is this bad?
    /// DeepAgents skips the skill (`Error decoding %s`), and skills-ref crashes with a Python
    /// traceback instead of a message. Text saved in Latin-1 or Windows-1252 is the usual cause.
    ///
    /// ## Fix
    /// Re-save the file as UTF-8.
    pub InvalidUtf8 {
        code: "SK005",
        name: "invalid-utf8",
        group: File,
        severity: Error,
        fix: None,
        sources: ["DeepAgents: `Error decoding %s: %s`", "skills-ref 0.1.1: uncaught UnicodeDecodeError (agentskills #536)"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    for p in &cx.skill.file_problems {
        if let FileProblem::InvalidUtf8 { offset, len } = p {
            // The text holds U+FFFD (3 bytes) where the bad bytes were.
            let span = Span::new(*offset, (*offset + 3).min(cx.text().len()));
            let msg = format!("invalid UTF-8 at byte {offset} ({len} bad byte{})", if *len == 1 { "" } else { "s" });
            cx.report(span, msg).help("save the file as UTF-8; DeepAgents skips it and skills-ref crashes on it");
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::agents::SPEC;
    use crate::lint::lint;
    use crate::skill::Skill;

    #[test]
    fn bad_byte_is_located() {
        let mut bytes = b"---\nname: a\ndescription: caf".to_vec();
        bytes.push(0xe9);
        bytes.extend_from_slice(b"\n---\nBody\n");
        let skill = Skill::from_bytes("/x/a", "SKILL.md", bytes);
        let d = lint(&skill, &SPEC);
        let bad = d.iter().find(|d| d.code == "SK005").unwrap();
        assert_eq!((bad.start.line, bad.start.column), (3, 17));
        assert!(d.iter().all(|d| d.code != "SK106"), "the rest still parses: {d:?}");
    }
}
