use crate::lint::rules::{fields_checkable, Context};
use crate::lint::rules::spec::name_format::{checked_name, problems};

declare_rule! {
    /// `name` uses letters outside ASCII.
    ///
    /// ## What it does
    /// Reports a name that passes the Unicode rules (`名前`, `café`) but is not plain ASCII.
    ///
    /// ## Why is this bad?
    /// The specification's own wording is contradictory ("unicode lowercase alphanumeric
    /// characters (`a-z`, `0-9`)"), and loaders disagree: skills-ref accepts Unicode letters,
    /// quick_validate.py accepts only `[a-z0-9-]`, DeepAgents rejects letters without case
    /// (Chinese, Japanese) with a warning. Names are typed as commands, where ASCII is safest.
    ///
    /// ## Example
    /// ```skill folder=café-menu
    /// ---
    /// name: café-menu
    /// description: Formats menus. Use when the user asks for a menu.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill folder=cafe-menu
    /// ---
    /// name: cafe-menu
    /// description: Formats menus. Use when the user asks for a menu.
    /// ---
    /// Body.
    /// ```
    pub NameNonAscii {
        code: "SK206",
        name: "name-non-ascii",
        group: Spec,
        severity: Warning,
        fix: None,
        sources: ["spec: \"(`a-z`, `0-9`)\"", "quick_validate.py: ^[a-z0-9-]+$", "DeepAgents _validate_skill_name: c.isalpha() and c.islower()", "agentskills #560, PR #345 (open)"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !fields_checkable(cx) {
        return;
    }
    let Some((name, span)) = checked_name(cx.skill) else { return };
    if !name.is_ascii() && problems(&name).is_empty() {
        let caseless = name.chars().any(|c| c.is_alphabetic() && !c.is_lowercase() && !c.is_uppercase());
        let msg = if caseless {
            format!("`name` `{name}` is not ASCII: DeepAgents rejects letters without case, quick_validate.py accepts only a-z, 0-9 and -")
        } else {
            format!("`name` `{name}` is not ASCII: quick_validate.py and ASCII-only loaders reject it")
        };
        cx.report(span, msg);
    }
}
