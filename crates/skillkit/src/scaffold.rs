//! New skills: the text of a fresh `SKILL.md` ([`skill_md`]), the check of a proposed name and
//! description against every agent profile's rules ([`check`], [`problems`]) and the creation of
//! the skill folder inside a source ([`create`]), for the app's "New skill" dialog.
//! A scaffold built from a name and description that [`check`] accepts lints with no error and no
//! warning under every profile in [`crate::agents::AGENTS`].

use crate::agents::AGENTS;
use crate::lint::diagnostic::Diagnostic;
use crate::lint::diagnostic::Severity;
use crate::lint::lint;
use crate::scope::{Scope, ScopeError, Version};
use crate::skill::Skill;
use serde::Serialize;
use std::path::{Path, PathBuf};

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

/// A finding of [`check`] about a proposed skill, with the profiles that report it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "NewSkillProblem"))]
pub struct Problem {
    pub code: String,
    pub severity: Severity,
    pub message: String,
    /// The frontmatter field it is about (`name`, `description`), when it is one of them.
    pub field: Option<String>,
    pub agents: Vec<String>,
}

/// [`check`]'s findings, each with the frontmatter field it is about.
pub fn problems(name: &str, description: &str) -> Vec<Problem> {
    let skill = Skill::parse(folder(Path::new("/"), name), "SKILL.md", skill_md(name, description, &[]));
    let field_of = |span: crate::syntax::text::Span| {
        skill
            .frontmatter
            .fields
            .iter()
            .find(|f| f.key_span.start <= span.start && span.end <= f.value.span.end.max(f.key_span.end))
            .map(|f| f.key.clone())
    };
    check(name, description)
        .into_iter()
        .map(|(d, agents)| Problem {
            code: d.code.to_string(),
            severity: d.severity,
            message: d.message.clone(),
            field: field_of(d.span),
            agents: agents.into_iter().map(str::to_string).collect(),
        })
        .collect()
}

/// A name close to `name` that every profile accepts, when `name` is not one: lowercase, each
/// run of other characters one hyphen, none at either end, at most 64 characters ("My Skill" →
/// `my-skill`). Letters outside ASCII are kept when every profile accepts them, else written
/// without their accents (`café` → `cafe`) or dropped.
pub fn suggest_name(name: &str) -> Option<String> {
    use crate::lint::rules::spec::name_format;
    use unicode_normalization::UnicodeNormalization;
    let cut = |s: String| -> String {
        let s: String = s.chars().take(crate::lint::rules::spec::name_too_long::MAX_CHARS).collect();
        s.trim_end_matches('-').to_string()
    };
    let name_ok = |s: &str| problems(s, SUGGEST_DESCRIPTION).iter().all(|p| p.field.as_deref() != Some("name"));
    let kept = cut(name_format::hyphenate(name, crate::lint::rules::py_isalnum));
    let ascii: String = name.nfkd().filter(char::is_ascii).collect();
    let ascii = cut(name_format::hyphenate(&ascii, |c| c.is_ascii_alphanumeric()));
    [kept, ascii].into_iter().find(|s| !s.is_empty() && s != name && name_ok(s))
}

/// A description every profile accepts, to judge a suggested name alone.
const SUGGEST_DESCRIPTION: &str = "Drafts release notes from merged changes. Use when asked for release notes.";

/// The folder a skill named `name` gets in `source`: `source/name`, or `source/_` when `name` is
/// not a plain folder name (empty, `.`, `..`, or with a separator), which [`check`] refuses.
pub fn folder(source: &Path, name: &str) -> PathBuf {
    let plain = !name.is_empty() && !matches!(name, "." | "..") && !name.contains(['/', '\\', '\0']);
    source.join(if plain { name } else { "_" })
}

/// Why [`create`] made nothing.
#[derive(Debug)]
pub enum CreateError {
    /// The name or description would not pass every profile's checks.
    Problems { name: String, problems: Vec<Problem> },
    /// Resource folders other than [`FOLDERS`].
    UnknownFolders(Vec<String>),
    /// A file or folder is already there.
    Exists(PathBuf),
    /// A folder could not be created.
    Io { path: PathBuf, message: String },
    /// The `SKILL.md` could not be saved.
    Save(ScopeError),
}

