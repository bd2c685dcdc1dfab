//! The seed corpus, read at run time from the repository's own files (nothing is copied into this
//! crate): every Markdown file under `tests/fixtures/` and `skills/`, the skill files of the
//! skills-ref parity table (`tests/fixtures/skills-ref/cases.json`), the ```` ```skill ````
//! examples of every rule's documentation (compiled into the engine), and the session scripts of
//! `tests/fixtures/sessions/` with their library. Each target gets those inputs in its own shape
//! ([`seeds`]), plus a few cases written here for what the fixtures do not hold (active HTML in a
//! body, tricky field values).

use crate::form_edit::{Case, KEYS, TRICKY_VALUES};
use crate::session_script::archive;
use crate::Target;
use std::path::{Path, PathBuf};

/// The seeds of `target`, read from the repository at `repo`, deduplicated, in a stable order.
pub fn seeds(repo: &Path, target: Target) -> Vec<Vec<u8>> {
    let mut out = match target {
        Target::Lint => skill_texts(repo),
        Target::Preview => {
            let mut v = skill_texts(repo);
            v.extend(
                PREVIEW_BODIES.iter().map(|b| format!("---\nname: demo\ndescription: d\n---\n{b}\n").into_bytes()),
            );
            v
        }
        Target::FormEdit => form_edit_inputs(&skill_texts(repo)),
        Target::SessionScript => session_inputs(repo),
        // The session scripts of the fixtures (their sources), and the ways out written here.
        Target::NamedPaths => {
            let mut v: Vec<Vec<u8>> = crate::named_paths::SEEDS.iter().map(|s| s.as_bytes().to_vec()).collect();
            v.extend(session_inputs(repo));
            v
        }
    };
    // What the fuzzers found once (`findings/`, one file per input, named `*.<target>`), so that a
    // fixed class stays fixed.
    let findings = repo.join("crates/skillkit-fuzz/findings");
    let ext = target.name();
    out.extend(
        files_under(&findings)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .filter_map(|p| std::fs::read(p).ok()),
    );
    let mut seen = std::collections::HashSet::new();
    out.retain(|s| seen.insert(s.clone()));
    out
}

