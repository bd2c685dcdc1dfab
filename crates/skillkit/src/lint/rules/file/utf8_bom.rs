use crate::lint::rules::Context;
use crate::lint::diagnostic::{Applicability, Edit};
use crate::syntax::text::Span;

declare_rule! {
    /// The file starts with a UTF-8 byte order mark.
    ///
    /// ## What it does
    /// Reports the invisible U+FEFF at the start of the file, which Windows editors add.
    ///
    /// ## Why is this bad?
    /// A BOM is legal UTF-8 and `skillkit` reads past it, but loaders that check for `---` at
    /// byte 0 do not: skills-ref answers `SKILL.md must start with YAML frontmatter (---)` and
    /// DeepAgents skips the skill silently (cline#12151 and agent-os#2697 report the same).
    /// skills-ref is wrong to reject the file; this rule is a warning, not an error, even under
    /// `--agent agentskills`, but the fix is free.
    ///
    /// ## Fix
    /// Remove the BOM (safe).
    pub Utf8Bom {
        code: "SK008",
        name: "utf8-bom",
        group: File,
        severity: Warning,
        fix: Safe,
        sources: ["skills-ref parse_frontmatter: content.startswith(\"---\")", "DeepAgents: re.match(r\"^---\\s*\\n\") on the decoded text"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if cx.skill.split.bom {
        let span = Span::new(0, 3);
        let msg = if cx.skills_ref() {
            "file starts with a UTF-8 BOM: skills-ref 0.1.1 rejects it with `SKILL.md must start with YAML frontmatter (---)`"
        } else {
            "file starts with a UTF-8 byte order mark: DeepAgents and skills-ref do not find the frontmatter"
        };
        cx.report(span, msg).fix("Remove the byte order mark", Applicability::Safe, vec![Edit { span, replacement: String::new() }]);
    }
}

#[cfg(test)]
mod tests {
    use crate::agents::{AGENTSKILLS, SPEC};
    use crate::lint::diagnostic::apply_fixes;
    use crate::lint::{is_valid, lint};
    use crate::skill::Skill;

    #[test]
    fn bom_warns_and_fix_removes_it() {
        let text = "\u{feff}---\nname: a\ndescription: d\n---\nBody\n".to_string();
        let skill = Skill::parse("/x/a", "SKILL.md", text.clone());
        for agent in [&SPEC, &AGENTSKILLS] {
            let d = lint(&skill, agent);
            assert!(is_valid(&d), "a BOM is not an error: {d:?}");
            let bom = d.iter().find(|d| d.code == "SK008").unwrap();
            assert_eq!(apply_fixes(&text, bom.fix.as_ref()), &text[3..]);
        }
    }
}
