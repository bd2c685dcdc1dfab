//! skills-ref 0.1.1 (PyPI, agentskills/agentskills `skills-ref/` at 69ef37e): `agentskills
//! validate` as a lint profile (as strict as skills-ref, with its exact messages), and
//! `agentskills to-prompt` as the prompt, read in the installed package (`skills_ref/prompt.py`,
//! `parser.py`, `cli.py`) and captured on every tree in `tests/fixtures/prompt-trees` (goldens in
//! `tests/fixtures/prompt-goldens/skills-ref-0.1.1`).
//!
//! - Locations: none of its own. `to-prompt` takes skill folders as arguments and prints them in
//!   argument order; here the arguments are the library's skills in source order, then path
//!   order (the client guide's search below each `--source`; the captures pass every child folder
//!   sorted by name). No precedence: two skills with one name are both printed.
//! - Reading: `read_properties` per folder, which parses but does not validate: the file must
//!   start with `---`, the frontmatter is the text up to the next `---` anywhere, parsed by
//!   strictyaml (every scalar a string; flow style, anchors, tags, duplicate keys refused); then
//!   `name` and `description` must be present and non-empty strings (stripped). The first folder
//!   that fails stops the whole run: nothing on stdout, `Error: MESSAGE` on stderr, exit code 1
//!   ([`Prompt::failure`](crate::prompt::Prompt)); the message is the one the lint profile
//!   reproduces (with ruamel's snippet of the offending line). With no folder at all the CLI
//!   refuses with click's usage error (exit code 2). Names that break the spec, unknown fields and
//!   long descriptions are not checked (`validate` does that; see [`validate_ok`]).
//! - Text: `<available_skills>`, then per skill `<skill>`, `<name>`, the name, `</name>`,
//!   `<description>`, the description, `</description>`, `<location>`, the resolved absolute path
//!   of `SKILL.md`, `</location>`, `</skill>`, each on its own line; name and description pass
//!   through `html.escape` (`&`, `<`, `>`, `"`, `'`); the location does not. Ends with
//!   `</available_skills>` and the newline `click.echo` adds. No budget, no tool: it is printed on
//!   stdout for a client to paste into its system prompt.

use crate::agent::{Agent, AgentKind, Level::*, LintProfile};
use crate::library::discover::DiscoveryPolicy;
use crate::library::{Entry, Library, NameKey};
use crate::lint::diagnostic::Severity::*;
use crate::prompt::{self, folder_name, html_escape, Builder, Decision, Format, Placement, Prompt, RenderInput};
use crate::skill::FileProblem;
use crate::syntax::yaml::NodeKind;
use std::sync::OnceLock;

/// skills-ref accepts what strictyaml reads (every scalar a string) and rejects flow style,
/// anchors, tags, duplicate keys and any key outside the six spec fields.
pub static AGENT: Agent = Agent {
    id: "agentskills",
    title: "skills-ref (agentskills validate)",
    kind: AgentKind::Format,
    label: "skills-ref 0.1",
    source: "skills-ref 0.1.1 (PyPI), agentskills/agentskills skills-ref/ at 69ef37e",
    lint: LintProfile {
        skills_ref_messages: true,
        levels: &[
            ("flow-style", Set(Error)),
            ("yaml-anchor", Set(Error)),
            ("yaml-tag", Set(Error)),
            ("unknown-key", Set(Error)),
            ("extension-key", Off),
            ("misspelled-key", Off),
            ("yaml-implicit-type", Off),
            ("name-non-ascii", Off),
            ("frontmatter-schema", Set(Warning)),
            ("closing-delimiter-at-eof", Off),
            // skills-ref validates one skill folder at a time: a name used twice in a library is
            // not its error (broken references, which it never reads, are warnings everywhere).
            ("duplicate-skill-name", Set(Warning)),
        ],
    },
    // skills-ref validates the folders it is given; for libraries we use the client guide's search.
    discovery: DiscoveryPolicy::CLIENT_GUIDE,
    key: NameKey::Frontmatter,
    prompt: Some(render),
    read: Some(read_all),
    activation: None,
    installs: &[],
};

const FORMAT: Format = Format {
    agent: "agentskills",
    source: "skills-ref 0.1.1 (PyPI) `agentskills to-prompt` (real program, captured 2026-11-22)",
    placement: Placement::Stdout,
    placement_detail:
        "printed on standard output by `agentskills to-prompt DIR...` for a client to put in its system prompt",
    default_context_window: 200_000,
    estimate: false,
};

/// What the CLI prints on stderr when it gets no folder (exit code 2).
pub const USAGE_ERROR: &str = "Usage: agentskills to-prompt [OPTIONS] SKILL_PATHS...\nTry 'agentskills to-prompt --help' for help.\n\nError: Missing argument 'SKILL_PATHS...'.\n";