/// Files under `dir` (recursively, in name order), skipping `.git`, `target` and `node_modules`.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&d) else { continue };
        let mut entries: Vec<_> = read.filter_map(Result::ok).collect();
        entries.sort_by_key(|e| std::cmp::Reverse(e.file_name()));
        for e in entries {
            let path = e.path();
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() {
                if !matches!(e.file_name().to_str(), Some(".git" | "target" | "node_modules")) {
                    stack.push(path);
                }
            } else if kind.is_file() {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Every skill-like text of the repository: Markdown files, skills-ref's cases, rule examples.
pub fn skill_texts(repo: &Path) -> Vec<Vec<u8>> {
    let mut out = vec![];
    for dir in ["tests/fixtures", "skills"] {
        for path in files_under(&repo.join(dir)) {
            if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("md")) {
                if let Ok(bytes) = std::fs::read(&path) {
                    out.push(bytes);
                }
            }
        }
    }
    if let Ok(bytes) = std::fs::read(repo.join("tests/fixtures/skills-ref/cases.json")) {
        if let Ok(serde_json::Value::Array(cases)) = serde_json::from_slice(&bytes) {
            for case in cases {
                let Some(files) = case.get("files").and_then(|f| f.as_object()) else { continue };
                for (name, content) in files {
                    if let (true, Some(text)) = (name.to_ascii_lowercase().ends_with(".md"), content.as_str()) {
                        out.push(text.as_bytes().to_vec());
                    }
                }
            }
        }
    }
    out.extend(rule_examples().into_iter().map(String::into_bytes));
    out
}

/// The ```` ```skill ```` blocks of every rule's documentation (an `eof` block has no final line
/// break).
pub fn rule_examples() -> Vec<String> {
    let mut out = vec![];
    for rule in skillkit::lint::rules::RULES {
        let docs = rule.meta().docs_text();
        let mut block: Option<(bool, String)> = None;
        for line in docs.lines() {
            if let Some((eof, text)) = block.as_mut() {
                if line == "```" {
                    if *eof {
                        text.pop();
                    }
                    out.push(std::mem::take(text));
                    block = None;
                } else {
                    text.push_str(line);
                    text.push('\n');
                }
            } else if let Some(info) = line.strip_prefix("```skill") {
                block = Some((info.split_whitespace().any(|w| w == "eof"), String::new()));
            }
        }
    }
    out
}

/// The session scripts of `tests/fixtures/sessions`, each with the files of that folder's
/// `library/`, and each again under every agent profile that has a prompt.
pub fn session_inputs(repo: &Path) -> Vec<Vec<u8>> {
    let dir = repo.join("tests/fixtures/sessions");
    let library: Vec<(String, Vec<u8>)> = files_under(&dir.join("library"))
        .into_iter()
        .filter_map(|p| {
            let rel = p.strip_prefix(&dir).ok()?.to_string_lossy().into_owned();
            Some((rel, std::fs::read(&p).ok()?))
        })
        .collect();
    let agents: Vec<&str> = skillkit::AGENTS.iter().filter(|a| a.prompt.is_some()).map(|a| a.id).collect();
    let mut out = vec![];
    for path in files_under(&dir) {
        if path.parent() != Some(dir.as_path()) || path.extension().is_none_or(|e| e != "yaml") {
            continue;
        }
        let Ok(script) = std::fs::read_to_string(&path) else { continue };
        out.push(archive(&script, &library));
        for agent in &agents {
            let other: String = script
                .lines()
                .map(|l| if l.starts_with("agent:") { format!("agent: {agent}\n") } else { format!("{l}\n") })
                .collect();
            out.push(archive(&other, &library));
        }
    }
    out
}

/// The skill texts themselves (key and value then come from each text), and every tricky value
/// set under a few keys of a few texts.
pub fn form_edit_inputs(texts: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut bases: Vec<String> = FORM_TEXTS.iter().map(|t| t.to_string()).collect();
    bases.extend(
        texts.iter().filter_map(|t| std::str::from_utf8(t).ok()).filter(|t| t.len() < 2000).take(8).map(String::from),
    );
    let mut out: Vec<Vec<u8>> = texts.to_vec();
    for (i, value) in TRICKY_VALUES.iter().enumerate() {
        for (j, key) in KEYS.iter().enumerate().filter(|(j, _)| (i + j) % 3 == 0) {
            let text = bases[(i + j) % bases.len()].clone();
            out.push(Case { text, key: key.to_string(), value: value.to_string() }.to_bytes());
        }
    }
    out
}

/// Frontmatters in the styles `set_field` keeps: plain, quoted, block scalars, comments, CRLF, a
/// BOM, an empty one, none, and a list instead of a mapping.
const FORM_TEXTS: &[&str] = &[
    "---\nname: demo\ndescription: Does things. # why\nlicense: 'MIT'\ncompatibility: \"Python 3\"\n---\nBody\n",
    "---\nname: demo\ndescription: |\n  Two\n  lines\nmetadata:\n  a: b\nlicense: >-\n  folded\n  text\n---\n",
    "\u{feff}---\r\nname: demo\r\ndescription: d\r\n---\r\nBody\r\n",
    "---\nname:\ndescription: ~\n---\n",
    "---\n---\nBody\n",
    "Just a body.\n",
    "---\n- a\n- b\n---\n",
    "---\nname: [broken\ndescription: d\n---\n",
];

/// Bodies with what a sanitizer must remove or keep inert, written for this crate.
const PREVIEW_BODIES: &[&str] = &[
    "<script>alert(1)</script>\n\n<img src=\"assets/d.png\" onerror=\"alert(1)\">",
    "[click](javascript:alert(1)) [data](data:text/html,<b>x</b>) [v](vbscript:x) [ok](references/guide.md)",
    "<a href=\"&#106;avascript:alert(1)\">x</a> <a href=\"java\nscript:x\">y</a>",
    "<iframe src=\"https://example.com\"></iframe><object data=\"x\"></object><embed src=\"x\">",
    "<style>body{display:none}</style><form action=\"https://example.com\"><input name=q></form>",
    "<meta http-equiv=\"refresh\" content=\"0;url=https://example.com\"><link rel=stylesheet href=x><base href=x>",
    "<svg onload=alert(1)><script>x</script></svg><math><mtext><script>x</script></mtext></math>",
    "![in](assets/d.png) ![link](assets/link.png) ![up](../secret.png) ![abs](/etc/passwd) ![remote](https://example.com/a.png)",
    "<img src=\"assets/link.png\"><img src=\"../secret.png\"><img srcset=\"https://example.com/a.png 1x\">",
    "<table><tr><td style=\"background:url(https://example.com/x)\">c</td></tr></table>\n\n| a | b |\n|:-|-:|\n| 1 | 2 |",
    "<!-- <script>x</script> --> <![CDATA[<script>x</script>]]> <noscript><script>x</script></noscript>",
    "- [ ] task\n- [x] done\n\n> quote\n> > nested\n\n```html\n<script>x</script>\n```",
    "<div onmouseover=\"x\" style=\"expression(alert(1))\">d</div><p/onclick=x>p</p>",
    "<template><script>x</script></template><textarea><script>x</script></textarea><select><option>o</select>",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_has_seeds_from_the_repository() {
        let repo = crate::repo_root();
        for t in Target::ALL {
            assert!(seeds(&repo, t).len() >= 13, "{t:?}");
        }
        assert!(rule_examples().len() > 50);
        let sessions = session_inputs(&repo);
        assert!(sessions.iter().all(|s| s.windows(4).any(|w| w == b"#== ")));
    }
}
