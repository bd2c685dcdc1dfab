use crate::lint::rules::{fields_checkable, osa_distance_within, Context};
use crate::lint::diagnostic::{Applicability, Edit, Severity};
use crate::syntax::fields::{known_field, KNOWN_FIELDS};
use std::collections::HashSet;

declare_rule! {
    /// A key is a near-miss of a known field, such as `descriptoin` or `allowed_tools`.
    ///
    /// ## What it does
    /// Compares each unknown top-level key with the spec fields and the agents' extension
    /// fields: the same key in another case or with `_` for `-`, or one or two edits away. A
    /// plural or singular of a known key (`triggers`, `agents`) is only a warning: published
    /// libraries use such keys on purpose as often as by mistake.
    ///
    /// ## Why is this bad?
    /// A misspelled key is silently ignored by agents: the field you meant to set is missing, and
    /// skills-ref rejects the file for an unexpected field.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// licence: MIT
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// license: MIT
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Fix
    /// Rename the key: safe when only case or `_`/`-` differ, unsafe otherwise.
    pub MisspelledKey {
        code: "SK401",
        name: "misspelled-key",
        group: Keys,
        severity: Error,
        fix: Safe,
        sources: ["spec: the six fields", "Claude Code skills docs: extension fields"],
    }
}

/// A key as compared: lowercase, `_` read as `-`.
fn norm(s: &str) -> String {
    s.to_lowercase().replace('_', "-")
}

/// The known keys normalised, as characters, computed once.
static KNOWN_NORMS: std::sync::LazyLock<Vec<(&'static str, String, Vec<char>)>> = std::sync::LazyLock::new(|| {
    KNOWN_FIELDS
        .iter()
        .map(|f| {
            let n = norm(f.key);
            let chars = n.chars().collect();
            (f.key, n, chars)
        })
        .collect()
});

/// The known key `key` most likely meant, and whether only case or separators differ. Runs once
/// per key of the frontmatter, which may have a million: distances are computed only up to the
/// limit.
pub(crate) fn near_miss(key: &str) -> Option<(&'static str, bool)> {
    if known_field(key).is_some() {
        return None;
    }
    let key_norm = norm(key);
    if let Some((k, _, _)) = KNOWN_NORMS.iter().find(|(_, n, _)| *n == key_norm) {
        return Some((k, true));
    }
    let limit = if key.chars().count() >= 6 { 2 } else { 1 };
    let chars: Vec<char> = key_norm.chars().collect();
    let mut rows = Vec::new();
    KNOWN_NORMS
        .iter()
        .filter_map(|(k, _, known)| Some((*k, osa_distance_within(&chars, known, limit, &mut rows)?)))
        .min_by_key(|(_, d)| *d)
        .map(|(k, _)| (k, false))
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !fields_checkable(cx) {
        return;
    }
    let skill = cx.skill;
    // The known keys the frontmatter sets, found in one pass (not one per near-miss).
    let set: HashSet<&str> = skill.frontmatter.fields.iter().filter_map(|f| known_field(&f.key)).map(|k| k.key).collect();
    for f in &skill.frontmatter.fields {
        let Some((meant, trivial)) = near_miss(&f.key) else { continue };
        // `triggers` for `trigger`, `agents` for `agent`: as likely a key of its own (published
        // libraries use both) as a slip, so a warning, not an error.
        if f.key.strip_suffix('s') == Some(meant) || meant.strip_suffix('s') == Some(f.key.as_str()) {
            cx.report_as(
                Severity::Warning,
                f.key_span,
                format!("unknown key `{}`: if you meant `{meant}`, agents do not read it under this name", f.key),
            )
            .help("agents ignore keys they do not know")
            .fix(
                format!("Rename to `{meant}`"),
                Applicability::Unsafe,
                vec![Edit { span: f.key_span, replacement: meant.to_string() }],
            );
            continue;
        }
        let msg = format!("unknown key `{}`: did you mean `{meant}`?", f.key);
        if set.contains(meant) {
            // Renaming would duplicate the key: the author has to choose.
            cx.report(f.key_span, msg).help(format!("`{meant}` is also set; keep one of the two and remove the other"));
            continue;
        }
        let applicability = if trivial { Applicability::Safe } else { Applicability::Unsafe };
        cx.report(f.key_span, msg).help("agents ignore keys they do not know, so this field is not set").fix(
            format!("Rename to `{meant}`"),
            applicability,
            vec![Edit { span: f.key_span, replacement: meant.to_string() }],
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::agents::SPEC;
    use crate::lint::diagnostic::Severity;

    fn severities(key: &str) -> Vec<Severity> {
        let text = format!("---\nname: my-skill\ndescription: d\n{key}: x\n---\nBody\n");
        let skill = crate::skill::Skill::parse("/skills/my-skill", "SKILL.md", text);
        crate::lint::lint(&skill, &SPEC).into_iter().filter(|d| d.code == "SK401").map(|d| d.severity).collect()
    }

    #[test]
    fn a_plural_of_a_known_key_is_a_warning_and_a_slip_an_error() {
        assert_eq!(severities("descriptoin"), [Severity::Error]);
        assert_eq!(severities("Name"), [Severity::Error]);
        assert_eq!(severities("triggers"), [Severity::Warning]);
        assert_eq!(severities("licenses"), [Severity::Warning]);
        assert_eq!(severities("license"), []);
    }
}
