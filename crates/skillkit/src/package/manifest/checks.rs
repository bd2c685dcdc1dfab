//! What the manifest checks share: the manifest kinds, a located finding, the field checks
//! (types, required names, name formats, keys a format does not know, with the likely typo) and
//! the paths a manifest names (inside the package, `./`-relative).

use crate::lint::rules::package as r;
use crate::package::json::{Json, Kind};
use crate::package::upload::Finding;
use crate::syntax::text::Span;
use std::path::{Component, Path};

/// Which manifest a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ManifestKind {
    /// `.claude-plugin/plugin.json`.
    ClaudePlugin,
    /// `.claude-plugin/marketplace.json`.
    Marketplace,
    /// A root `plugin.json` whose `$schema` is an Agent Plugins one.
    AgentPlugin,
    /// A root `plugin.json` without it: GitHub Copilot's (it wins over `.claude-plugin/`).
    CopilotPlugin,
    /// `.codex-plugin/plugin.json`.
    CodexPlugin,
    /// An Agent Plugins package's `mcp.json` (its MCP servers).
    AgentMcp,
    /// Codex's marketplace, `.agents/plugins/marketplace.json`.
    CodexMarketplace,
}

impl ManifestKind {
    pub fn title(self) -> &'static str {
        match self {
            ManifestKind::ClaudePlugin => "Claude Code plugin",
            ManifestKind::Marketplace => "Claude Code marketplace",
            ManifestKind::AgentPlugin => "Agent Plugins 1.0 package",
            ManifestKind::CopilotPlugin => "GitHub Copilot plugin",
            ManifestKind::CodexPlugin => "Codex plugin",
            ManifestKind::AgentMcp => "Agent Plugins MCP servers",
            ManifestKind::CodexMarketplace => "Codex marketplace",
        }
    }
}

/// A finding at a place in the manifest's text.
#[derive(Clone, Debug)]
pub struct Located {
    pub finding: Finding,
    pub span: Span,
}

pub(super) fn at(findings: &mut Vec<Located>, span: Span, finding: Finding) {
    findings.push(Located { finding, span });
}

pub(super) fn type_error(path: &str, want: &str, got: &Json) -> Finding {
    if path.is_empty() {
        return Finding::new(
            &r::manifest_field_type::ManifestFieldType::META,
            format!("root: manifest must be an {want}"),
            format!("the manifest is {}", article(want)),
        );
    }
    Finding::new(
        &r::manifest_field_type::ManifestFieldType::META,
        format!("{path}: Invalid input: expected {want}, received {}", got.type_name()),
        format!("`{path}` takes {}", article(want)),
    )
}

pub(super) fn article(want: &str) -> String {
    if want.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {want}")
    } else {
        format!("a {want}")
    }
}

pub(super) fn missing(v: &Json, path: &str, field: &str, want: &str) -> Located {
    Located {
        finding: Finding::new(
            &r::manifest_field_missing::ManifestFieldMissing::META,
            format!("{}: Invalid input: expected {want}, received undefined", join(path, field)),
            format!("add `\"{field}\"`"),
        ),
        // At the object's opening brace.
        span: Span::new(v.span.start, v.span.start + 1),
    }
}

/// `field` of object `v`: a string (or absent); reports other types.
pub(super) fn string_field<'a>(v: &'a Json, path: &str, field: &str, out: &mut Vec<Located>) -> Option<&'a Json> {
    let m = v.get_last(field)?;
    if m.value.as_str().is_none() {
        at(out, m.value.span, type_error(&join(path, field), "string", &m.value));
        return None;
    }
    Some(&m.value)
}

pub(super) fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    }
}

/// The required string `name`; reports it missing or of another type.
pub(super) fn required_name<'a>(v: &'a Json, path: &str, out: &mut Vec<Located>) -> Option<&'a Json> {
    if v.get_last("name").is_none() {
        out.push(missing(v, path, "name", "string"));
        return None;
    }
    string_field(v, path, "name", out)
}

pub(super) fn keywords(v: &Json, out: &mut Vec<Located>) {
    if let Some(k) = v.get_last("keywords") {
        if !matches!(k.value.kind, Kind::Array(_)) {
            at(out, k.value.span, type_error("keywords", "array", &k.value));
        }
        for (i, item) in k.value.items().iter().enumerate() {
            if item.as_str().is_none() {
                at(out, item.span, type_error(&format!("keywords.{i}"), "string", item));
            }
        }
    }
}

