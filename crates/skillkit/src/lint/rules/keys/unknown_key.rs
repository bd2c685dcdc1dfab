use crate::lint::rules::{double_quoted, fields_checkable, scalar_text, Context, MAX_LABELS};
use crate::lint::diagnostic::{Applicability, Edit};
use crate::syntax::fields::{known_field, SPEC_FIELDS};
use crate::syntax::frontmatter::Field;
use crate::lint::rules::keys::misspelled_key::near_miss;
use crate::syntax::text::Span;

declare_rule! {
    /// A key that no agent reads, such as `version` or `author`.
    ///
    /// ## What it does
    /// Reports top-level keys that are neither specification fields, known extension fields nor
    /// near-misses of one. Under `--agent agentskills` it reports every key outside the six
    /// specification fields as one error, with skills-ref's exact message (past 100 keys, the
    /// message lists the first 100 and how many more, and labels the first 100).
    ///
    /// ## Why is this bad?
    /// Agents ignore the key, and skills-ref, quick_validate.py and claude.ai's upload reject
    /// the file. The specification's place for extra properties is `metadata`.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// version: "1.2"
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// metadata:
    ///   version: "1.2"
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Fix
    /// Move a key with a one-line value under `metadata`, quoted (unsafe: agents that read the
    /// top-level key will no longer find it).
    ///
    /// ## skills-ref
    /// `Unexpected fields in frontmatter: {keys}. Only ['allowed-tools', 'compatibility',
    /// 'description', 'license', 'metadata', 'name'] are allowed.`
    pub UnknownKey {
        code: "SK403",
        name: "unknown-key",
        group: Keys,
        severity: Warning,
        fix: Unsafe,
        sources: ["spec: metadata holds \"additional properties not defined by the Agent Skills spec\"", "skills-ref: Unexpected fields in frontmatter", "anthropics/skills #37, #394"],
    }
}

/// Move `field` (a one-line scalar) under `metadata` (the frontmatter's `metadata` field, looked
/// up once by the caller: a frontmatter can have a million keys).
fn move_to_metadata(cx: &Context<'_>, metadata: Option<&Field>, field: &Field) -> Option<Vec<Edit>> {
    let value = scalar_text(field)?;
    let line = cx.skill.lines.line_with_ending(cx.skill.lines.line_of(field.key_span.start));
    if cx.skill.lines.line_of(field.value.span.end) != cx.skill.lines.line_of(field.key_span.start) {
        return None;
    }
    let nl = if cx.skill.split.crlf { "\r\n" } else { "\n" };
    let entry = format!("  {}: {}{nl}", field.key, double_quoted(value));
    let remove = Edit { span: line, replacement: String::new() };
    match metadata {
        None => Some(vec![Edit { span: line, replacement: format!("metadata:{nl}{entry}") }]),
        Some(meta) => {
            let entries = meta.value.entries()?;
            if meta.value.flow {
                return None;
            }
            let last = entries.last().map_or(meta.key_span, |e| e.value.span);
            let after = cx.skill.lines.line_with_ending(cx.skill.lines.line_of(last.end.saturating_sub(1).max(last.start)));
            let mut edits = vec![remove, Edit { span: Span::empty(after.end), replacement: entry }];
            edits.sort_by_key(|e| e.span.start);
            (edits[0].span.end <= edits[1].span.start).then_some(edits)
        }
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !fields_checkable(cx) {
        return;
    }
    let fields = &cx.skill.frontmatter.fields;
    if cx.skills_ref() {
        let extra: Vec<&Field> = fields.iter().filter(|f| !SPEC_FIELDS.contains(&f.key.as_str())).collect();
        if extra.is_empty() {
            return;
        }
        let mut keys: Vec<&str> = extra.iter().map(|f| f.key.as_str()).collect();
        keys.sort();
        keys.dedup();
        // A list longer than anyone reads would only make the message as large as the file.
        let mut list = keys[..keys.len().min(MAX_LABELS)].join(", ");
        if keys.len() > MAX_LABELS {
            list.push_str(&format!(", … ({} more)", keys.len() - MAX_LABELS));
        }
        let msg = format!(
            "Unexpected fields in frontmatter: {list}. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed."
        );
        let mut report = cx.report(extra[0].key_span, msg);
        for f in extra[1..].iter().take(MAX_LABELS) {
            report = report.label(f.key_span, "also unexpected");
        }
        return;
    }
    let metadata = cx.skill.frontmatter.get("metadata");
    for f in fields {
        if known_field(&f.key).is_some() || near_miss(&f.key).is_some() {
            continue;
        }
        let edits = move_to_metadata(cx, metadata, f);
        let report = cx
            .report(f.key_span, format!("unknown key `{}`: no agent reads it, and skills-ref rejects it", f.key))
            .help("put extra properties under `metadata`");
        if let Some(edits) = edits {
            report.fix(format!("Move `{}` under `metadata`", f.key), Applicability::Unsafe, edits);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::agents::AGENTSKILLS;
    use crate::lint::rules::MAX_LABELS;
    use crate::lint::lint;
    use crate::skill::Skill;

    fn skills_ref_finding(keys: usize) -> crate::lint::diagnostic::Diagnostic {
        let mut text = String::from("---\nname: my-skill\ndescription: Formats tables.\n");
        for i in 0..keys {
            text.push_str(&format!("k{i:03}: v\n"));
        }
        text.push_str("---\nBody.\n");
        let d = lint(&Skill::parse("/skills/my-skill", "SKILL.md", text), &AGENTSKILLS);
        d.into_iter().find(|d| d.code == "SK403").unwrap()
    }

    #[test]
    fn skills_refs_message_lists_every_key_up_to_the_label_cap() {
        let d = skills_ref_finding(3);
        assert!(d.message.starts_with("Unexpected fields in frontmatter: k000, k001, k002. Only ["), "{}", d.message);
        assert_eq!(d.labels.len(), 2);
    }

    #[test]
    fn past_the_cap_the_message_and_labels_stop_and_count_the_rest() {
        let d = skills_ref_finding(MAX_LABELS + 50);
        assert!(d.message.contains(", k099, … (50 more). Only ["), "{}", d.message);
        assert!(!d.message.contains("k100"), "{}", d.message);
        assert_eq!(d.labels.len(), MAX_LABELS);
    }
}