/// `read_properties`'s early errors in the order it meets them; the lint profile reports them
/// with skills-ref's wording.
const PARSE_ERRORS: [&str; 4] = [
    "SKILL.md must start with YAML frontmatter (---)",
    "SKILL.md frontmatter not properly closed with ---",
    "Invalid YAML in frontmatter:",
    "SKILL.md frontmatter must be a YAML mapping",
];

/// A skill `read_properties` accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Properties {
    /// Stripped, not escaped.
    pub name: String,
    pub description: String,
    /// `str(Path(dir).resolve() / "SKILL.md")`.
    pub location: String,
}

/// ruamel's `Mark.get_snippet(indent=4, max_length=75)` for column `col0` (characters) of
/// `line`: long lines are cut to about 36 characters each side of the mark, with ` ... `.
pub fn ruamel_snippet(line: &str, col0: usize, line_no: usize) -> String {
    let chars: Vec<char> = line.chars().collect();
    let pointer = col0.min(chars.len());
    let half = 75.0 / 2.0 - 1.0;
    let (mut head, mut start) = ("", pointer);
    while start > 0 {
        start -= 1;
        if (pointer - start) as f64 > half {
            head = " ... ";
            start += 5;
            break;
        }
    }
    let (mut tail, mut end) = ("", pointer);
    while end < chars.len() {
        end += 1;
        if (end - pointer) as f64 > half {
            tail = " ... ";
            end -= 5;
            break;
        }
    }
    let snippet: String = chars[start..end].iter().collect();
    format!("    {head}{snippet}{tail}\n{}^ (line: {line_no})", " ".repeat(4 + pointer - start + head.len()))
}

/// Rewrites the ruamel marks of a lint message (which quote the whole line) with ruamel's own
/// snippet.
pub fn with_ruamel_snippets(message: &str) -> String {
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(r#"(  in "<unicode string>", line (\d+), column (\d+):\n)    ([^\n]*)\n *\^ \(line: (\d+)\)"#)
            .expect("valid regex")
    });
    re.replace_all(message, |c: &regex::Captures<'_>| {
        let col: usize = c[3].parse().unwrap_or(1);
        let line_no: usize = c[5].parse().unwrap_or(1);
        format!("{}{}", &c[1], ruamel_snippet(&c[4], col.saturating_sub(1), line_no))
    })
    .into_owned()
}

/// The resolved `SKILL.md` path `to-prompt` prints.
pub fn location(entry: &Entry) -> String {
    prompt::path_string(&entry.skill.dir.join(&entry.skill.file_name))
}

/// `read_properties` on the entry's folder: the properties, or the error text skills-ref prints
/// after `Error: ` (a Python traceback's last line for the crashes it does not catch).
pub fn read_properties(entry: &Entry) -> Result<Properties, String> {
    let skill = &entry.skill;
    for p in &skill.file_problems {
        match p {
            FileProblem::Missing => {
                return Err(format!("SKILL.md not found in {}", prompt::path_string(&skill.dir)));
            }
            FileProblem::NotAFile { .. } => {
                return Err(format!("IsADirectoryError: [Errno 21] Is a directory: '{}'", location(entry)));
            }
            FileProblem::Unreadable { .. } => {
                return Err(format!("PermissionError: [Errno 13] Permission denied: '{}'", location(entry)));
            }
            FileProblem::InvalidUtf8 { offset, .. } => {
                let byte = crate::files::read(&skill.dir.join(&skill.file_name), crate::skill::MAX_FILE_BYTES)
                    .ok()
                    .and_then(|b| b.get(*offset).copied())
                    .unwrap_or(0);
                return Err(format!(
                    "UnicodeDecodeError: 'utf-8' codec can't decode byte 0x{byte:02x} in position {offset}: invalid start byte"
                ));
            }
            FileProblem::TooLarge { size } => {
                return Err(format!("not read by skillkit: {size} bytes, over its 10 MiB limit"));
            }
            FileProblem::Binary { .. } => {}
        }
    }
    for prefix in PARSE_ERRORS {
        if let Some(d) = entry.diagnostics.iter().find(|d| d.severity == Error && d.message.starts_with(prefix)) {
            return Err(with_ruamel_snippets(&d.message));
        }
    }
    if let Some(e) = &skill.yaml.error {
        return Err(format!("Invalid YAML in frontmatter: {}", e.message));
    }
    let fm = &skill.frontmatter;
    for key in ["name", "description"] {
        if fm.get(key).is_none() {
            return Err(format!("Missing required field in frontmatter: {key}"));
        }
    }
    let value = |key: &str| -> Result<String, String> {
        let f = fm.get(key).expect("checked above");
        match &f.value.kind {
            NodeKind::Scalar { value, .. } if !crate::agents::compat::python::py_strip(value).is_empty() => {
                Ok(crate::agents::compat::python::py_strip(value).to_string())
            }
            _ => Err(format!("Field '{key}' must be a non-empty string")),
        }
    };
    let name = value("name")?;
    let description = value("description")?;
    Ok(Properties { name, description, location: location(entry) })
}