/// Kebab-case: lowercase letters and digits in words joined by single hyphens.
pub fn is_kebab(name: &str) -> bool {
    !name.is_empty()
        && name.split('-').all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

/// Agent Plugins 1.0.0 §5.5: 1–64 of `a-z0-9-.`, alphanumeric ends, no `--` or `..`.
pub fn is_agent_plugin_name(name: &str) -> bool {
    let b = name.as_bytes();
    let alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    (1..=64).contains(&b.len())
        && b.iter().all(|c| alnum(c) || *c == b'-' || *c == b'.')
        && b.first().is_some_and(alnum)
        && b.last().is_some_and(alnum)
        && !name.contains("--")
        && !name.contains("..")
}

pub(super) fn name_format(
    name: &Json,
    ok: fn(&str) -> bool,
    rule: &str,
    severity: crate::Severity,
    out: &mut Vec<Located>,
) {
    let Some(s) = name.as_str() else { return };
    if !ok(s) {
        let mut f = Finding::new(
            &r::plugin_name_format::PluginNameFormat::META,
            format!("plugin name `{s}` is not {rule}"),
            "use lowercase letters, digits and single hyphens (`my-plugin`)",
        );
        f.severity = severity;
        at(out, name.span, f);
    }
}

/// The top-level keys a Claude Code `plugin.json` defines.
pub(super) const CLAUDE_PLUGIN_KEYS: [&str; 22] = [
    "$schema",
    "name",
    "version",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    "commands",
    "agents",
    "skills",
    "hooks",
    "mcpServers",
    "outputStyles",
    "lspServers",
    "userConfig",
    "metadata",
    "engines",
    "experimental",
    "optionalDependencies",
    "dependencies",
];

/// The keys of a marketplace entry that plugin.json does not define.
pub(super) const MARKETPLACE_ENTRY_ONLY: [&str; 8] =
    ["category", "source", "tags", "strict", "id", "relevance", "headers", "headersHelper"];

/// The top-level keys of a `marketplace.json`.
pub(super) const MARKETPLACE_KEYS: [&str; 8] = [
    "$schema",
    "name",
    "owner",
    "plugins",
    "description",
    "metadata",
    "version",
    "allowCrossMarketplaceDependenciesOn",
];

/// Keys of other formats, with where they are commonly seen (`claude plugin validate`'s list).
pub(super) const OTHER_FORMATS: [(&str, &[&str]); 6] = [
    ("an npm package.json", &["main", "type", "files", "bin", "scripts", "private", "bugs", "contributors"]),
    (
        "a VS Code/Cursor extension manifest",
        &["publisher", "categories", "icon", "contributes", "activationEvents", "preview"],
    ),
    ("an MCPB/DXT manifest", &["dxt_version", "mcpb_version", "user_config", "compatibility"]),
    ("an MCP server manifest", &["server", "tools", "prompts", "resources"]),
    (
        "manifests across many tools",
        &[
            "logo",
            "readme",
            "changelog",
            "support",
            "privacy_policy",
            "privacy_policies",
            "terms_of_service",
            "_comment",
        ],
    ),
    ("a JSON Schema document", &["$id", "$comment"]),
];

/// Levenshtein distance, for the "did you mean" of an unknown key.
pub(super) fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The known key an unknown `key` is a typo of: the same in another case, or within 1 edit (keys
/// of 3 characters or fewer) or 2 edits.
pub(super) fn typo_of<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    if let Some(k) = known.iter().find(|k| k.eq_ignore_ascii_case(key)) {
        return Some(k);
    }
    let limit = if key.chars().count() <= 3 { 1 } else { 2 };
    known
        .iter()
        .filter(|k| !k.starts_with('$'))
        .map(|k| (edits(key, k), *k))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, k)| k)
}

/// Unknown keys of object `v` (at `prefix`) as `claude plugin validate` words them: warnings.
pub(super) fn unknown_fields(v: &Json, prefix: &str, known: &[&str], in_plugin_json: bool, out: &mut Vec<Located>) {
    for m in v.members() {
        let key = m.key.as_str();
        if known.contains(&key) {
            continue;
        }
        let path = if prefix.is_empty() { key.to_string() } else { format!("{prefix}.{key}") };
        let origin = OTHER_FORMATS.iter().find(|(_, keys)| keys.contains(&key)).map(|(o, _)| *o);
        let message = if in_plugin_json && MARKETPLACE_ENTRY_ONLY.contains(&key) {
            format!("{path}: Field '{key}' belongs in the marketplace entry (marketplace.json), not plugin.json. It's harmless here but unused — Claude Code ignores it at load time.")
        } else if let Some(origin) = origin {
            format!("{path}: Unknown field '{key}' (commonly seen in {origin}). Claude Code ignores unrecognized fields at load time, so it's safe to keep.")
        } else if let Some(k) = typo_of(key, known) {
            format!("{path}: Unknown field '{key}' — did you mean '{k}'? Claude Code ignores unrecognized fields at load time, so this field has no effect.")
        } else {
            format!("{path}: Unknown field '{key}'. Claude Code ignores it at load time.")
        };
        at(
            out,
            m.key_span,
            Finding::new(
                &r::manifest_unknown_field::ManifestUnknownField::META,
                message,
                "remove the key, or move it where the format defines it",
            ),
        );
    }
}

