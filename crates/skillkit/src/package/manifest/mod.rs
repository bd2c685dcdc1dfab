//! Package manifests read and judged: a Claude Code `plugin.json` and `marketplace.json`, an
//! Agent Plugins 1.0.0 `plugin.json`, a Codex `.codex-plugin/plugin.json` and a Copilot root
//! `plugin.json`. Each is read as the skill files are (a regular file, never a FIFO, at most
//! [`MAX_MANIFEST_BYTES`], not through a symlink leading out of its package), parsed with spans
//! ([`crate::package::json`]), and each finding points at the JSON node it is about.
//!
//! Reading and the dispatch by kind are here; the plugin manifests are `plugin.rs`, the
//! marketplaces `marketplace.rs`, a skill's Codex metadata `codex_metadata.rs`, and what they share
//! (the kinds, located findings, field and path checks, the known keys) `checks.rs`.

use crate::lint::rules::package as r;
use crate::package::json::{self, Json, Kind};
use crate::package::upload::Finding;
use crate::syntax::text::Span;
use std::path::{Path, PathBuf};

mod checks;
mod codex_metadata;
mod marketplace;
mod plugin;

pub use checks::*;
pub use codex_metadata::*;
pub use marketplace::*;
pub use plugin::*;

/// A manifest as read.
#[derive(Clone, Debug)]
pub struct Manifest {
    pub kind: ManifestKind,
    pub path: PathBuf,
    /// The bytes, when read (the report shows them).
    pub bytes: Vec<u8>,
    pub json: Option<Json>,
    pub findings: Vec<Located>,
}

impl Manifest {
    /// The manifest's `name`, when it is a string.
    pub fn name(&self) -> Option<&str> {
        self.json.as_ref()?.get_last("name")?.value.as_str()
    }
}

/// Read the manifest `rel` of the package at `root` as `kind`; `None` when there is none.
pub fn read(root: &Path, rel: &str, kind: ManifestKind) -> Option<Manifest> {
    let path = root.join(rel);
    let meta = std::fs::symlink_metadata(&path).ok()?;
    let mut m = Manifest { kind, path: path.clone(), bytes: vec![], json: None, findings: vec![] };
    let unread = |m: &mut Manifest, why: String| {
        let f = Finding::new(
            &r::manifest_invalid_json::ManifestInvalidJson::META,
            format!("file: {why} ({rel})"),
            "the agent drops the package when its manifest cannot be read",
        );
        m.findings.push(Located { finding: f, span: Span::empty(0) });
    };
    if meta.file_type().is_symlink() {
        let inside = std::fs::canonicalize(&path)
            .ok()
            .zip(std::fs::canonicalize(root).ok())
            .is_some_and(|(real, root)| real.starts_with(root));
        if !inside {
            unread(&mut m, "a symlink leading outside the package: not read".into());
            return Some(m);
        }
    }
    match crate::files::read(&path, MAX_MANIFEST_BYTES) {
        Err(e) => unread(&mut m, crate::files::reason(&e)),
        Ok(bytes) => {
            m.bytes = bytes;
            // Read as `claude plugin validate` reads it: bytes that are not UTF-8 decoded with
            // U+FFFD (the report shows the same text), a byte-order mark skipped.
            let text = String::from_utf8_lossy(&m.bytes).into_owned();
            let text = match text.strip_prefix('\u{feff}') {
                // Three spaces stand for its three bytes, so that spans stay in place.
                Some(rest) => format!("   {rest}"),
                None => text,
            };
            match json::parse(&text) {
                Err(e) => {
                    let f = Finding::new(
                        &r::manifest_invalid_json::ManifestInvalidJson::META,
                        format!("json: Invalid JSON syntax: JSON Parse error: {}", parser_message(&e.message)),
                        format!("{}; JSON takes no comments and no trailing commas", e.message),
                    );
                    m.findings.push(Located { finding: f, span: e.span });
                }
                Ok(v) => {
                    let mut findings = vec![];
                    validate(kind, &v, root, &mut findings);
                    m.findings = findings;
                    m.json = Some(v);
                }
            }
        }
    }
    Some(m)
}

/// Our JSON parser's message in the words of the one `claude plugin validate` runs on (its
/// `JSON Parse error: …`).
fn parser_message(ours: &str) -> String {
    if ours.starts_with("expected a key in double quotes") {
        "Property name must be a string literal".into()
    } else if ours.starts_with("unclosed string") {
        "Unterminated string".into()
    } else if ours.ends_with("found the end of the file") {
        "Unexpected EOF".into()
    } else if let Some((_, c)) = ours.rsplit_once(": found `") {
        format!("Unexpected token '{}'", c.trim_end_matches('`'))
    } else {
        ours.to_string()
    }
}

