use crate::lint::rules::{osa_distance_within, Context};
use std::collections::HashMap;
use crate::lint::rules::MAX_DIAGNOSTICS;
use crate::lint::diagnostic::{Applicability, Edit, Severity};
use crate::syntax::markdown::target::{RefKind, Reference};
use crate::resources::Resources;
use crate::skill::Skill;

declare_rule! {
    /// The body refers to a file that is not in the skill folder.
    ///
    /// ## What it does
    /// Checks every file the body refers to (link destinations, image sources, reference
    /// definitions, and paths in inline code) against the files and folders of the skill,
    /// resolving the path from the skill root as agents do. A path in inline code is checked when
    /// it starts in `scripts/`, `references/` or `assets/`, or in a file or folder the skill has:
    /// `./out` or `./gradlew` name the user's working directory. Suggests the nearest existing
    /// path when one is close: a different case, a typo, or the same file name in another
    /// folder. Only runs on skills read from disk.
    ///
    /// A missing link or image target is a warning (an error with `--strict`). A path in inline
    /// code is only a note, worded as a possibility: prose often names a file as an example of
    /// what a skill might hold. Nothing in a fenced code block counts, nor a template's blank
    /// (`<file>`, `{name}.md`, `path/to/x`, `...`). `{baseDir}/…` and `${CLAUDE_SKILL_DIR}/…`
    /// are resolved from the skill root.
    ///
    /// ## Why is this bad?
    /// The agent follows the reference when the instructions need it and finds nothing: it
    /// guesses, searches the disk, or carries on without the script or document the skill was
    /// written around. A case difference (`Reference.md` for `REFERENCE.md`) works on macOS and
    /// Windows and breaks on Linux.
    ///
    /// ## Example
    /// ```text
    /// my-skill/
    /// ├── SKILL.md          Read [the reference](references/REFERENCES.md) first.
    /// └── references/
    ///     └── REFERENCE.md
    /// ```
    ///
    /// ## Use instead
    /// ```text
    /// my-skill/
    /// ├── SKILL.md          Read [the reference](references/REFERENCE.md) first.
    /// └── references/
    ///     └── REFERENCE.md
    /// ```
    ///
    /// ## Fix
    /// Replace the path with the nearest existing one (unsafe: check it is the file you meant).
    pub ReferenceMissing {
        code: "SK601",
        name: "reference-missing",
        group: Body,
        severity: Warning,
        fix: Unsafe,
        sources: [
            "spec: \"use relative paths from the skill root\"",
            "agentskills client guide: resources are read on demand, relative to the skill's directory",
        ],
    }
}

/// Whether `path` (normalised, relative to the skill root) names the skill file, a resource
/// file or a folder of the skill.
pub(crate) fn exists(skill: &Skill, res: &Resources, path: &str) -> bool {
    path.is_empty()
        || path == skill.file_name
        || res.files.binary_search_by(|f| f.path.as_str().cmp(path)).is_ok()
        || res.dirs.binary_search_by(|d| d.as_str().cmp(path)).is_ok()
}

/// Whether the skill has a file that is `path` plus an extension (`path.md`).
fn has_extension_of(res: &Resources, path: &str) -> bool {
    let prefix = format!("{path}.");
    let at = res.files.partition_point(|f| f.path.as_str() < prefix.as_str());
    res.files.get(at).is_some_and(|f| f.path.starts_with(&prefix) && !f.path[prefix.len()..].contains('/'))
}

/// Whether a reference is meant from the skill root. Links and images are. A path in inline code
/// is when it starts in `scripts/`, `references/` or `assets/`, or in a file or folder the skill
/// has (`./templates/a.md`): `./out` or `./gradlew` name the working directory.
pub(crate) fn skill_relative(skill: &Skill, r: &Reference) -> bool {
    if r.kind != RefKind::Code {
        return true;
    }
    let first = r.target.split('/').find(|p| !p.is_empty() && *p != ".").unwrap_or("");
    matches!(first, "scripts" | "references" | "assets")
        || (!first.is_empty() && first != ".." && skill.resources.as_ref().is_some_and(|res| exists(skill, res, first)))
}

/// The skill's files and folders as [`nearest`] compares them: path, lowercase, characters.
/// Made once per check, not once per missing reference.
struct Candidates<'r>(Vec<(&'r str, String, Vec<char>)>);

impl<'r> Candidates<'r> {
    fn new(res: &'r Resources) -> Self {
        let all = res.files.iter().map(|f| f.path.as_str()).chain(res.dirs.iter().map(String::as_str));
        Candidates(all.map(|c| (c, c.to_lowercase(), c.chars().collect())).collect())
    }
}

