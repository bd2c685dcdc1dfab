use crate::lint::rules::body::reference_missing::skill_relative;
use crate::lint::rules::Context;

declare_rule! {
    /// A referenced file is more than one folder level below the skill root.
    ///
    /// ## What it does
    /// Reports references to paths nested deeper than one folder (`references/api/v2.md`;
    /// `scripts/extract.py` and `references/` are fine), once per path. Paths in inline code count
    /// when they start in `scripts/`, `references/` or `assets/` (or a folder the skill has).
    ///
    /// ## Why is this bad?
    /// The specification's advice is to "keep file references one level deep from SKILL.md".
    /// Agents that list a skill's resources do not look further: DeepAgents V2's resource
    /// discovery lists only the files directly in `scripts/`, `references/` and `assets/`, so a
    /// deeper file is known to the agent only through this one reference.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Documents the API. Use when the user asks about an endpoint.
    /// ---
    /// The endpoints are in [the v2 reference](references/api/v2.md).
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Documents the API. Use when the user asks about an endpoint.
    /// ---
    /// The endpoints are in [the v2 reference](references/api-v2.md).
    /// ```
    ///
    /// ## Fix
    /// Move the file up to the first level (`references/api-v2.md`) and update the reference.
    pub ReferenceTooDeep {
        code: "SK603",
        name: "reference-too-deep",
        group: Body,
        severity: Warning,
        fix: None,
        sources: [
            "spec: \"Keep file references one level deep from SKILL.md. Avoid deeply nested reference chains.\"",
            "DeepAgents V2 resource discovery: first level of scripts/, references/, assets/ only",
        ],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !cx.skill.is_readable() {
        return;
    }
    let refs = cx.skill.references();
    let mut seen: Vec<&str> = Vec::new();
    for r in refs.iter().filter(|r| !r.escapes && skill_relative(cx.skill, r)) {
        let Some(path) = r.path.as_deref() else { continue };
        let depth = path.matches('/').count();
        if depth < 2 || seen.contains(&path) {
            continue;
        }
        seen.push(path);
        let (top, rest) = path.split_once('/').unwrap_or_default();
        let flat = format!("{top}/{}", rest.replace('/', "-"));
        cx.report(
            r.span,
            format!("`{path}` is {depth} folder levels below the skill root; keep referenced files one level deep"),
        )
        .help(format!("move it to `{flat}`: agents that list resources (DeepAgents) do not look deeper"));
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::codes;

    fn count(body: &str) -> usize {
        let text = format!("---\nname: my-skill\ndescription: d\n---\n{body}");
        codes("my-skill", &text).iter().filter(|c| **c == "SK603").count()
    }

    #[test]
    fn nested_paths_are_reported_once_each() {
        assert_eq!(count("[a](references/api/v2.md) [again](references/api/v2.md) `scripts/lib/util.py`\n"), 2);
        // In code, a deep path outside the skill's folders is the working directory's.
        assert_eq!(count("`./node_modules/.bin/tsc` `./build/out/x.js`\n"), 0);
    }

    #[test]
    fn first_level_folders_urls_and_escapes_are_not() {
        assert_eq!(
            count(
                "[a](scripts/a.py) [b](references/api/) [c](./references/x/../y.md) [d](https://x.org/a/b/c) \
                 [e](../../a/b/c.md)\n"
            ),
            0
        );
    }
}
