use crate::lint::rules::Context;
use crate::lint::diagnostic::{Applicability, Edit};

declare_rule! {
    /// A `---` delimiter line has trailing spaces or tabs.
    ///
    /// ## What it does
    /// Reports whitespace after `---` on the opening or closing line.
    ///
    /// ## Why is this bad?
    /// Most loaders (skills-ref, DeepAgents, `skillkit`) accept it, but stricter ones match
    /// `^---\n` exactly: quick_validate.py reports `Invalid frontmatter format`. Invisible
    /// differences like this are hard to debug.
    ///
    /// ## Example
    /// `---` followed by three spaces on the opening line.
    ///
    /// ## Use instead
    /// `---` alone on its line.
    ///
    /// ## Fix
    /// Remove the trailing whitespace (safe).
    pub DelimiterTrailingWhitespace {
        code: "SK104",
        name: "delimiter-trailing-whitespace",
        group: Frontmatter,
        severity: Info,
        fix: Safe,
        sources: ["anthropics/skills quick_validate.py: re.match(r'^---\\n(.*?)\\n---', content, re.DOTALL)"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    let skill = cx.skill;
    for &span in &skill.split.delimiter_trailing {
        cx.report(span, "trailing whitespace after `---`: quick_validate.py does not accept this delimiter")
            .fix("Remove trailing whitespace", Applicability::Safe, vec![Edit { span, replacement: String::new() }]);
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::codes;

    #[test]
    fn trailing_spaces_on_either_delimiter() {
        assert_eq!(codes("a", "---  \nname: a\ndescription: d\n---\t\nBody\n").iter().filter(|c| **c == "SK104").count(), 2);
        assert!(!codes("a", "---\nname: a\ndescription: d\n---\nBody\n").contains(&"SK104"));
    }
}