/// The existing path most likely meant by `path`: the same path in another case, a path one to
/// three edits away, or the same file name in another folder.
fn nearest<'r>(candidates: &Candidates<'r>, path: &str) -> Option<&'r str> {
    let lower = path.to_lowercase();
    let chars: Vec<char> = path.chars().collect();
    let name = path.rsplit('/').next().unwrap_or(path);
    let limit = (chars.len() / 4).clamp(1, 3);
    let mut rows = Vec::new();
    let mut best: Option<(usize, &str)> = None;
    for (cand, cand_lower, cand_chars) in &candidates.0 {
        let score = if *cand_lower == lower {
            0
        } else if cand.len().abs_diff(path.len()) <= limit {
            match osa_distance_within(&chars, cand_chars, limit, &mut rows) {
                Some(d) => d,
                None if cand.rsplit('/').next() == Some(name) => limit + 1,
                None => continue,
            }
        } else if cand.rsplit('/').next() == Some(name) {
            limit + 1
        } else {
            continue;
        };
        if best.is_none_or(|(s, _)| score < s) {
            best = Some((score, cand));
        }
    }
    best.map(|(_, c)| c)
}

/// The reference's target rewritten to `path`, keeping a leading `./` and the `#anchor`.
fn replacement(text: &str, r: &Reference, path: &str) -> Option<String> {
    let bracketed = r.span.start > 0 && text.as_bytes()[r.span.start - 1] == b'<';
    let mut out = String::new();
    if r.target.starts_with("./") {
        out.push_str("./");
    }
    match r.kind {
        RefKind::Code if path.contains(char::is_whitespace) => return None,
        RefKind::Link | RefKind::Image if !bracketed => out.push_str(&path.replace(' ', "%20")),
        _ => out.push_str(path),
    }
    if let Some((_, anchor)) = r.target.split_once('#') {
        out.push('#');
        out.push_str(anchor);
    }
    Some(out)
}

