use crate::lint::rules::{fields_checkable, Context};

declare_rule! {
    /// Claude Code cuts this description (plus `when_to_use`) at 1,536 characters in its listing.
    ///
    /// ## What it does
    /// Adds the lengths of `description` and `when_to_use` (joined by ` - `, as Claude Code lists
    /// them) and reports more than 1,536 characters.
    ///
    /// ## Why is this bad?
    /// Claude Code's per-entry cap (`skillListingMaxDescChars`, default 1,536) drops the rest, so
    /// trigger phrases at the end are never seen by the model.
    ///
    /// ## Example
    /// A 1,000-character `description` with a 600-character `when_to_use`.
    ///
    /// ## Use instead
    /// Keep both short; put the detail in the body.
    pub DescriptionListingTruncated {
        code: "SK310",
        name: "description-listing-truncated",
        group: Parity,
        severity: Warning,
        fix: None,
        sources: ["Claude Code docs (Aug 2026): skillListingMaxDescChars default 1536", "oracles 2026-11-22: Claude Code 2.1.330 lists `{description} - {when_to_use}`"],
    }
}

/// What Claude Code's skill listing keeps of a description (`skillListingMaxDescChars`).
pub(crate) const MAX_CHARS: usize = 1536;

pub(crate) fn check(cx: &mut Context<'_>) {
    if !fields_checkable(cx) {
        return;
    }
    let Some(field) = cx.skill.frontmatter.get("description") else { return };
    let Some(desc) = field.value.as_str() else { return };
    let when = cx.skill.frontmatter.str("when_to_use");
    let n = desc.chars().count() + when.map_or(0, |w| 3 + w.chars().count());
    if n > MAX_CHARS {
        let what = if when.is_some() { "`description` and `when_to_use` together are" } else { "`description` is" };
        cx.report(field.value.span, format!("{what} {n} characters: Claude Code's listing keeps only the first 1,536"));
    }
}
