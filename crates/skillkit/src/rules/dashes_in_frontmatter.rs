use super::Context;
use crate::text::Span;

declare_rule! {
    /// `---` appears inside the frontmatter, where skills-ref ends it.
    ///
    /// ## What it does
    /// Reports the first `---` inside the frontmatter (in a value, a comment or a block scalar).
    ///
    /// ## Why is this bad?
    /// skills-ref finds the frontmatter with `content.split("---", 2)`: it ends at the first
    /// `---` anywhere, not at a delimiter line. Everything after it silently moves into the body,
    /// so skills-ref validates a different skill from the one agents load: `description: A --- B`
    /// is read as `A`, and keys after the cut are lost. `skillkit` reads the file correctly; this
    /// is skills-ref's bug, reported so that its verdict does not surprise you.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables --- fast. Use when the user asks for a table.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables, fast. Use when the user asks for a table.
    /// ---
    /// Body.
    /// ```
    pub DashesInFrontmatter {
        code: "SK108",
        name: "dashes-in-frontmatter",
        group: Frontmatter,
        severity: Warning,
        fix: None,
        sources: ["skills-ref parse_frontmatter: parts = content.split(\"---\", 2)"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    let Some(cut) = cx.skill.split.skills_ref_cut else { return };
    let yaml_start = cx.skill.split.yaml.map_or(cut, |y| y.start);
    let seen = cx.text()[yaml_start..cut].trim_end();
    let preview: String = seen.lines().last().unwrap_or("").chars().take(60).collect();
    let msg = format!("skills-ref ends the frontmatter at this `---`: it reads only up to `{preview}`");
    cx.report(Span::new(cut, cut + 3), msg).help("avoid `---` inside frontmatter values; skills-ref splits the file on the first two `---` it finds");
}