impl std::fmt::Display for CreateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CreateError::Problems { name, .. } => write!(f, "`{name}` would not pass every profile's checks"),
            CreateError::UnknownFolders(names) => write!(f, "unknown resource folders: {names:?}"),
            CreateError::Exists(dir) => write!(f, "{} already exists", dir.display()),
            CreateError::Io { path, message } => write!(f, "cannot create {}: {message}", path.display()),
            CreateError::Save(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CreateError {}

/// A skill [`create`] made: its `SKILL.md`, the text written there and its version.
#[derive(Clone, Debug)]
pub struct Created {
    pub path: PathBuf,
    pub text: String,
    pub version: Version,
}

/// Creates the skill `name` in `source` (a folder of `scope`): its folder, the chosen resource
/// `folders` and the [`skill_md`] scaffold, saved through the scope. Only when every profile's
/// checks pass ([`problems`] is empty), the folders are known ones, and nothing is there yet.
pub fn create(
    scope: &Scope,
    source: &Path,
    name: &str,
    description: &str,
    folders: &[String],
) -> Result<Created, CreateError> {
    let problems = problems(name, description);
    if !problems.is_empty() {
        return Err(CreateError::Problems { name: name.to_string(), problems });
    }
    let unknown: Vec<String> = folders.iter().filter(|f| !FOLDERS.contains(&f.as_str())).cloned().collect();
    if !unknown.is_empty() {
        return Err(CreateError::UnknownFolders(unknown));
    }
    let dir = folder(source, name);
    let io = |path: &Path, e: std::io::Error| CreateError::Io { path: path.to_path_buf(), message: e.to_string() };
    std::fs::create_dir(&dir).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => CreateError::Exists(dir.clone()),
        _ => io(&dir, e),
    })?;
    for f in folders {
        std::fs::create_dir(dir.join(f)).map_err(|e| io(&dir.join(f), e))?;
    }
    let folders: Vec<&str> = folders.iter().map(String::as_str).collect();
    let text = skill_md(name, description, &folders);
    let path = dir.join("SKILL.md");
    let version = scope.save(&path, text.as_bytes(), Some(None)).map_err(CreateError::Save)?;
    Ok(Created { path, text, version })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DESCRIPTION: &str = "Drafts release notes from merged pull requests, grouped by kind of change. \
                               Use when the user asks for release notes or a summary of what changed.";

    #[test]
    fn a_suggested_name_is_one_every_profile_accepts() {
        for (typed, suggested) in [
            ("My Skill", Some("my-skill")),
            ("  Bad_Name!! ", Some("bad-name")),
            ("Release Notes--2", Some("release-notes-2")),
            ("---", None),
            ("release-notes", None),
        ] {
            assert_eq!(suggest_name(typed).as_deref(), suggested, "{typed:?}");
        }
        let long = format!("{} b", "a".repeat(70));
        assert_eq!(suggest_name(&long), Some("a".repeat(64)));
        // Accented letters: kept when every profile takes them, else without their accents.
        let cafe = suggest_name("Café Tools").unwrap();
        assert!(cafe == "café-tools" || cafe == "cafe-tools", "{cafe}");
        for s in [cafe, suggest_name("Ünïcödé ✓ Names").unwrap()] {
            assert!(problems(&s, DESCRIPTION).is_empty(), "{s}: {:?}", problems(&s, DESCRIPTION));
        }
    }

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

    #[test]
    fn create_makes_the_folder_its_resources_and_a_clean_skill_file_or_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let source = tmp.path().canonicalize().unwrap();
        let scope = Scope::new(std::slice::from_ref(&source));
        let folders = vec!["scripts".to_string(), "assets".to_string()];
        let created = create(&scope, &source, "release-notes", DESCRIPTION, &folders).unwrap();
        assert_eq!(created.path, source.join("release-notes/SKILL.md"));
        assert_eq!(std::fs::read_to_string(&created.path).unwrap(), created.text);
        assert!(source.join("release-notes/scripts").is_dir() && source.join("release-notes/assets").is_dir());
        // Nothing is made when the name fails a profile, a folder is unknown, or it exists.
        let bad = create(&scope, &source, "Release_Notes", DESCRIPTION, &[]).unwrap_err();
        assert!(
            matches!(&bad, CreateError::Problems { problems, .. } if problems.iter().any(|p| p.field.as_deref() == Some("name"))),
            "{bad:?}"
        );
        let unknown = create(&scope, &source, "other", DESCRIPTION, &["bin".to_string()]).unwrap_err();
        assert!(matches!(unknown, CreateError::UnknownFolders(ref f) if f == &["bin".to_string()]));
        let again = create(&scope, &source, "release-notes", DESCRIPTION, &[]).unwrap_err();
        assert!(matches!(again, CreateError::Exists(_)));
        assert_eq!(std::fs::read_dir(&source).unwrap().count(), 1);
        assert_eq!(folder(&source, "../x"), source.join("_"));
    }
}
