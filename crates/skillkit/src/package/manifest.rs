//! Package manifests read and judged: a Claude Code `plugin.json` and `marketplace.json`, an
//! Agent Plugins 1.0.0 `plugin.json`, a Codex `.codex-plugin/plugin.json` and a Copilot root
//! `plugin.json`. Each is read as the skill files are (a regular file, never a FIFO, at most
//! [`MAX_MANIFEST_BYTES`], not through a symlink leading out of its package), parsed with spans
//! ([`crate::package::json`]), and each finding points at the JSON node it is about.

use crate::lint::rules::package as r;
use crate::package::json::{self, Json, Kind};
use crate::package::upload::Finding;
use crate::syntax::text::Span;
use std::path::{Component, Path, PathBuf};

/// The largest manifest read.
pub const MAX_MANIFEST_BYTES: u64 = 1024 * 1024;

/// The `$schema` of an Agent Plugins 1.0.0 manifest.
pub const AGENT_PLUGINS_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

/// The top-level fields of an Agent Plugins 1.0.0 manifest (its schema is closed).
pub const AGENT_PLUGINS_FIELDS: [&str; 10] = [
    "$schema",
    "name",
    "version",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    "extensions",
];

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

fn at(findings: &mut Vec<Located>, span: Span, finding: Finding) {
    findings.push(Located { finding, span });
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

/// Where Codex reads a marketplace, relative to its root (a repository's, or the home folder).
pub const CODEX_MARKETPLACE: &str = ".agents/plugins/marketplace.json";

/// Codex's marketplace (`.agents/plugins/marketplace.json`), as Codex 0.171.0 reads it
/// (`codex-rs/core/src/plugins/marketplace.rs` of openai/codex: `RawMarketplaceManifest` and
/// `resolve_plugin_source_path`; its strings are in the 0.171.0 binary): `name` (a string) and
/// `plugins` (an array) required, `interface.displayName` optional; each plugin `name` and
/// `source` required, `source` an object tagged by its own `source` (`local`, with `path`:
/// starting with `./`, not empty after it, only plain folder names, resolved against the
/// marketplace's root, the folder holding `.agents/`), `policy.installation` one of
/// `NOT_AVAILABLE`, `AVAILABLE` (the default), `INSTALLED_BY_DEFAULT`, `policy.authentication`
/// `ON_INSTALL` (the default) or `ON_USE`, `category` a string. Other keys are ignored. Any
/// error makes Codex skip the whole marketplace ("skipping marketplace that failed to load").
fn codex_marketplace(v: &Json, root: &Path, out: &mut Vec<Located>) {
    required_name(v, "", out);
    if let Some(i) = v.get_last("interface") {
        if !matches!(i.value.kind, Kind::Object(_)) {
            at(out, i.value.span, type_error("interface", "object", &i.value));
        } else {
            string_field(&i.value, "interface", "displayName", out);
        }
    }
    let plugins = match v.get_last("plugins") {
        None => return out.push(missing(v, "", "plugins", "array")),
        Some(p) if !matches!(p.value.kind, Kind::Array(_)) => {
            return at(out, p.value.span, type_error("plugins", "array", &p.value))
        }
        Some(p) => p,
    };
    for (i, p) in plugins.value.items().iter().enumerate() {
        let path = format!("plugins.{i}");
        if !matches!(p.kind, Kind::Object(_)) {
            at(out, p.span, type_error(&path, "object", p));
            continue;
        }
        required_name(p, &path, out);
        string_field(p, &path, "category", out);
        if let Some(policy) = p.get_last("policy") {
            if !matches!(policy.value.kind, Kind::Object(_)) {
                at(out, policy.value.span, type_error(&format!("{path}.policy"), "object", &policy.value));
            } else {
                for (field, allowed) in [
                    ("installation", &["NOT_AVAILABLE", "AVAILABLE", "INSTALLED_BY_DEFAULT"][..]),
                    ("authentication", &["ON_INSTALL", "ON_USE"][..]),
                ] {
                    let Some(value) = string_field(&policy.value, &format!("{path}.policy"), field, out) else {
                        continue;
                    };
                    let given = value.as_str().unwrap_or_default();
                    if !allowed.contains(&given) {
                        let list = allowed.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ");
                        at(
                            out,
                            value.span,
                            Finding::new(
                                &r::manifest_field_type::ManifestFieldType::META,
                                format!("{path}.policy.{field}: unknown variant `{given}`, expected one of {list}"),
                                format!("Codex takes {list}"),
                            ),
                        );
                    }
                }
            }
        }
        let Some(source) = p.get_last("source") else {
            out.push(missing(p, &path, "source", "object"));
            continue;
        };
        let source = &source.value;
        if !matches!(source.kind, Kind::Object(_)) {
            at(out, source.span, type_error(&format!("{path}.source"), "object", source));
            continue;
        }
        let Some(kind) = string_field(source, &format!("{path}.source"), "source", out) else {
            if source.get_last("source").is_none() {
                out.push(missing(source, &format!("{path}.source"), "source", "string"));
            }
            continue;
        };
        if kind.as_str() != Some("local") {
            // Codex 0.171.0 knows other sources too (git); only local ones are checked here.
            continue;
        }
        let Some(rel) = string_field(source, &format!("{path}.source"), "path", out) else {
            if source.get_last("path").is_none() {
                out.push(missing(source, &format!("{path}.source"), "path", "string"));
            }
            continue;
        };
        let text = rel.as_str().unwrap_or_default();
        let bad = |message: &str, rule: &'static crate::lint::rules::RuleMeta| {
            Finding::new(
                rule,
                format!("{path}.source.path: {message}"),
                "write `./` and the plugin's folder under the marketplace's root, as `./plugins/notes`",
            )
        };
        let Some(inner) = text.strip_prefix("./") else {
            at(
                out,
                rel.span,
                bad(
                    "local plugin source path must start with `./`",
                    &r::component_path_not_relative::ComponentPathNotRelative::META,
                ),
            );
            continue;
        };
        if inner.is_empty() {
            at(
                out,
                rel.span,
                bad(
                    "local plugin source path must not be empty",
                    &r::component_path_not_relative::ComponentPathNotRelative::META,
                ),
            );
            continue;
        }
        // Codex wants every component of `Path::new(inner)` a plain name: no root, no `..`, no
        // leading `.` (a `.` further on is dropped by the path's own normalisation).
        if inner.starts_with('/') || inner.split('/').next() == Some(".") || inner.split('/').any(|c| c == "..") {
            at(
                out,
                rel.span,
                bad(
                    "local plugin source path must stay within the marketplace root",
                    &r::component_path_outside::ComponentPathOutside::META,
                ),
            );
            continue;
        }
        if !root.join(inner).is_dir() {
            at(
                out,
                rel.span,
                Finding::new(
                    &r::marketplace_source_missing::MarketplaceSourceMissing::META,
                    format!("{path}.source.path: no plugin folder at `{text}`: Codex cannot install it"),
                    "point `path` at the plugin's folder, relative to the folder holding `.agents/`",
                ),
            );
        }
    }
}