/// Judge a parsed manifest of `kind`, whose package is at `root`.
pub fn validate(kind: ManifestKind, v: &Json, root: &Path, out: &mut Vec<Located>) {
    if !matches!(v.kind, Kind::Object(_)) {
        at(out, v.span, type_error("", "object", v));
        return;
    }
    match kind {
        ManifestKind::ClaudePlugin | ManifestKind::CopilotPlugin => {
            claude_plugin(v, root, out, kind);
        }
        ManifestKind::CodexPlugin => codex_plugin(v, root, out),
        ManifestKind::AgentPlugin => agent_plugin(v, out),
        ManifestKind::Marketplace => marketplace(v, root, out),
        ManifestKind::AgentMcp => agent_mcp(v, root, out),
        ManifestKind::CodexMarketplace => codex_marketplace(v, root, out),
    }
}

#[cfg(test)]
mod tests {
    use super::impersonates_official;

    /// Names judged as Claude Code 2.1.332's `aHt` judges them (each branch of it once).
    #[test]
    fn marketplace_names_that_impersonate_anthropic_are_caught() {
        for name in [
            "claude-official-tools",
            "Official_Anthropic",
            "anthropic-marketplace-mirror",
            "claude plugins",
            "--claude-directory",
            "myclaudeofficial",
            "claude.market.place",
            "claude-plugin-s",
            "cl\u{e4}ude-skills",
        ] {
            assert!(impersonates_official(name), "{name}");
        }
        for name in [
            "claude-plugins-official",
            "Healthcare",
            "team-skills",
            "my-claude-tools",
            "anthropic-fans",
            "x-claude-plugins",
        ] {
            assert!(!impersonates_official(name), "{name}");
        }
    }

    /// Codex's marketplace: found at `.agents/plugins/marketplace.json`, each of Codex's
    /// refusals located at its JSON value; a valid one passes and its local plugin is read.
    #[test]
    fn a_codex_marketplace_is_judged_where_codex_reads_it() {
        use super::{read, ManifestKind, CODEX_MARKETPLACE};
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        std::fs::create_dir_all(root.join(".agents/plugins")).unwrap();
        std::fs::create_dir_all(root.join("plugins/notes/skills/summarize")).unwrap();
        let text = r#"{
  "plugins": [
    {"name": "a", "source": {"source": "local", "path": "plugins/a"}},
    {"name": "b", "source": {"source": "local", "path": "./../b"}},
    {"name": "c", "source": {"source": "local", "path": "./gone"}, "policy": {"installation": "MAYBE"}},
    {"source": "./notes"}
  ]
}"#;
        std::fs::write(root.join(CODEX_MARKETPLACE), text).unwrap();
        let m = read(root, CODEX_MARKETPLACE, ManifestKind::CodexMarketplace).unwrap();
        let got: Vec<(usize, String)> = m
            .findings
            .iter()
            .map(|l| {
                (
                    text[..l.span.start].matches('\n').count() + 1,
                    format!("{}: {}", l.finding.rule.code, l.finding.message),
                )
            })
            .collect();
        let want = [
            (1, "SK811: name: Invalid input: expected string, received undefined"),
            (3, "SK815: plugins.0.source.path: local plugin source path must start with `./`"),
            (4, "SK816: plugins.1.source.path: local plugin source path must stay within the marketplace root"),
            (5, "SK812: plugins.2.policy.installation: unknown variant `MAYBE`, expected one of `NOT_AVAILABLE`, `AVAILABLE`, `INSTALLED_BY_DEFAULT`"),
            (5, "SK820: plugins.2.source.path: no plugin folder at `./gone`: Codex cannot install it"),
            (6, "SK811: plugins.3.name: Invalid input: expected string, received undefined"),
            (6, "SK812: plugins.3.source: Invalid input: expected object, received string"),
        ];
        let codes = |w: &[(usize, &str)]| w.iter().map(|(l, m)| (*l, m.to_string())).collect::<Vec<_>>();
        assert_eq!(got, codes(&want));

        let good = r#"{"name": "team", "plugins": [{"name": "notes", "source": {"source": "local", "path": "./plugins/notes"}}]}"#;
        std::fs::write(root.join(CODEX_MARKETPLACE), good).unwrap();
        let m = read(root, CODEX_MARKETPLACE, ManifestKind::CodexMarketplace).unwrap();
        assert!(m.findings.is_empty(), "{:?}", m.findings);
        let pkg = crate::package::detect::open(root, false).unwrap();
        assert_eq!(pkg.kind, crate::package::detect::PackageKind::Marketplace);
        assert_eq!(pkg.plugins.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["notes"]);
        assert!(crate::package::detect::open(&root.join(CODEX_MARKETPLACE), false).is_some());
    }
}