pub(crate) fn check(cx: &mut Context<'_>) {
    let skill = cx.skill;
    let Some(res) = skill.resources.as_ref() else { return };
    // A scan stopped at its limit does not know every file.
    if !skill.is_readable() || res.truncated {
        return;
    }
    let refs = skill.references();
    let mut missing = 0;
    let mut candidates: Option<Candidates<'_>> = None;
    let mut meant: HashMap<&str, Option<&str>> = HashMap::new();
    for r in refs.iter() {
        let Some(path) = r.path.as_deref() else { continue };
        if r.escapes || exists(skill, res, path) || !skill_relative(skill, r) {
            continue;
        }
        // Prose names a file without its extension (`references/open-coding` for
        // `references/open-coding.md`): the agent finds it.
        if r.kind == RefKind::Code && has_extension_of(res, path) {
            continue;
        }
        missing += 1;
        let what = match r.kind {
            RefKind::Image => "image",
            _ => "file",
        };
        let report = if r.kind == RefKind::Code {
            cx.report_as(
                Severity::Info,
                r.span,
                format!("`{path}` may name a file of the skill, and there is none: if it is meant as one, add it"),
            )
        } else {
            cx.report(
                r.span,
                format!(
                    "{what} `{path}` does not exist in the skill folder: an agent following this reference finds nothing"
                ),
            )
        };
        // Past the per-file cap, these findings (all of one severity, in order of position) are
        // counted, not listed: no need to search the folder for what was meant.
        let near = if missing <= MAX_DIAGNOSTICS {
            let candidates = candidates.get_or_insert_with(|| Candidates::new(res));
            *meant.entry(path).or_insert_with(|| nearest(candidates, path))
        } else {
            None
        };
        match near {
            Some(near) => {
                let report = report.help(format!("did you mean `{near}`?"));
                if let Some(new) = replacement(&skill.text, r, near) {
                    report.fix(
                        format!("Change to `{near}`"),
                        Applicability::Unsafe,
                        vec![Edit { span: r.span, replacement: new }],
                    );
                }
            }
            None => {
                report.help("create the file, or correct the path: it is resolved from the skill root");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::diagnostic::apply_fixes;

    /// Lint a skill folder holding `files` and a SKILL.md with `body`; SK601 findings.
    fn missing(files: &[&str], body: &str) -> (String, Vec<crate::lint::diagnostic::Diagnostic>) {
        crate::testing::lint_on_disk(files, body, "SK601")
    }

    #[test]
    fn links_warn_code_paths_are_notes_and_placeholders_are_not_references() {
        use crate::lint::diagnostic::Severity;
        let (_, d) = missing(
            &["references/guide.md"],
            "Read [guide]({baseDir}/references/guide.md), [again](${CLAUDE_SKILL_DIR}/references/guide.md),\n\
             [a template](references/<topic>.md), [another]({name}.md), [more](path/to/file.md), [etc](references/...).\n\
             A skill might hold `scripts/rotate_pdf.py`. See [gone](references/gone.md).\n",
        );
        let got: Vec<(Severity, &str)> = d.iter().map(|d| (d.severity, d.message.as_str())).collect();
        assert_eq!(got.len(), 2, "{got:#?}");
        assert_eq!(got[0].0, Severity::Info);
        assert!(got[0].1.starts_with("`scripts/rotate_pdf.py` may name a file of the skill"), "{}", got[0].1);
        assert_eq!(got[1].0, Severity::Warning);
        assert!(got[1].1.starts_with("file `references/gone.md` does not exist"), "{}", got[1].1);
        let (_, d) = missing(&["references/open-coding.md"], "Use `references/open-coding` first.\n");
        assert!(d.is_empty(), "{d:#?}");
        let (_, d) = missing(&["references/guide.md"], "Read [x]({baseDir}/references/nope.md).\n");
        assert_eq!(d.len(), 1, "{d:#?}");
        assert!(d[0].message.contains("`references/nope.md`"), "{}", d[0].message);
    }

    #[test]
    fn existing_files_folders_and_the_skill_file_are_fine() {
        let (_, d) = missing(
            &["references/REFERENCE.md", "scripts/run.py", "assets/my file.png"],
            "See [ref](references/REFERENCE.md#intro), [folder](scripts/), ![img](assets/my%20file.png),\n\
             [self](SKILL.md), [top](#usage), [web](https://example.com), `python3 scripts/run.py x.pdf` and `./`.\n\
             Write to `./out` and run `./gradlew build`.\n\n\
             ```bash\npython3 scripts/not-here.py\n```\n",
        );
        assert!(d.is_empty(), "{d:#?}");
    }

    #[test]
    fn a_missing_file_is_reported_with_the_nearest_path_and_a_fix() {
        let body = "Read [the reference](./references/REFERENCES.md#top) and run `scripts/Run.py`.\n";
        let (text, d) = missing(&["references/REFERENCE.md", "scripts/run.py"], body);
        assert_eq!(d.len(), 2, "{d:#?}");
        assert_eq!(&text[d[0].span.start..d[0].span.end], "./references/REFERENCES.md#top");
        assert_eq!(d[0].help.as_deref(), Some("did you mean `references/REFERENCE.md`?"));
        assert_eq!(d[1].help.as_deref(), Some("did you mean `scripts/run.py`?"));
        let fixed = apply_fixes(&text, d.iter().filter_map(|d| d.fix.as_ref()));
        assert!(fixed.contains("[the reference](./references/REFERENCE.md#top)"), "{fixed}");
        assert!(fixed.contains("`scripts/run.py`"), "{fixed}");
    }

    #[test]
    fn code_paths_in_the_skills_own_folders_are_checked() {
        let (_, d) =
            missing(&["templates/a.md"], "Fill `./templates/b.md` and `templates/a.md`; see `./scripts/x.py`.\n");
        let paths: Vec<_> = d.iter().map(|d| d.message.split('`').nth(1).unwrap()).collect();
        assert_eq!(paths, ["templates/b.md", "scripts/x.py"]);
    }

    #[test]
    fn same_file_name_in_another_folder_is_suggested_and_unrelated_paths_are_not() {
        let (_, d) = missing(&["assets/template.md"], "Fill in [the template](references/template.md).\n");
        assert_eq!(d[0].help.as_deref(), Some("did you mean `assets/template.md`?"));
        let (_, d) = missing(&["assets/template.md"], "Run `scripts/deploy.sh`.\n");
        assert!(d[0].fix.is_none() && d[0].help.as_deref().unwrap().starts_with("create the file"));
    }

    #[test]
    fn paths_outside_the_folder_and_text_only_skills_are_left_to_other_rules() {
        let (_, d) = missing(&[], "[up](../x.md) [abs](/etc/x.md)\n");
        assert!(d.is_empty());
        assert!(!crate::testing::codes("my-skill", "---\nname: my-skill\ndescription: d\n---\n[x](references/x.md)\n")
            .contains(&"SK601"));
    }
}
