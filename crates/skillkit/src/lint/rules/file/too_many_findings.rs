use crate::lint::rules::Context;

declare_rule! {
    /// The file has more than 1,000 findings: the rest are counted, not listed.
    ///
    /// ## What it does
    /// Keeps at most 1,000 diagnostics per file and adds this note, at the end of the file,
    /// saying how many more there are, by severity. Errors are kept before warnings and
    /// warnings before notes, each kind from the top of the file down, so a file with an error
    /// always shows one; the kept diagnostics are listed by position as usual. Which ones are
    /// kept depends only on the file, never on timing.
    ///
    /// ## Why is this bad?
    /// A generated or hostile file can hold hundreds of thousands of findings (a frontmatter
    /// of 200,000 unknown keys, a body of 100,000 broken links). Listing them all costs time and
    /// memory in every command and in the editor, makes `check --format json` as large as
    /// hundreds of megabytes, and nobody reads past the first screen of them.
    ///
    /// ## Fix
    /// Fix the findings shown (often one cause, such as a pasted data file, explains them all);
    /// the ones not shown come up as the others go.
    pub TooManyFindings {
        code: "SK009",
        name: "too-many-findings",
        group: File,
        severity: Info,
        fix: None,
        sources: ["skillkit: output bounded per file, so that any library can be opened (issue #19)"],
    }
}

/// An engine-level rule: [`crate::lint::lint`] caps the diagnostics and reports the rest. Nothing
/// to check here.
pub(crate) fn check(_cx: &mut Context<'_>) {}

#[cfg(test)]
mod tests {
    use crate::agents::{AGENTSKILLS, SPEC};
    use crate::lint::diagnostic::Severity;
    use crate::lint::{lint, MAX_DIAGNOSTICS};
    use crate::skill::Skill;

    /// A skill whose frontmatter has `unknown` unknown keys (one warning each), then `errors`
    /// repeats of `name` (one error each).
    fn skill(unknown: usize, errors: usize) -> Skill {
        let mut text = String::from("---\nname: my-skill\ndescription: Formats tables.\n");
        for i in 0..unknown {
            text.push_str(&format!("key{i}: v\n"));
        }
        for _ in 0..errors {
            text.push_str("name: my-skill\n");
        }
        text.push_str("---\nBody.\n");
        Skill::parse("/skills/my-skill", "SKILL.md", text)
    }

    #[test]
    fn up_to_the_cap_every_finding_is_listed_and_no_note_is_added() {
        // 999 unknown keys and the file's length (over 500 lines): 1,000 warnings.
        let d = lint(&skill(MAX_DIAGNOSTICS - 1, 0), &SPEC);
        assert_eq!(d.len(), MAX_DIAGNOSTICS);
        assert!(d.iter().all(|d| d.code == "SK403" || d.code == "SK501"));
    }

    #[test]
    fn over_the_cap_the_rest_are_counted_in_one_note_at_the_end() {
        let s = skill(MAX_DIAGNOSTICS + 234, 0);
        let d = lint(&s, &SPEC);
        assert_eq!(d.len(), MAX_DIAGNOSTICS + 1);
        let note = d.last().unwrap();
        assert_eq!((note.code, note.severity), ("SK009", Severity::Info));
        assert_eq!(note.message, "235 more findings in this file are not listed (235 warnings): fix the ones listed first");
        assert_eq!((note.span.start, note.start.line), (s.text.len(), s.lines.line_count(&s.text) + 1));
        // The warnings from the top: the file's length (line 501) and the first 999 unknown keys,
        // in order, with positions filled in.
        let keys: Vec<usize> = d.iter().filter(|d| d.code == "SK403").map(|d| d.start.line).collect();
        assert_eq!(keys, (4..4 + MAX_DIAGNOSTICS - 1).collect::<Vec<_>>());
        assert_eq!(d.iter().filter(|d| d.code == "SK501").count(), 1);
        assert!(d.windows(2).all(|w| w[0].span.start <= w[1].span.start));
    }

    #[test]
    fn errors_are_kept_before_warnings_wherever_they_are() {
        // 3,000 unknown keys (warnings) first, then 5 repeated `name`s (errors) at the end.
        let s = skill(3 * MAX_DIAGNOSTICS, 5);
        let d = lint(&s, &SPEC);
        assert_eq!(d.len(), MAX_DIAGNOSTICS + 1);
        assert_eq!(d.iter().filter(|d| d.severity == Severity::Error).count(), 5);
        assert!(!crate::lint::is_valid(&d));
        let note = d.last().unwrap();
        // 3,000 unknown keys and the file's length, less the 995 warnings kept.
        assert!(note.message.starts_with("2006 more findings"), "{}", note.message);
        assert!(note.message.contains("(2006 warnings)"), "{}", note.message);
    }

    #[test]
    fn the_cap_is_deterministic_and_the_same_under_every_profile() {
        let s = skill(2 * MAX_DIAGNOSTICS + 17, 3);
        assert_eq!(lint(&s, &SPEC), lint(&s, &SPEC));
        // skills-ref's profile reports the unknown keys as one error: nothing to cap.
        let d = lint(&s, &AGENTSKILLS);
        assert!(d.len() < MAX_DIAGNOSTICS && d.iter().all(|d| d.code != "SK009"), "{}", d.len());
    }
}
