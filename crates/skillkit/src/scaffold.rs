//! New skills: the text of a fresh `SKILL.md` ([`skill_md`]) and the check of a proposed name and
//! description against every agent profile's rules ([`check`]), for the app's "New skill" dialog.
//! A scaffold built from a name and description that [`check`] accepts lints with no error and no
//! warning under every profile in [`crate::AGENTS`].

use crate::lint::diagnostic::Diagnostic;
use crate::{lint, Severity, Skill, AGENTS};
use std::path::Path;

/// The resource folders a new skill may start with.
pub const FOLDERS: [&str; 3] = ["scripts", "references", "assets"];

/// Quotes `s` for YAML when plain would not read back as the same string.
fn yaml_string(s: &str) -> String {
    let plain = !s.is_empty()
        && s == s.trim()
        && !s.starts_with(|c: char| "!&*|>'\"%@`#,[]{}-?:".contains(c))
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with(':')
        && !s.chars().any(char::is_control);
    if plain {
        return s.to_string();
    }
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A title for the body's heading: the name's words, the first capitalised.
fn title(name: &str) -> String {
    let words: Vec<&str> = name.split(['-', '_']).filter(|w| !w.is_empty()).collect();
    let mut t = words.join(" ");
    if let Some(first) = t.get(..1) {
        let upper = first.to_uppercase();
        t.replace_range(..1, &upper);
    }
    if t.is_empty() {
        name.to_string()
    } else {
        t
    }
}

/// The text of a new `SKILL.md`: frontmatter with `name` and `description`, and a body that says
/// what to fill in, mentioning the resource `folders` it starts with.
pub fn skill_md(name: &str, description: &str, folders: &[&str]) -> String {
    let mut body = format!(
        "# {}\n\n\
         Say in a few sentences what this skill does and the result it produces.\n\n\
         ## Steps\n\n\
         1. The first thing to do.\n\
         2. The next thing to do.\n\
         3. How to check the result.\n",
        title(name)
    );
    let mut resources: Vec<String> = Vec::new();
    for folder in FOLDERS.iter().filter(|f| folders.contains(f)) {
        resources.push(match *folder {
            "scripts" => "- `scripts/`: programs the steps run.".to_string(),
            "references" => "- `references/`: documents to read when a step needs them.".to_string(),
            _ => "- `assets/`: templates and files the result is built from.".to_string(),
        });
    }
    if !resources.is_empty() {
        body.push_str("\n## Resources\n\n");
        body.push_str(&resources.join("\n"));
        body.push('\n');
    }
    format!("---\nname: {}\ndescription: {}\n---\n\n{body}", yaml_string(name), yaml_string(description))
}

/// What every profile's rules say about a skill named `name` (in a folder of that name) with this
/// description, as [`skill_md`] writes it: errors and warnings only, each with the profiles that
/// report it, in profile order. Empty means the scaffold passes every profile's checks.
pub fn check(name: &str, description: &str) -> Vec<(Diagnostic, Vec<&'static str>)> {
    let text = skill_md(name, description, &[]);
    // A folder that does not exist: no resources are read, and the folder's name is `name`.
    let dir = Path::new("/nonexistent-skill-studio-scaffold").join(if name.is_empty() { "_" } else { name });
    let skill = Skill::parse(dir, "SKILL.md", text);
    let mut out: Vec<(Diagnostic, Vec<&'static str>)> = Vec::new();
    for agent in AGENTS {
        for d in lint(&skill, agent) {
            if d.severity == Severity::Info {
                continue;
            }
            match out.iter_mut().find(|(o, _)| o.code == d.code && o.message == d.message && o.span == d.span) {
                Some((_, agents)) => agents.push(agent.id),
                None => out.push((d, vec![agent.id])),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const DESCRIPTION: &str = "Drafts release notes from merged pull requests, grouped by kind of change. \
                               Use when the user asks for release notes or a summary of what changed.";

    fn lint_on_disk(name: &str, description: &str, folders: &[&str]) -> Vec<(String, Diagnostic)> {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(name);
        std::fs::create_dir_all(&dir).unwrap();
        for f in folders {
            std::fs::create_dir_all(dir.join(f)).unwrap();
        }
        std::fs::write(dir.join("SKILL.md"), skill_md(name, description, folders)).unwrap();
        let mut out = vec![];
        for agent in AGENTS {
            let skill = crate::read::read_skill(&dir);
            for d in lint(&skill, agent) {
                if d.severity != Severity::Info {
                    out.push((agent.id.to_string(), d));
                }
            }
        }
        out
    }

    #[test]
    fn the_scaffold_passes_every_profile_with_any_folders() {
        for folders in [&[][..], &["scripts"], &["references", "assets"], &FOLDERS[..]] {
            let found = lint_on_disk("release-notes", DESCRIPTION, folders);
            assert!(
                found.is_empty(),
                "{folders:?}: {:#?}",
                found.iter().map(|(a, d)| (a, &d.code, &d.message)).collect::<Vec<_>>()
            );
        }
        assert!(check("release-notes", DESCRIPTION).is_empty());
    }

    #[test]
    fn bad_names_and_descriptions_are_reported_with_their_profiles() {
        let bad_name = check("Release_Notes", DESCRIPTION);
        assert!(bad_name.iter().any(|(d, _)| d.severity == Severity::Error), "{bad_name:#?}");
        assert!(bad_name.iter().all(|(_, agents)| !agents.is_empty()));
        assert!(!check("", DESCRIPTION).is_empty());
        assert!(!check("release-notes", "").is_empty());
        assert!(!check(&"a".repeat(80), DESCRIPTION).is_empty());
    }

    #[test]
    fn awkward_descriptions_are_quoted_and_read_back() {
        let description = "Checks: \"quotes\" and # hashes. Use when asked.";
        let text = skill_md("odd-one", description, &[]);
        let skill = Skill::parse("/x/odd-one", "SKILL.md", text);
        let field = skill.frontmatter.fields.iter().find(|f| f.key == "description").unwrap();
        assert_eq!(field.value.as_str(), Some(description));
        assert_eq!(title("odd-one"), "Odd one");
    }
}
