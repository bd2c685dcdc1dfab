use crate::lint::rules::{fields_checkable, is_null, nfkc, py_isalnum, Context};
use crate::lint::diagnostic::{Applicability, Edit};
use crate::skill::Skill;
use crate::syntax::text::Span;

declare_rule! {
    /// `name` is not lowercase letters, digits and single hyphens.
    ///
    /// ## What it does
    /// Checks `name` (stripped and NFKC-normalised) as skills-ref does, in its order: it must be
    /// lowercase, must not start or end with `-`, must not contain `--`, and may only contain
    /// letters, digits and `-`. Letters and digits are Unicode categories L* and N*, as Python's
    /// `str.isalnum` counts them: `技能` and `мой-навык` pass, `हिन्दी` (with combining vowel signs)
    /// does not. Non-ASCII names have a warning of their own (`name-non-ascii`).
    ///
    /// ## Why is this bad?
    /// The name is the skill's id and command (`/my-skill`); the specification requires this
    /// form and skills-ref rejects anything else. DeepAgents warns and still loads.
    ///
    /// ## Example
    /// ```skill folder=Table_Formatter
    /// ---
    /// name: Table_Formatter
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill folder=table-formatter
    /// ---
    /// name: table-formatter
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Fix
    /// Offers a corrected name: lowercased, other characters replaced by `-`, hyphens collapsed
    /// and trimmed (unsafe: the folder must be renamed to match). While the name matches its
    /// folder, the corrected name is only suggested: changing the text alone would leave a name
    /// that no longer matches the folder (`name-folder-mismatch`).
    ///
    /// ## skills-ref
    /// `Skill name '{name}' must be lowercase`; `Skill name cannot start or end with a hyphen`;
    /// `Skill name cannot contain consecutive hyphens`; `Skill name '{name}' contains invalid
    /// characters. Only letters, digits, and hyphens are allowed.`
    pub NameFormat {
        code: "SK204",
        name: "name-format",
        group: Spec,
        severity: Error,
        fix: Unsafe,
        sources: [
            "spec: \"May only contain unicode lowercase alphanumeric characters and hyphens\", \"Must not start or end with a hyphen\", \"Must not contain consecutive hyphens\"",
            "skills-ref _validate_name (NFKC, str.isalnum)",
        ],
    }
}

/// The name skills-ref checks (stripped, NFKC) and the span of its value, when `name` is a
/// non-empty scalar.
pub(crate) fn checked_name(skill: &Skill) -> Option<(String, Span)> {
    let field = skill.frontmatter.get("name")?;
    if is_null(field) {
        return None;
    }
    let raw = field.value.as_str()?.trim();
    (!raw.is_empty()).then(|| (nfkc(raw), field.value.span))
}

#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Problem {
    Uppercase,
    EdgeHyphen,
    DoubleHyphen,
    InvalidChars,
}

/// The format problems of an already normalised name, in skills-ref's order.
pub(crate) fn problems(name: &str) -> Vec<Problem> {
    let mut out = vec![];
    if name != name.to_lowercase() {
        out.push(Problem::Uppercase);
    }
    if name.starts_with('-') || name.ends_with('-') {
        out.push(Problem::EdgeHyphen);
    }
    if name.contains("--") {
        out.push(Problem::DoubleHyphen);
    }
    if !name.chars().all(|c| c == '-' || py_isalnum(c)) {
        out.push(Problem::InvalidChars);
    }
    out
}

/// A valid name close to `name`, if one can be made.
pub(crate) fn suggest(name: &str) -> Option<String> {
    let s = hyphenate(name, py_isalnum);
    (!s.is_empty() && problems(&s).is_empty()).then_some(s)
}

/// `name` in lowercase, every run of characters that `keep` refuses as one hyphen, none at
/// either end.
pub(crate) fn hyphenate(name: &str, keep: impl Fn(char) -> bool) -> String {
    let mut s = String::new();
    for c in name.to_lowercase().chars() {
        let c = if keep(c) { c } else { '-' };
        if !(c == '-' && (s.is_empty() || s.ends_with('-'))) {
            s.push(c);
        }
    }
    s.trim_end_matches('-').to_string()
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !fields_checkable(cx) {
        return;
    }
    let Some((name, span)) = checked_name(cx.skill) else { return };
    let found = problems(&name);
    if found.is_empty() {
        return;
    }
    let fix = suggest(&name).filter(|s| *s != name);
    // A name that matches its folder now would stop matching it: the rename is only suggested.
    let dir = nfkc(&cx.skill.dir_name);
    let applicability =
        if !dir.is_empty() && dir == name { Applicability::DisplayOnly } else { Applicability::Unsafe };
    let messages: Vec<String> = if cx.skills_ref() {
        // skills-ref reports each problem as its own message, in this order.
        found
            .iter()
            .map(|p| match p {
                Problem::Uppercase => format!("Skill name '{name}' must be lowercase"),
                Problem::EdgeHyphen => "Skill name cannot start or end with a hyphen".to_string(),
                Problem::DoubleHyphen => "Skill name cannot contain consecutive hyphens".to_string(),
                Problem::InvalidChars => {
                    format!("Skill name '{name}' contains invalid characters. Only letters, digits, and hyphens are allowed.")
                }
            })
            .collect()
    } else {
        let parts: Vec<&str> = found
            .iter()
            .map(|p| match p {
                Problem::Uppercase => "must be lowercase",
                Problem::EdgeHyphen => "must not start or end with `-`",
                Problem::DoubleHyphen => "must not contain `--`",
                Problem::InvalidChars => "may only contain letters, digits and `-`",
            })
            .collect();
        vec![format!("`name` `{name}` {}", join_and(&parts))]
    };
    for msg in messages {
        let report = cx.report(span, msg);
        if let Some(s) = &fix {
            report
                .help(format!("rename the skill (and its folder) to `{s}`"))
                .fix(format!("Rename to `{s}`"), applicability, vec![Edit { span, replacement: s.clone() }]);
        }
    }
}

fn join_and(parts: &[&str]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.to_string(),
        [a, b] => format!("{a} and {b}"),
        [init @ .., last] => format!("{}, and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_follow_skills_ref_order() {
        assert_eq!(problems("Table--Formatter"), [Problem::Uppercase, Problem::DoubleHyphen]);
        assert_eq!(problems("мой-навык"), []);
        assert_eq!(problems("हिन्दी"), [Problem::InvalidChars]);
        assert_eq!(problems("-a"), [Problem::EdgeHyphen]);
    }

    #[test]
    fn suggestions_are_valid_names() {
        assert_eq!(suggest("Table_Formatter").as_deref(), Some("table-formatter"));
        assert_eq!(suggest("--My  Skill!").as_deref(), Some("my-skill"));
        assert_eq!(suggest("___"), None);
    }
}