/// A warning that a recommended field is absent.
pub(super) fn recommended(v: &Json, message: String, field: &str) -> Located {
    let f = Finding::new(
        &r::manifest_field_recommended::ManifestFieldRecommended::META,
        message,
        format!("add `\"{field}\"`"),
    );
    Located { finding: f, span: Span::new(v.span.start, v.span.start + 1) }
}

/// Whether `rel` has a `..` segment.
pub(super) fn has_parent(rel: &str) -> bool {
    rel.split(['/', '\\']).any(|c| c == "..")
}

/// The keys of a marketplace entry (plugin.json's and the entry's own).
pub(super) const MARKETPLACE_ENTRY_KEYS: [&str; 30] = [
    "name",
    "source",
    "description",
    "version",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    "category",
    "tags",
    "strict",
    "id",
    "relevance",
    "headers",
    "headersHelper",
    "commands",
    "agents",
    "skills",
    "hooks",
    "mcpServers",
    "outputStyles",
    "lspServers",
    "userConfig",
    "metadata",
    "engines",
    "experimental",
    "optionalDependencies",
    "dependencies",
    "$schema",
];

/// Whether `rel`, resolved against `root`, leads outside it (by `..` or by a symlink).
pub(super) fn outside(root: &Path, rel: &str, path: &str) -> Option<Finding> {
    let mut depth: i32 = 0;
    let mut climbs = false;
    for c in Path::new(rel).components() {
        match c {
            Component::ParentDir => {
                depth -= 1;
                climbs |= depth < 0;
            }
            Component::Normal(_) => depth += 1,
            Component::RootDir | Component::Prefix(_) => climbs = true,
            Component::CurDir => {}
        }
    }
    let escapes = climbs || {
        let joined = root.join(rel);
        match (std::fs::canonicalize(&joined), std::fs::canonicalize(root)) {
            (Ok(real), Ok(root)) => !real.starts_with(root),
            _ => false,
        }
    };
    escapes.then(|| {
        Finding::new(
            &r::component_path_outside::ComponentPathOutside::META,
            format!("{path}: `{rel}` leads outside the package"),
            "installs copy the package's folder alone: keep every path inside it",
        )
    })
}

pub(super) fn components(v: &Json, root: &Path, fields: &[&str], out: &mut Vec<Located>) {
    for field in fields {
        let Some(m) = v.get_last(field) else { continue };
        let paths: Vec<&Json> = match &m.value.kind {
            Kind::String(_) => vec![&m.value],
            Kind::Array(items) => items.iter().collect(),
            // Inline configuration (hooks, MCP servers): no path to judge.
            _ => vec![],
        };
        for (i, p) in paths.iter().enumerate() {
            let label = if matches!(m.value.kind, Kind::Array(_)) { format!("{field}.{i}") } else { field.to_string() };
            let Some(s) = p.as_str() else {
                if matches!(m.value.kind, Kind::Array(_)) {
                    at(out, p.span, type_error(&label, "string", p));
                }
                continue;
            };
            if !s.starts_with("./") {
                at(
                    out,
                    p.span,
                    Finding::new(
                        &r::component_path_not_relative::ComponentPathNotRelative::META,
                        format!("{label}: `{s}` does not start with `./`"),
                        format!("write it `./{}`", s.trim_start_matches('/')),
                    ),
                );
            } else if let Some(f) = outside(root, s, &label) {
                at(out, p.span, f);
            }
        }
    }
}

/// The largest manifest read.
pub const MAX_MANIFEST_BYTES: u64 = 1024 * 1024;

/// Whether `f` is a schema error of a manifest (a missing or mistyped field, a path without
/// `./`), after which `claude plugin validate` stops judging what the manifest lists.
pub fn schema_error(f: &crate::package::upload::Finding) -> bool {
    use crate::lint::rules::package as r;
    f.severity == crate::Severity::Error
        && [
            r::manifest_field_missing::ManifestFieldMissing::META.code,
            r::manifest_field_type::ManifestFieldType::META.code,
            r::component_path_not_relative::ComponentPathNotRelative::META.code,
        ]
        .contains(&f.rule.code)
}