fn type_error(path: &str, want: &str, got: &Json) -> Finding {
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

fn article(want: &str) -> String {
    if want.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {want}")
    } else {
        format!("a {want}")
    }
}

fn missing(v: &Json, path: &str, field: &str, want: &str) -> Located {
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
fn string_field<'a>(v: &'a Json, path: &str, field: &str, out: &mut Vec<Located>) -> Option<&'a Json> {
    let m = v.get_last(field)?;
    if m.value.as_str().is_none() {
        at(out, m.value.span, type_error(&join(path, field), "string", &m.value));
        return None;
    }
    Some(&m.value)
}

fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    }
}

/// The required string `name`; reports it missing or of another type.
fn required_name<'a>(v: &'a Json, path: &str, out: &mut Vec<Located>) -> Option<&'a Json> {
    if v.get_last("name").is_none() {
        out.push(missing(v, path, "name", "string"));
        return None;
    }
    string_field(v, path, "name", out)
}

fn keywords(v: &Json, out: &mut Vec<Located>) {
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

fn name_format(name: &Json, ok: fn(&str) -> bool, rule: &str, severity: crate::Severity, out: &mut Vec<Located>) {
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

/// Component fields of a Claude Code plugin manifest that hold paths.
const CLAUDE_COMPONENTS: [&str; 7] =
    ["commands", "agents", "skills", "hooks", "mcpServers", "outputStyles", "lspServers"];
/// Component fields of a Codex plugin manifest that hold paths.
const CODEX_COMPONENTS: [&str; 4] = ["skills", "mcpServers", "apps", "hooks"];

/// The top-level keys a Claude Code `plugin.json` defines.
const CLAUDE_PLUGIN_KEYS: [&str; 22] = [
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
const MARKETPLACE_ENTRY_ONLY: [&str; 8] =
    ["category", "source", "tags", "strict", "id", "relevance", "headers", "headersHelper"];

/// The top-level keys of a `marketplace.json`.
const MARKETPLACE_KEYS: [&str; 8] = [
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
const OTHER_FORMATS: [(&str, &[&str]); 6] = [
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
fn edits(a: &str, b: &str) -> usize {
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
fn typo_of<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
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
fn unknown_fields(v: &Json, prefix: &str, known: &[&str], in_plugin_json: bool, out: &mut Vec<Located>) {
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
fn recommended(v: &Json, message: String, field: &str) -> Located {
    let f = Finding::new(
        &r::manifest_field_recommended::ManifestFieldRecommended::META,
        message,
        format!("add `\"{field}\"`"),
    );
    Located { finding: f, span: Span::new(v.span.start, v.span.start + 1) }
}

/// The marketplace names Claude Code 2.1.332 keeps for Anthropic's own marketplaces (its
/// bundle's `J6`: the official names, the community ones, the plugin directory's). They pass
/// `claude plugin validate` (adding one from a source outside Anthropic's GitHub organization is
/// refused later, at `claude plugin marketplace add`).
pub const OFFICIAL_MARKETPLACES: &[&str] = &[
    "claude-code-marketplace",
    "claude-code-plugins",
    "claude-plugins-official",
    "anthropic-marketplace",
    "anthropic-plugins",
    "agent-skills",
    "anthropic-agent-skills",
    "life-sciences",
    "knowledge-work-plugins",
    "claude-for-legal",
    "claude-for-financial-services",
    "financial-services-plugins",
    "first-party-plugins",
    "claude-tag-plugins",
    "claude-community",
    "claude-plugins-community",
    "healthcare",
    "anthropic-plugin-directory",
    "claude-plugin-directory",
];

/// The marketplace names Claude Code keeps for its own kinds of plugins, and what for (its
/// bundle's `Ke`): `Marketplace name "{name}" is reserved for {what}`.
pub const RESERVED_MARKETPLACES: &[(&str, &str)] = &[
    ("inline", "--plugin-dir session plugins"),
    ("builtin", "built-in plugins"),
    ("skills-dir", "plugins auto-loaded from .claude/skills/"),
    ("synced", "plugins synced from your claude.ai account"),
    ("claude-plugin-test", "plugins loaded by claude plugin test"),
];

/// Whether a marketplace name impersonates an official Anthropic/Claude marketplace, as Claude
/// Code 2.1.332 decides it (its bundle's `aHt`, read in `claude.exe`): never for an official name
/// itself; always for a name with a character outside printable ASCII; else when "official" and
/// "anthropic"/"claude" meet with only punctuation between them (either order, anywhere, also
/// once all punctuation is removed), or the name starts with "anthropic"/"claude" followed (after
/// punctuation) by "marketplace", "plugins", "official", "directory" or "directories", also when
/// its first words are run together (`claude.market.place`).
pub fn impersonates_official(name: &str) -> bool {
    use std::sync::LazyLock;
    const OFFICIAL: &str = "official[^a-z0-9]*(anthropic|claude)|(?:anthropic|claude)[^a-z0-9]*official";
    static PREFIX: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(&format!(
            "(?i){OFFICIAL}|^(?:anthropic|claude)[^a-z0-9]*(marketplace|plugins|official|directory|directories)"
        ))
        .expect("a valid pattern")
    });
    static JOINED: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new("(?i)official(?:anthropic|claude)|(?:anthropic|claude)official").expect("a valid pattern")
    });
    static WHOLE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new("(?i)^(?:anthropic|claude)(?:marketplace|plugins|official|directory|directories)s?$")
            .expect("a valid pattern")
    });
    if OFFICIAL_MARKETPLACES.contains(&name.to_lowercase().as_str()) {
        return false;
    }
    if name.chars().any(|c| !(' '..='~').contains(&c)) || PREFIX.is_match(name) {
        return true;
    }
    let alnum = |c: char| c.is_ascii_alphanumeric();
    if PREFIX.is_match(name.trim_start_matches(|c: char| !alnum(c))) {
        return true;
    }
    let squeezed: String = name.chars().filter(|c| alnum(*c)).collect();
    if JOINED.is_match(&squeezed) {
        return true;
    }
    // The first words run together, one more at a time, until longer than 21 characters.
    let mut joined = String::new();
    for word in name.split(|c: char| !alnum(c)).filter(|w| !w.is_empty()) {
        joined.push_str(word);
        if WHOLE.is_match(&joined) {
            return true;
        }
        if joined.len() > 21 {
            break;
        }
    }
    false
}

/// `claude plugin validate`'s checks of a marketplace's `name` (a string): each that fails is
/// an error, in its schema's order.
fn marketplace_name(name: &Json, out: &mut Vec<Located>) {
    let Some(s) = name.as_str() else { return };
    let meta = &r::plugin_name_format::PluginNameFormat::META;
    let mut errors = vec![];
    if s.is_empty() {
        errors.push("name: Marketplace must have a name".to_string());
    }
    if s.contains(' ') {
        errors.push("name: Marketplace name cannot contain spaces. Use kebab-case (e.g., \"my-marketplace\")".into());
    }
    if s.chars().any(|c| {
        c.is_control() || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    }) {
        errors.push("name: Marketplace name cannot contain control or bidirectional-formatting characters".into());
    }
    if s.contains('/') || s.contains('\\') || s.contains("..") || s == "." {
        errors.push(
            "name: Marketplace name cannot contain path separators (/ or \\), \"..\" sequences, or be \".\"".into(),
        );
    }
    if impersonates_official(s) {
        errors.push("name: Marketplace name impersonates an official Anthropic/Claude marketplace".into());
    }
    let lower = s.to_lowercase();
    if let Some((_, what)) = RESERVED_MARKETPLACES.iter().find(|(n, _)| *n == lower) {
        errors.push(format!("name: Marketplace name \"{lower}\" is reserved for {what}"));
    }
    for message in errors {
        at(out, name.span, Finding::new(meta, message, "choose a kebab-case name of your own (`team-skills`)"));
    }
}

/// `claude plugin validate`'s checks of a plugin's `name` (a string).
fn claude_plugin_name(name: &Json, out: &mut Vec<Located>) -> bool {
    let Some(s) = name.as_str() else { return true };
    let meta = &r::plugin_name_format::PluginNameFormat::META;
    let help = "use lowercase letters, digits and single hyphens (`my-plugin`)";
    let error = if s.is_empty() {
        Some("name: Plugin name cannot be empty".to_string())
    } else if s.contains(' ') {
        Some("name: Plugin name cannot contain spaces. Use kebab-case (e.g., \"my-plugin\")".to_string())
    } else if s.chars().any(|c| {
        c.is_control() || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    }) {
        Some("name: Plugin name cannot contain control or bidirectional-formatting characters".to_string())
    } else {
        None
    };
    if let Some(message) = error {
        at(out, name.span, Finding::new(meta, message, help));
        return false;
    }
    if !is_kebab(s) {
        let mut f = Finding::new(
            meta,
            format!("name: Plugin name \"{s}\" is not kebab-case. Claude Code accepts it, but the Claude.ai marketplace sync requires kebab-case (lowercase letters, digits, and hyphens only, e.g., \"my-plugin\")."),
            help,
        );
        f.severity = crate::Severity::Warning;
        at(out, name.span, f);
    }
    true
}

fn claude_plugin(v: &Json, root: &Path, out: &mut Vec<Located>, kind: ManifestKind) {
    let _ = kind;
    let before = out.len();
    let mut schema_ok = true;
    if let Some(name) = required_name(v, "", out) {
        schema_ok &= claude_plugin_name(name, out);
    }
    for f in ["version", "description", "homepage", "repository", "license"] {
        string_field(v, "", f, out);
    }
    if let Some(a) = v.get_last("author") {
        if !matches!(a.value.kind, Kind::Object(_)) {
            at(out, a.value.span, type_error("author", "object", &a.value));
        } else if let Some(n) = string_field(&a.value, "author", "name", out) {
            if n.as_str() == Some("") {
                at(
                    out,
                    n.span,
                    Finding::new(
                        &r::manifest_field_type::ManifestFieldType::META,
                        "author.name: Author name cannot be empty",
                        "name the author, or drop `author`",
                    ),
                );
            }
        }
    }
    keywords(v, out);
    schema_ok &= out[before..].iter().all(|l| l.finding.severity != crate::Severity::Error);
    schema_ok &= claude_components(v, root, out);
    unknown_fields(v, "", &CLAUDE_PLUGIN_KEYS, true, out);
    // The recommendations, once the manifest passes its schema.
    if schema_ok {
        if v.get_last("version").is_none() {
            out.push(recommended(
                v,
                "version: No version specified. Consider adding a version following semver (e.g., \"1.0.0\")".into(),
                "version",
            ));
        }
        if v.get_last("description").is_none() {
            out.push(recommended(v, "description: No description provided. Adding a description helps users understand what your plugin does".into(), "description"));
        }
        if v.get_last("author").is_none() {
            out.push(recommended(
                v,
                "author: No author information provided. Consider adding author details for plugin attribution".into(),
                "author",
            ));
        }
    }
}

/// Whether `rel` has a `..` segment.
fn has_parent(rel: &str) -> bool {
    rel.split(['/', '\\']).any(|c| c == "..")
}

/// A Claude Code plugin's component paths, as `claude plugin validate` judges them: the schema
/// (`./`), then each path: no `..`, present, and for `skills` a folder. Returns whether the
/// schema part passed.
fn claude_components(v: &Json, root: &Path, out: &mut Vec<Located>) -> bool {
    let mut ok = true;
    for field in CLAUDE_COMPONENTS {
        let Some(m) = v.get_last(field) else { continue };
        let array = matches!(m.value.kind, Kind::Array(_));
        let paths: Vec<&Json> = match &m.value.kind {
            Kind::String(_) => vec![&m.value],
            Kind::Array(items) => items.iter().collect(),
            // Inline configuration (hooks, MCP servers): no path to judge.
            _ => vec![],
        };
        // Fields that also take inline configuration: a union, whose error is zod's bare one.
        let union = matches!(field, "commands" | "hooks" | "mcpServers" | "lspServers");
        for (i, p) in paths.iter().enumerate() {
            let label = if array { format!("{field}.{i}") } else { field.to_string() };
            let Some(s) = p.as_str() else {
                if array {
                    ok = false;
                    at(out, p.span, type_error(&label, "string", p));
                }
                continue;
            };
            let indexed = format!("{field}[{i}]");
            let shown = if field == "skills" || array { indexed.clone() } else { field.to_string() };
            if !s.starts_with("./") {
                ok = false;
                let message = if union {
                    format!("{label}: Invalid input")
                } else {
                    format!("{label}: Invalid string: must start with \"./\"")
                };
                at(
                    out,
                    p.span,
                    Finding::new(
                        &r::component_path_not_relative::ComponentPathNotRelative::META,
                        message,
                        format!("write it `./{}`", s.trim_start_matches('/')),
                    ),
                );
            }
            if has_parent(s) {
                at(
                    out,
                    p.span,
                    Finding::new(
                        &r::component_path_outside::ComponentPathOutside::META,
                        format!("{indexed}: Path contains \"..\" which could be a path traversal attempt: {s}"),
                        "installs copy the plugin's folder alone: keep every path inside it",
                    ),
                );
                continue;
            }
            if Path::new(s).is_absolute() {
                continue;
            }
            if let Some(f) = outside(root, s, &shown) {
                at(out, p.span, f);
                continue;
            }
            let target = root.join(s);
            let missing_meta = &r::component_path_missing::ComponentPathMissing::META;
            if std::fs::symlink_metadata(&target).is_err() {
                at(
                    out,
                    p.span,
                    Finding::new(
                        missing_meta,
                        format!("{shown}: Path not found: {s}. The runtime loader will report this as a load failure."),
                        "point the path at a file or folder of the plugin",
                    ),
                );
            } else if field == "skills" && target.is_file() {
                let dir = s.rsplit_once('/').map_or(".", |(d, _)| d);
                let to = if dir == "." || dir.is_empty() {
                    " — point to the plugin root '.' instead".to_string()
                } else {
                    format!(" — point to the parent directory '{dir}' instead")
                };
                at(
                    out,
                    p.span,
                    Finding::new(
                        missing_meta,
                        format!(
                            "{shown}: Path is a file; skills entries must be directories containing SKILL.md{to}: {s}"
                        ),
                        "list the skill's folder, not its SKILL.md",
                    ),
                );
            }
        }
    }
    ok
}

fn codex_plugin(v: &Json, root: &Path, out: &mut Vec<Located>) {
    if let Some(name) = required_name(v, "", out) {
        name_format(name, is_kebab, "kebab-case", crate::Severity::Error, out);
    }
    for f in ["version", "description"] {
        string_field(v, "", f, out);
    }
    keywords(v, out);
    components(v, root, &CODEX_COMPONENTS, out);
}

fn agent_plugin(v: &Json, out: &mut Vec<Located>) {
    match v.get_last("$schema") {
        None => out.push(missing(v, "", "$schema", "string")),
        Some(m) => match m.value.as_str() {
            None => at(out, m.value.span, type_error("$schema", "string", &m.value)),
            Some(s) if s != AGENT_PLUGINS_SCHEMA => at(
                out,
                m.value.span,
                Finding::new(
                    &r::manifest_field_type::ManifestFieldType::META,
                    format!("$schema: unsupported Agent Plugins version `{s}`"),
                    format!("Agent Plugins 1.0.0's is `{AGENT_PLUGINS_SCHEMA}`"),
                ),
            ),
            Some(_) => {}
        },
    }
    if let Some(name) = required_name(v, "", out) {
        name_format(
            name,
            is_agent_plugin_name,
            "1-64 of `a-z0-9-.`, alphanumeric at both ends, without `--` or `..`",
            crate::Severity::Error,
            out,
        );
    }
    for f in ["version", "description", "homepage", "repository", "license"] {
        string_field(v, "", f, out);
    }
    if let Some(a) = v.get_last("author") {
        if !matches!(a.value.kind, Kind::Object(_)) {
            at(out, a.value.span, type_error("author", "object", &a.value));
        }
        for m in a.value.members() {
            if !["name", "email", "url"].contains(&m.key.as_str()) {
                at(
                    out,
                    m.key_span,
                    Finding::new(
                        &r::manifest_field_type::ManifestFieldType::META,
                        format!("author.{}: not allowed (an author has only `name`, `email` and `url`)", m.key),
                        "remove the key",
                    ),
                );
            } else if m.value.as_str().is_none() {
                at(out, m.value.span, type_error(&format!("author.{}", m.key), "string", &m.value));
            }
        }
    }
    keywords(v, out);
    if let Some(e) = v.get_last("extensions") {
        if !matches!(e.value.kind, Kind::Object(_)) {
            at(out, e.value.span, type_error("extensions", "object", &e.value));
        }
    }
    for m in v.members() {
        if !AGENT_PLUGINS_FIELDS.contains(&m.key.as_str()) {
            at(
                out,
                m.key_span,
                Finding::new(
                    &r::manifest_unknown_field::ManifestUnknownField::META,
                    format!("unknown field `{}`: the Agent Plugins 1.0.0 manifest is closed; clients ignore it", m.key),
                    "client-specific data belongs under `extensions.\"<reverse.domain>\"`",
                ),
            );
        }
    }
}

/// Agent Plugins 1.0.0 §4.1, §7.2: `mcpServers` is an object of servers; a server's `cwd` is a
/// plugin-relative path (`./…`), and its `command`, when it is a path (`./…`, `../…`), stays
/// inside the plugin.
fn agent_mcp(v: &Json, root: &Path, out: &mut Vec<Located>) {
    let Some(servers) = v.get_last("mcpServers") else { return };
    if !matches!(servers.value.kind, Kind::Object(_)) {
        at(out, servers.value.span, type_error("mcpServers", "object", &servers.value));
        return;
    }
    for server in servers.value.members() {
        let path = format!("mcpServers.{}", server.key);
        if !matches!(server.value.kind, Kind::Object(_)) {
            at(out, server.value.span, type_error(&path, "object", &server.value));
            continue;
        }
        if let Some(cwd) = string_field(&server.value, &path, "cwd", out) {
            let c = cwd.as_str().unwrap_or_default();
            if !c.starts_with("./") {
                at(
                    out,
                    cwd.span,
                    Finding::new(
                        &r::component_path_not_relative::ComponentPathNotRelative::META,
                        format!("{path}.cwd: `{c}` does not start with `./`"),
                        format!("write it `./{}`", c.trim_start_matches('/')),
                    ),
                );
            } else if let Some(f) = outside(root, c, &format!("{path}.cwd")) {
                at(out, cwd.span, f);
            }
        }
        if let Some(cmd) = string_field(&server.value, &path, "command", out) {
            let c = cmd.as_str().unwrap_or_default();
            if c.starts_with("./") || c.starts_with("../") || c.starts_with('/') {
                if let Some(f) = outside(root, c, &format!("{path}.command")) {
                    at(out, cmd.span, f);
                }
            }
        }
    }
}

/// The keys of a marketplace entry (plugin.json's and the entry's own).
const MARKETPLACE_ENTRY_KEYS: [&str; 30] = [
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

fn marketplace(v: &Json, root: &Path, out: &mut Vec<Located>) {
    let before = out.len();
    let mut advice = vec![];
    marketplace_checks(v, root, out, &mut advice);
    // The recommendations, once the manifest passes its schema.
    if !out[before..].iter().any(|l| schema_error(&l.finding)) {
        out.append(&mut advice);
    }
}

fn marketplace_checks(v: &Json, root: &Path, out: &mut Vec<Located>, advice: &mut Vec<Located>) {
    unknown_fields(v, "", &MARKETPLACE_KEYS, false, out);
    if let Some(name) = required_name(v, "", out) {
        marketplace_name(name, out);
    }
    match v.get_last("owner") {
        None => out.push(missing(v, "", "owner", "object")),
        Some(o) if !matches!(o.value.kind, Kind::Object(_)) => {
            at(out, o.value.span, type_error("owner", "object", &o.value))
        }
        Some(o) => {
            required_name(&o.value, "owner", out);
        }
    }
    let described = v.get_last("description").is_some()
        || v.get_last("metadata").and_then(|m| m.value.get_last("description")).is_some();
    if !described {
        advice.push(recommended(v, "description: No marketplace description provided. Adding a description helps users understand what this marketplace offers".into(), "description"));
    }
    let plugins = match v.get_last("plugins") {
        None => {
            out.push(missing(v, "", "plugins", "array"));
            return;
        }
        Some(p) if !matches!(p.value.kind, Kind::Array(_)) => {
            at(out, p.value.span, type_error("plugins", "array", &p.value));
            return;
        }
        Some(p) => p,
    };
    if plugins.value.items().is_empty() {
        let mut f = recommended(v, "plugins: Marketplace has no plugins defined".into(), "plugins");
        f.span = plugins.value.span;
        advice.push(f);
    }
    let mut names: std::collections::HashMap<&str, usize> = Default::default();
    for p in plugins.value.items() {
        if let Some(n) = p.get_last("name").and_then(|n| n.value.as_str()) {
            *names.entry(n).or_default() += 1;
        }
    }
    for (i, p) in plugins.value.items().iter().enumerate() {
        let path = format!("plugins.{i}");
        if !matches!(p.kind, Kind::Object(_)) {
            at(out, p.span, type_error(&path, "object", p));
            continue;
        }
        unknown_fields(p, &format!("plugins[{i}]"), &MARKETPLACE_ENTRY_KEYS, false, out);
        if let Some(name) = required_name(p, &path, out) {
            let n = name.as_str().unwrap_or_default();
            if names.get(n).copied().unwrap_or(0) > 1 {
                at(
                    out,
                    name.span,
                    Finding::new(
                        &r::marketplace_duplicate_plugin::MarketplaceDuplicatePlugin::META,
                        format!("plugins[{i}].name: Duplicate plugin name \"{n}\" found in marketplace"),
                        "give each plugin of the marketplace its own name",
                    ),
                );
            }
        }
        match p.get_last("source") {
            None => {
                let mut f = invalid_source(&path);
                f.rule = &r::manifest_field_missing::ManifestFieldMissing::META;
                at(out, Span::new(p.span.start, p.span.start + 1), f)
            }
            Some(s) => match &s.value.kind {
                Kind::String(src) => relative_source(src, s.value.span, root, i, out),
                Kind::Object(_) => {
                    let ok = match s.value.get_last("source").and_then(|k| k.value.as_str()) {
                        Some("github") => s.value.get_last("repo").is_some_and(|r| r.value.as_str().is_some()),
                        Some("url" | "git") => s.value.get_last("url").is_some_and(|r| r.value.as_str().is_some()),
                        Some(_) => true,
                        None => false,
                    };
                    if !ok {
                        at(out, s.value.span, invalid_source(&path));
                    }
                }
                _ => at(out, s.value.span, invalid_source(&path)),
            },
        }
        entry_version(p, root, i, out);
    }
}

/// An entry's `version` against its plugin's own plugin.json (which wins at install).
fn entry_version(p: &Json, root: &Path, i: usize, out: &mut Vec<Located>) {
    let Some(version) = p.get_last("version") else { return };
    let Some(a) = version.value.as_str() else { return };
    let Some(src) = p.get_last("source").and_then(|s| s.value.as_str()) else { return };
    if !src.starts_with("./") || has_parent(src) {
        return;
    }
    let rel = src.trim_start_matches("./").trim_end_matches('/');
    let Ok(bytes) = crate::files::read(&root.join(rel).join(".claude-plugin/plugin.json"), MAX_MANIFEST_BYTES) else {
        return;
    };
    let text = String::from_utf8_lossy(&bytes);
    let Ok(plugin) = json::parse(text.trim_start_matches('\u{feff}')) else { return };
    let Some(b) = plugin.get_last("version").and_then(|v| v.value.as_str().map(str::to_string)) else { return };
    if a != b {
        let mut f = Finding::new(
            &r::marketplace_version_mismatch::MarketplaceVersionMismatch::META,
            format!("plugins[{i}].version: Entry declares version \"{a}\" but {rel}/.claude-plugin/plugin.json says \"{b}\". At install time, plugin.json wins (calculatePluginVersion precedence) — the entry version is silently ignored. Update this entry to \"{b}\" to match."),
            format!("write `\"version\": \"{b}\"` in the entry, or drop it"),
        );
        f.severity = crate::Severity::Warning;
        at(out, version.value.span, f);
    }
}

fn invalid_source(path: &str) -> Finding {
    Finding::new(
        &r::manifest_field_type::ManifestFieldType::META,
        format!("{path}.source: Invalid input"),
        "a source is a relative path (`./plugins/x`) or an object such as `{\"source\": \"github\", \"repo\": \"owner/name\"}`",
    )
}

/// A marketplace entry's relative source: `./`-relative, without `..`. A folder that is missing
/// is not reported (`claude plugin validate` does not); one that is a file is.
fn relative_source(src: &str, span: Span, root: &Path, i: usize, out: &mut Vec<Located>) {
    if has_parent(src) {
        let mut rest = src.trim_start_matches("./");
        while let Some(r) = rest.strip_prefix("../") {
            rest = r;
        }
        at(
            out,
            span,
            Finding::new(
                &r::component_path_outside::ComponentPathOutside::META,
                format!("plugins[{i}].source: Path contains \"..\": {src}. Plugin source paths are resolved relative to the marketplace root (the directory containing .claude-plugin/), not relative to marketplace.json. Use \"./{rest}\" instead of \"{src}\"."),
                "installs copy the marketplace's folder alone: keep every source inside it",
            ),
        );
    }
    if !src.starts_with("./") {
        at(
            out,
            span,
            Finding::new(
                &r::component_path_not_relative::ComponentPathNotRelative::META,
                format!("plugins.{i}.source: Invalid string: must start with \"./\""),
                format!("write it `./{}`", src.trim_start_matches('/')),
            ),
        );
        return;
    }
    if has_parent(src) {
        return;
    }
    if let Some(f) = outside(root, src, &format!("plugins[{i}].source")) {
        at(out, span, f);
        return;
    }
    let dir = root.join(src);
    if dir.exists() && !dir.is_dir() {
        let file = dir.join(".claude-plugin/plugin.json");
        at(
            out,
            span,
            Finding::new(
                &r::marketplace_source_missing::MarketplaceSourceMissing::META,
                format!("plugins[{i}].source: A path component of {} is not a directory, so the file cannot be read. The entry will fail to load at install time.", file.display()),
                "point `source` at the plugin's folder",
            ),
        );
    }
}

/// Whether `rel`, resolved against `root`, leads outside it (by `..` or by a symlink).
fn outside(root: &Path, rel: &str, path: &str) -> Option<Finding> {
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

fn components(v: &Json, root: &Path, fields: &[&str], out: &mut Vec<Located>) {
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

/// The value of `key` in a YAML mapping's `entries`.
fn get<'a>(entries: &'a [crate::syntax::yaml::Entry], key: &str) -> Option<&'a crate::syntax::yaml::Node> {
    entries.iter().find(|e| e.key.as_str() == Some(key)).map(|e| &e.value)
}

/// The findings on a skill's Codex metadata (`agents/openai.yaml`, `text`) whose skill folder is
/// `skill_dir`, each at its YAML node.
pub fn codex_metadata(text: &str, skill_dir: &Path) -> Vec<Located> {
    use crate::syntax::yaml::{self, NodeKind};
    let meta = &r::codex_skill_metadata::CodexSkillMetadata::META;
    let mut out = vec![];
    let y = yaml::parse(text, 0);
    if let Some(e) = &y.error {
        at(
            &mut out,
            e.span,
            Finding::new(
                meta,
                format!("agents/openai.yaml: invalid YAML: {}", e.message),
                "Codex drops metadata it cannot read",
            ),
        );
        return out;
    }
    let Some(root) = &y.root else { return out };
    let Some(entries) = root.entries() else {
        at(
            &mut out,
            root.span,
            Finding::new(
                meta,
                format!("agents/openai.yaml: expected a mapping, found {}", root.kind_name()),
                "the file is a mapping of `interface` and `policy`",
            ),
        );
        return out;
    };
    if let Some(interface) = get(entries, "interface").and_then(|n| n.entries()) {
        for key in ["icon_small", "icon_large"] {
            let Some(node) = get(interface, key) else { continue };
            let Some(path) = node.as_str() else { continue };
            let rel = path.trim_start_matches("./");
            let inside = !Path::new(rel).components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir));
            if !inside || !skill_dir.join(rel).is_file() {
                at(
                    &mut out,
                    node.span,
                    Finding::new(
                        meta,
                        format!("interface.{key}: `{path}` is not a file of the skill"),
                        "Codex shows a broken entry for a dangling icon",
                    ),
                );
            }
        }
    }
    if let Some(policy) = get(entries, "policy").and_then(|n| n.entries()) {
        if let Some(node) = get(policy, "allow_implicit_invocation") {
            let boolean = matches!(&node.kind, NodeKind::Scalar { value, .. } if node.is_plain() && matches!(value.as_str(), "true" | "false"));
            if !boolean {
                at(
                    &mut out,
                    node.span,
                    Finding::new(
                        meta,
                        "policy.allow_implicit_invocation: expected `true` or `false`",
                        "write the boolean unquoted",
                    ),
                );
            }
        }
    }
    out
}

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
