use crate::lint::rules::body::reference_missing::skill_relative;
use crate::lint::rules::Context;
use crate::lint::diagnostic::Severity;
use crate::syntax::markdown::target::RefKind;

declare_rule! {
    /// The body refers to a file outside the skill folder.
    ///
    /// ## What it does
    /// Reports references whose path leaves the skill folder: `..` past the skill root
    /// (`../shared/style.md`) or an absolute path (`/home/me/notes.md`, `C:\notes.md`), in links,
    /// images, reference definitions, and inline code paths that start in `scripts/`,
    /// `references/` or `assets/` (`./..` in code is taken to mean the working directory). A
    /// link or image is a warning (an error with `--strict`); a path in inline code a note.
    ///
    /// ## Why is this bad?
    /// Agents resolve a skill's references from the skill root, and the specification says to
    /// "use relative paths from the skill root". A skill is copied, zipped and installed as one
    /// folder: whatever lies outside it is not there on anyone else's machine (or in the next
    /// install location on yours), so the agent follows the reference and finds nothing.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// ---
    /// Follow [the team style guide](../shared/style-guide.md) for column names.
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// ---
    /// Follow [the team style guide](references/style-guide.md) for column names.
    /// ```
    ///
    /// ## Fix
    /// Copy the file into the skill (`references/`, `scripts/` or `assets/`) and refer to it by
    /// its path from the skill root.
    pub ReferenceOutsideSkill {
        code: "SK602",
        name: "reference-outside-skill",
        group: Body,
        severity: Warning,
        fix: None,
        sources: [
            "spec: \"When referencing other files in your skill, use relative paths from the skill root\"",
            "agentskills client guide: a skill is a self-contained directory, resources resolved against it",
        ],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !cx.skill.is_readable() {
        return;
    }
    let refs = cx.skill.references();
    for r in refs.iter().filter(|r| r.escapes && skill_relative(cx.skill, r)) {
        let path = r.path.as_deref().unwrap_or(&r.target);
        let how = if path.starts_with("..") { "leaves the skill folder" } else { "is an absolute path" };
        let message = format!(
            "`{}` {how}: the skill is installed as its folder alone, so agents will not find this file",
            r.target
        );
        let severity = if r.kind == RefKind::Code { Severity::Info } else { Severity::Warning };
        cx.report_as(severity, r.span, message)
        .help("copy the file into the skill (references/, scripts/ or assets/) and use its path from the skill root");
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::codes;

    fn count(body: &str) -> usize {
        let text = format!("---\nname: my-skill\ndescription: d\n---\n{body}");
        codes("my-skill", &text).iter().filter(|c| **c == "SK602").count()
    }

    #[test]
    fn parent_and_absolute_paths_are_reported() {
        assert_eq!(count("[a](../x.md) ![b](/abs/y.png) `cat scripts/../../z.txt` [c](references/../../w.md)\n"), 4);
        assert_eq!(count("[d](C:/notes/x.md)\n\n[e]: ../defs.md\n"), 2);
    }

    #[test]
    fn paths_inside_urls_code_blocks_and_the_working_directory_are_not() {
        assert_eq!(count("`cd ./../other` [ok](./a/../b.md)\n"), 0);
        assert_eq!(count("[a](references/x/../y.md) [b](https://x.org/../y) [c](#top)\n\n```\ncat ../x.md\n```\n"), 0);
    }
}