/// Whether `agentskills validate` accepts the entry's folder (no error under this profile).
pub fn validate_ok(entry: &Entry) -> bool {
    entry.is_valid()
}

/// One `<skill>` block, without the newline that follows it.
pub fn skill_block(p: &Properties) -> String {
    format!(
        "<skill>\n<name>\n{}\n</name>\n<description>\n{}\n</description>\n<location>\n{}\n</location>\n</skill>",
        html_escape(&p.name),
        html_escape(&p.description),
        p.location
    )
}

/// `agentskills to-prompt` on the given entries of `lib`, in order: `Ok(stdout)` or
/// `Err(stderr)` (exit code 1, or 2 for no entries).
pub fn to_prompt(lib: &Library, entries: &[usize]) -> Result<String, String> {
    if entries.is_empty() {
        return Err(USAGE_ERROR.into());
    }
    let mut out = String::from("<available_skills>\n");
    for &i in entries {
        let p = (*lib.entries[i].reading("agentskills", "", read_properties))
            .clone()
            .map_err(|e| format!("Error: {e}\n"))?;
        out.push_str(&skill_block(&p));
        out.push('\n');
    }
    out.push_str("</available_skills>\n");
    Ok(out)
}

pub fn render(input: &RenderInput<'_>) -> Prompt {
    let lib = input.library;
    let read: Vec<Result<Properties, String>> =
        lib.entries.iter().map(|e| (*e.reading("agentskills", "", read_properties)).clone()).collect();
    let first_error = read.iter().position(Result::is_err);
    let mut b = Builder::default();
    let record = |e: &Entry, name: &str| prompt::skill(name, folder_name(e), location(e), Some(e.source)).of(e);
    if first_error.is_none() && !lib.entries.is_empty() {
        b.push("<available_skills>\n");
    }
    for (e, r) in lib.entries.iter().zip(&read) {
        match (r, first_error) {
            (Err(reason), _) => {
                let mut reason = reason.clone();
                if let Some(f) = first_error.filter(|&f| !std::ptr::eq(&lib.entries[f], e)) {
                    reason.push_str(&format!(
                        " (not reached: to-prompt stops at the first error, in {})",
                        folder_name(&lib.entries[f])
                    ));
                }
                b.absent(record(e, e.skill.display_name()).decided(Decision::Invalid, reason));
            }
            (Ok(p), Some(f)) => b.absent(record(e, &p.name).decided(
                Decision::Full,
                format!("readable, but not printed: to-prompt fails as a whole on {}", folder_name(&lib.entries[f])),
            )),
            (Ok(p), None) => {
                b.entry(record(e, &p.name), |t| t.push_str(&skill_block(p)));
                b.push("\n");
            }
        }
    }
    if first_error.is_none() && !lib.entries.is_empty() {
        b.push("</available_skills>\n");
    }
    let failure = match first_error {
        Some(f) => Some(format!("Error: {}\n", read[f].as_ref().unwrap_err())),
        None if lib.entries.is_empty() => Some(USAGE_ERROR.to_string()),
        None => None,
    };
    let mut p = prompt::finish(&FORMAT, input.options, b, None, vec![]);
    // Click exits 2 for a usage error, skills-ref 1 for any other.
    p.failure_exit_code = if failure.as_deref() == Some(USAGE_ERROR) { 2 } else { 1 };
    p.failure = failure;
    p
}

/// Reads every skill as `read_properties` does, remembering each reading ([`Agent::read`]).
pub fn read_all(lib: &Library) {
    for e in &lib.entries {
        e.reading("agentskills", "", read_properties);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruamel_cuts_long_lines_around_the_mark() {
        let line = "description: Cleans up log files. Use when: the user pastes a noisy log.";
        assert_eq!(
            ruamel_snippet(line, 42, 3),
            format!(
                "     ... n: Cleans up log files. Use when: the user pastes a noisy log.\n{}^ (line: 3)",
                " ".repeat(41)
            )
        );
        assert_eq!(ruamel_snippet("a: b: c", 4, 2), "    a: b: c\n        ^ (line: 2)");
        let long = "x".repeat(100);
        let s = ruamel_snippet(&long, 50, 1);
        assert!(s.starts_with(&format!("     ... {} ... \n", "x".repeat(64))), "{s}");
    }

    #[test]
    fn marks_in_lint_messages_are_rewritten() {
        let msg = "Invalid YAML in frontmatter: mapping values are not allowed here\n  in \"<unicode string>\", line 2, column 5:\n    a: b: c\n        ^ (line: 2)";
        assert_eq!(with_ruamel_snippets(msg), msg);
    }
}
