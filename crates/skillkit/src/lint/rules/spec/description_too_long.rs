use crate::lint::rules::{fields_checkable, scalar_text, thousands, Context};

declare_rule! {
    /// `description` is longer than 1,024 characters.
    ///
    /// ## What it does
    /// Counts the description's characters (Unicode code points, as loaded, before stripping) and
    /// reports more than 1,024.
    ///
    /// ## Why is this bad?
    /// It breaks the specification's limit, skills-ref rejects it, and agents cut it differently:
    /// DeepAgents keeps the first 1,024 characters, Codex the first 1,021 plus `...`, while Claude
    /// Code and Gemini CLI keep it whole (and pay for it in every prompt).
    ///
    /// ## Example
    /// A description of 1,100 characters.
    ///
    /// ## Use instead
    /// One or two sentences: what the skill does and when to use it. Move detail into the body.
    ///
    /// ## skills-ref
    /// `Description exceeds 1024 character limit ({n} chars)`
    pub DescriptionTooLong {
        code: "SK213",
        name: "description-too-long",
        group: Spec,
        severity: Error,
        fix: None,
        sources: ["spec: \"Must be 1-1024 characters\"", "skills-ref: Description exceeds 1024 character limit ({n} chars)", "DeepAgents: truncates to 1024", "Codex 0.169.0: 1021 characters + `...`"],
    }
}

/// The specification's limit on `description`, in characters.
pub(crate) const MAX_CHARS: usize = 1024;

pub(crate) fn check(cx: &mut Context<'_>) {
    if !fields_checkable(cx) {
        return;
    }
    let Some(field) = cx.skill.frontmatter.get("description") else { return };
    let Some(text) = scalar_text(field) else { return };
    let n = text.chars().count();
    if n <= MAX_CHARS {
        return;
    }
    let msg = if cx.skills_ref() {
        format!("Description exceeds 1024 character limit ({n} chars)")
    } else {
        format!("`description` is {} characters, over the 1,024 allowed: DeepAgents keeps only the first 1,024 and Codex the first 1,021 plus `...`", thousands(n))
    };
    let span = field.value.span;
    cx.report(span, msg).help("keep the description to what the skill does and when to use it; move detail into the body");
}

#[cfg(test)]
mod tests {
    use crate::testing::codes;

    #[test]
    fn counts_characters_not_bytes() {
        let ok = format!("---\nname: a\ndescription: {}\n---\nB\n", "é".repeat(1024));
        assert!(!codes("a", &ok).contains(&"SK213"));
        let long = format!("---\nname: a\ndescription: {}\n---\nB\n", "é".repeat(1025));
        assert!(codes("a", &long).contains(&"SK213"));
    }
}
