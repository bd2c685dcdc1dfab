use crate::lint::rules::Context;
use crate::syntax::text::Span;

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

/// What skills-ref makes of the frontmatter it keeps (the text before the cut).
fn skills_ref_outcome(kept: &str) -> Option<String> {
    let y = crate::syntax::yaml::parse(kept, 0);
    if let Some(e) = y.error {
        return Some(format!("a YAML error ({})", e.message));
    }
    let keys: Vec<&str> = y.root.as_ref().and_then(|r| r.entries()).unwrap_or(&[]).iter().filter_map(|e| e.key.as_str()).collect();
    ["name", "description"]
        .iter()
        .find(|k| !keys.contains(k))
        .map(|k| format!("`Missing required field in frontmatter: {k}`"))
}

pub(crate) fn check(cx: &mut Context<'_>) {
    let Some(cut) = cx.skill.split.skills_ref_cut else { return };
    let yaml_start = cx.skill.split.yaml.map_or(cut, |y| y.start);
    let kept = &cx.text()[yaml_start..cut];
    let preview: String = kept.trim_end().lines().last().unwrap_or("").chars().take(60).collect();
    let outcome = match skills_ref_outcome(kept) {
        Some(failure) => format!("; it then rejects the skill with {failure}"),
        None => String::new(),
    };
    let msg = format!("skills-ref ends the frontmatter at this `---`: it reads only up to `{preview}`{outcome}");
    cx.report(Span::new(cut, cut + 3), msg)
        .help("avoid `---` inside frontmatter values; skills-ref splits the file on the first two `---` it finds");
}
